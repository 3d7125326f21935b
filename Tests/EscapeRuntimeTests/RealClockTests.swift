import EscapeJSON
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `efb pipe` on the real clock, driven line by line while it runs.
final class LivePipe: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var ended = false

    init(_ arguments: [String]) throws {
        process.executableURL = Support.executable
        process.arguments = ["pipe"] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread {
            while true {
                let data = handle.availableData
                self.lock.withLock {
                    if data.isEmpty { self.ended = true } else { self.bytes += data }
                }
                if data.isEmpty { break }
            }
        }.start()
    }

    /// Sends lines (each gets its newline).
    func send(_ lines: String...) {
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Closes the engine's standard input.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Sends a signal to the engine.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// The events written so far.
    var events: [[String: JSONValue]] {
        get throws { try Support.events(lock.withLock { bytes }) }
    }

    /// Waits until `condition` holds for the events, or `seconds` pass; returns whether it held.
    func wait(seconds: Double = 20, for condition: ([[String: JSONValue]]) -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition(events) { return true }
            usleep(10_000)
        }
        return try condition(events)
    }

    /// Waits for the process to end (at most `seconds`), returning its status, or `nil` if it did not end.
    func exitStatus(within seconds: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }
}

/// The real clock: waits are deadlines, not sleeps; the end of input and stop signals are seen at once.
@Suite struct RealClockTests {
    private static func types(_ events: [[String: JSONValue]]) -> [String] {
        events.compactMap { if case .string(let type) = $0["type"] { type } else { nil } }
    }

    @Test func aHintIsAnnouncedWithoutBeingAsked() throws {
        let pipe = try LivePipe(["--memory-save", "--hint-interval", "0.2"])
        pipe.send(#"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#)
        let hinted = try pipe.wait { events in
            events.contains { $0["type"] == "announce" && $0["category"] == "hint" && $0["replyTo"] == nil }
        }
        #expect(hinted)
        pipe.send(#"{"type":"quit"}"#)
        #expect(pipe.exitStatus() == 0)
    }

    /// A wait far longer than the test's patience, then the end of input: the wait is cut short, the
    /// game ends with `ended` (eof) and `bye`.
    @Test func theEndOfInputCutsALongWaitShort() throws {
        let pipe = try LivePipe(["--memory-save"])
        pipe.send(#"{"type":"wait","ms":600000,"id":"w"}"#)
        try pipe.closeInput()
        #expect(pipe.exitStatus(within: 30) == 0)
        let events = try pipe.events
        #expect(Array(Self.types(events).suffix(3)) == ["done", "ended", "bye"])
        #expect(events.last { $0["type"] == "done" }?["replyTo"] == .string("w"))
        #expect(events.first { $0["type"] == "ended" }?["reason"] == .string("eof"))
    }

    /// Lines that arrive during a wait are answered after it, in order, each with its own `done`.
    @Test func linesDuringAWaitAreAnsweredAfterItInOrder() throws {
        let pipe = try LivePipe(["--memory-save"])
        pipe.send(#"{"type":"wait","ms":300,"id":"w"}"#, #"{"type":"next","id":"n"}"#, #"{"type":"ping","id":"p"}"#)
        let answered = try pipe.wait { events in events.contains { $0["type"] == "done" && $0["replyTo"] == "p" } }
        #expect(answered)
        let dones = try pipe.events.filter { $0["type"] == "done" }.map { $0["replyTo"] }
        #expect(dones == [.string("w"), .string("n"), .string("p")])
        try pipe.closeInput()
        #expect(pipe.exitStatus() == 0)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalDuringAWaitEndsWithByeAndStatusZero(signal: Int32) throws {
        let pipe = try LivePipe(["--memory-save"])
        pipe.send(#"{"type":"ping","id":"ready"}"#, #"{"type":"wait","ms":600000,"id":"w"}"#)
        #expect(try pipe.wait { events in events.contains { $0["replyTo"] == "ready" && $0["type"] == "done" } })
        pipe.signal(signal)
        #expect(pipe.exitStatus(within: 30) == 0)
        let events = try pipe.events
        #expect(Array(Self.types(events).suffix(2)) == ["ended", "bye"])
        #expect(events.first { $0["type"] == "ended" }?["reason"] == .string("quit"))
    }
}
