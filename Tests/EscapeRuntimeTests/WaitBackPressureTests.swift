// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `efb pipe` under floods (issue 26 B and F): lines sent during a real-clock `wait` are held
/// back in the kernel, not in memory; a stop signal is acted on; an output nobody reads is waited for.
@Suite(.serialized) struct WaitBackPressureTests {
    /// `efb pipe --memory-save` on the real clock, its standard input a pipe the test writes to with
    /// `write(2)`, its standard output `output`.
    private final class Piped: @unchecked Sendable {
        let process = Process()
        let input: Int32
        init(output: FileHandle, arguments: [String] = ["pipe", "--memory-save"]) throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw TestFailure("pipe: errno \(errno)") }
            input = ends[1]
            _ = fcntl(input, F_SETFD, FD_CLOEXEC)
            process.executableURL = efbExecutable
            process.arguments = arguments
            process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Writes all of `bytes`, blocking; `false` when the reader went away.
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }

        /// Bytes written and not read yet.
        var unread: Int32 {
            var count: Int32 = 0
            _ = ioctl(input, UInt(FIONREAD), &count)
            return count
        }

        func closeInput() { close(input) }

        func exitStatus(within seconds: Double) -> Int32? {
            guard poll(seconds: seconds, until: { !process.isRunning }) else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    private static func pings(_ range: Range<Int>) -> [UInt8] {
        Array(range.map { #"{"type":"ping","id":\#($0)}"# + "\n" }.joined().utf8)
    }

    /// Before: every ping was read and kept (64 MB of pings: 1.34 GB, no output after 12 minutes), and
    /// SIGTERM needed SIGKILL.
    ///
    /// Now the engine stops reading once it keeps a bounded number of lines:
    /// the writer is held up with the pipe full, and SIGTERM ends the game with `bye`, status 0.
    @Test func aFloodDuringAWaitIsHeldBackAndAStopSignalIsActedOn() throws {
        signal(SIGPIPE, SIG_IGN)
        let file = try temporaryFolder("flood").appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let game = try Piped(output: try FileHandle(forWritingTo: file))
        #expect(game.write(Array((#"{"type":"wait","ms":600000,"id":"w"}"# + "\n").utf8)))
        let flood = Self.pings(0..<100_000)
        let done = Atomic(false)
        let written = Atomic(0)
        let writer = Thread {
            var offset = 0
            while offset < flood.count {
                let end = min(offset + 4096, flood.count)
                guard game.write(Array(flood[offset..<end])) else { break }
                offset = end
                written.set(offset)
            }
            done.set(true)
        }
        writer.start()
        let pid = game.process.processIdentifier
        // Held back: the engine sleeps in poll with the pipe full, having read no more than the lines it
        // keeps and one read (64 KiB), while the writer still has pings to write. Seen three times in a row.
        var seen = 0
        let heldBack = poll(seconds: 30) {
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            let unread = Int(game.unread)
            let held = unread >= 60_000 && written.get() - unread <= 200_000 && wchan.contains("poll")
            seen = held ? seen + 1 : 0
            return seen >= 3 || done.get()
        }
        #expect(
            heldBack && !done.get(),
            "the engine read \(written.get() - Int(game.unread)) bytes of pings during the wait"
        )
        kill(game.process.processIdentifier, SIGTERM)
        let status = game.exitStatus(within: 20)
        game.closeInput()
        #expect(status == 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasSuffix(#""type":"bye"}"# + "\n"), "\(text.suffix(200))")
    }

    /// Before: 102,000 pings queued during a wait took 195 s to answer (quadratic).
    ///
    /// Now each is
    /// answered, in order, once the wait is over.
    @Test func aHundredThousandPingsDuringAWaitAreAllAnsweredInOrder() throws {
        signal(SIGPIPE, SIG_IGN)
        let file = try temporaryFolder("flood").appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let game = try Piped(output: try FileHandle(forWritingTo: file))
        let count = 100_000
        let writer = Thread {
            _ = game.write(Array((#"{"type":"wait","ms":1500,"id":"w"}"# + "\n").utf8) + Self.pings(0..<count))
            game.closeInput()
        }
        writer.start()
        #expect(game.exitStatus(within: 120) == 0)
        let replies = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter {
            $0.contains(#""type":"done""#)
        }
        #expect(replies.count == count + 1)
        #expect(replies.first?.contains(#""replyTo":"w""#) == true)
        let inOrder = replies.dropFirst().enumerated().allSatisfy { $0.element.contains(#""replyTo":\#($0.offset),"#) }
        #expect(inOrder)
    }

    /// A day-long real-clock `wait`, then more lines than it keeps: `count` pings, each `padding`
    /// bytes longer.
    private static func dayLongWait(then count: Int, padding: Int) -> [UInt8] {
        let pad = String(repeating: "x", count: padding)
        return Array((#"{"type":"wait","ms":86400000,"id":"w"}"# + "\n").utf8)
            + Array((0..<count).map { #"{"type":"ping","id":\#($0),"pad":"\#(pad)"}"# + "\n" }.joined().utf8)
    }

    /// Checks a transcript: the wait cut short and answered first, then every ping in order, then the end.
    private static func expectEveryLineAnswered(_ text: String, pings: Int) {
        let replies = text.split(separator: "\n").filter { $0.contains(#""type":"done""#) }
        #expect(replies.count == pings + 1, "\(text.suffix(300))")
        #expect(replies.first?.contains(#""replyTo":"w""#) == true)
        #expect(replies.dropFirst().enumerated().allSatisfy { $0.element.contains(#""replyTo":\#($0.offset),"#) })
        #expect(
            text.hasSuffix(
                #""reason":"eof","seq":\#(pings + 6),"type":"ended"}"# + "\n" + #"{"seq":\#(pings + 7),"type":"bye"}"#
                    + "\n"
            )
        )
    }

    /// Before: with more lines behind a real-clock `wait` than it keeps (1,024 lines, or two of
    /// 600 KB), the engine stopped looking at its input and sat out the whole wait (a day), the end of
    /// a file or a closed pipe unseen.
    ///
    /// Now a file's end, always at hand, and a pipe whose writer closed cut the wait short as the end
    /// of input does, and every kept line is answered.
    @Test(arguments: [(1100, 0), (2, 600_000)])
    func aWaitFullOfLinesEndsWithAFileInput(pings: Int, padding: Int) throws {
        let folder = try temporaryFolder("full-wait-file")
        let input = folder.appendingPathComponent("in.jsonl")
        try Data(Self.dayLongWait(then: pings, padding: padding)).write(to: input)
        let file = folder.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let process = Process()
        process.executableURL = efbExecutable
        process.arguments = ["pipe", "--memory-save"]
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ended = poll(seconds: 30) { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(ended, "efb sat out the wait")
        #expect(process.terminationStatus == 0)
        Self.expectEveryLineAnswered(try String(contentsOf: file, encoding: .utf8), pings: pings)
    }

    /// The same from a pipe: once its writer closes, the wait ends though the lines are still unread.
    @Test(arguments: [(1100, 0), (2, 600_000)])
    func aWaitFullOfLinesEndsWhenThePipeCloses(pings: Int, padding: Int) throws {
        signal(SIGPIPE, SIG_IGN)
        let file = try temporaryFolder("full-wait-pipe").appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let game = try Piped(output: try FileHandle(forWritingTo: file))
        let lines = Self.dayLongWait(then: pings, padding: padding)
        let writer = Thread {
            _ = game.write(lines)
            game.closeInput()
        }
        writer.start()
        #expect(game.exitStatus(within: 30) == 0, "efb sat out the wait")
        Self.expectEveryLineAnswered(try String(contentsOf: file, encoding: .utf8), pings: pings)
    }

    /// Before: a non-blocking standard output nobody reads was written in a busy loop (19 million
    /// `write` calls in 5 s).
    ///
    /// Now the engine sleeps in `poll` until it can write, and writes all once read.
    @Test func aFullNonBlockingOutputIsWaitedForNotSpunOn() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestFailure("pipe") }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let output = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let game = try Piped(output: output, arguments: ["pipe", "--memory-save", "--clock", "virtual"])
        try output.close()
        let states = 300
        #expect(game.write(Array(String(repeating: #"{"type":"state"}"# + "\n", count: states).utf8)))
        let pid = game.process.processIdentifier
        func proc(_ name: String) -> String {
            (try? String(contentsOfFile: "/proc/\(pid)/\(name)", encoding: .utf8)) ?? ""
        }
        // The pipe (64 KiB) is full long before 300 answers (about 600 KiB) are written.
        let sleeping = poll(seconds: 20) { proc("wchan").contains("poll") }
        let writes = proc("io").split(separator: "\n").first { $0.hasPrefix("syscw:") }.flatMap {
            Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        #expect(sleeping, "efb never waited in poll: \(proc("wchan"))")
        #expect((writes ?? .max) < 1000, "\(writes ?? -1) write calls")
        game.closeInput()
        // Read everything: every answer arrives, then bye.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        close(ends[0])
        #expect(game.exitStatus(within: 20) == 0)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: #""type":"done""#).count - 1 == states)
        #expect(text.hasSuffix(#""type":"bye"}"# + "\n"))
    }
}

/// A flag two threads share.
private final class Atomic<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
