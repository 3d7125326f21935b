import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real clock: waits are deadlines, not sleeps; the end of input and stop signals are seen at once.
///
/// Each test drives the built `efb pipe` line by line while it runs, and waits for conditions, never
/// for an amount of time: a test that passes proves a 10-minute `wait` was cut short.
@Suite struct RealClockTests {
    private static func send(_ game: RunningEFB, _ lines: String...) {
        game.write(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    private static func events(_ game: RunningEFB) throws -> [[String: JSONValue]] {
        try Support.events(Array(game.output.data))
    }

    private static func types(_ events: [[String: JSONValue]]) -> [String] {
        events.compactMap { if case .string(let type) = $0["type"] { type } else { nil } }
    }

    /// Waits for the process to end; `nil` when it was still running after `seconds`.
    private static func exitStatus(_ game: RunningEFB, within seconds: Double = 30) -> Int32? {
        guard poll(seconds: seconds, until: { !game.process.isRunning }) else { return nil }
        game.process.waitUntilExit()
        return game.process.terminationStatus
    }

    @Test func aHintIsAnnouncedWithoutBeingAsked() throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--hint-interval", "0.2"])
        Self.send(game, #"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#)
        try waitUntil("an unsolicited hint notice") {
            try Self.events(game).contains {
                $0["type"] == "announce" && $0["category"] == "hint" && $0["replyTo"] == nil
            }
        }
        Self.send(game, #"{"type":"quit"}"#)
        #expect(Self.exitStatus(game) == 0)
    }

    /// A wait far longer than the test's patience, then the end of input: the wait is cut short, the
    /// game ends with `ended` (eof) and `bye`.
    @Test func theEndOfInputCutsALongWaitShort() throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        Self.send(game, #"{"type":"wait","ms":600000,"id":"w"}"#)
        game.closeInput()
        #expect(Self.exitStatus(game) == 0)
        let events = try Self.events(game)
        #expect(Array(Self.types(events).suffix(3)) == ["done", "ended", "bye"])
        #expect(events.last { $0["type"] == "done" }?["replyTo"] == .string("w"))
        #expect(events.first { $0["type"] == "ended" }?["reason"] == .string("eof"))
    }

    /// Lines that arrive during a wait are answered after it, in order, each with its own `done`.
    @Test func linesDuringAWaitAreAnsweredAfterItInOrder() throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        Self.send(
            game,
            #"{"type":"wait","ms":300,"id":"w"}"#,
            #"{"type":"next","id":"n"}"#,
            #"{"type":"ping","id":"p"}"#
        )
        try waitUntil("the ping's done") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "p" }
        }
        let dones = try Self.events(game).filter { $0["type"] == "done" }.map { $0["replyTo"] }
        #expect(dones == [.string("w"), .string("n"), .string("p")])
        game.closeInput()
        #expect(Self.exitStatus(game) == 0)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalDuringAWaitEndsWithByeAndStatusZero(signal: Int32) throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        Self.send(game, #"{"type":"ping","id":"ready"}"#, #"{"type":"wait","ms":600000,"id":"w"}"#)
        try waitUntil("the ping's done") {
            try Self.events(game).contains { $0["replyTo"] == "ready" && $0["type"] == "done" }
        }
        kill(game.process.processIdentifier, signal)
        #expect(Self.exitStatus(game) == 0)
        let events = try Self.events(game)
        #expect(Array(Self.types(events).suffix(3)) == ["done", "ended", "bye"])
        #expect(events.first { $0["type"] == "ended" }?["reason"] == .string("quit"))
    }
}
