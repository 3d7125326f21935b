// SPDX-License-Identifier: Apache-2.0
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

    /// Before: a hint falling due during a real-clock `wait` was held until the wait ended, tagged with
    /// its id (a 0.2 s hint during a 3 s wait arrived at 3.04 s).
    ///
    /// Now it is told when due, without `replyTo`, while the wait goes on (§4.17): a screen-reader
    /// player hears the torch's warnings on time.
    @Test func aHintFallingDueDuringAWaitIsToldWhenDueUntagged() throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--hint-interval", "0.2"])
        Self.send(
            game,
            #"{"type":"escape"}"#,
            #"{"type":"activate","element":"begin","id":"b"}"#,
            #"{"type":"wait","ms":600000,"id":"w"}"#
        )
        try waitUntil("a hint notice during the wait") {
            try Self.events(game).contains { $0["type"] == "announce" && $0["category"] == "hint" }
        }
        let events = try Self.events(game)
        let notice = try #require(events.first { $0["type"] == "announce" && $0["category"] == "hint" })
        #expect(notice["replyTo"] == nil)
        #expect(!events.contains { $0["type"] == "done" && $0["replyTo"] == "w" }, "the wait is still pending")
        Self.send(game, #"{"type":"cancel","target":"w","id":"c"}"#)
        try waitUntil("the wait's done") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "c" }
        }
        Self.send(game, #"{"type":"quit"}"#)
        #expect(Self.exitStatus(game) == 0)
        // Told once: not again with the wait's answer.
        #expect(try Self.events(game).filter { $0["type"] == "announce" && $0["category"] == "hint" }.count == 1)
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

    /// In an engine hosting many games, a real-clock `wait` holds back its own game's lines only.
    @Test func aWaitInOneGameHoldsOnlyItsOwnGamesLines() throws {
        let game = try RunningEFB(["pipe", "--games", "2"])
        Self.send(
            game,
            #"{"type":"wait","ms":600000,"id":"w","game":1}"#,
            #"{"type":"ping","id":"held","game":1}"#,
            #"{"type":"next","id":"free","game":0}"#
        )
        try waitUntil("game 0's command answered during game 1's wait") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "free" }
        }
        #expect(try !Self.events(game).contains { $0["replyTo"] == "held" || $0["replyTo"] == "w" })
        game.closeInput()
        #expect(Self.exitStatus(game) == 0)
        let dones = try Self.events(game).filter { $0["type"] == "done" }.map { [$0["replyTo"], $0["game"]] }
        #expect(dones == [[.string("free"), .int(0)], [.string("w"), .int(1)], [.string("held"), .int(1)]])
    }

    /// Before: a line naming no game of the engine waited behind game 0's real-clock `wait` before
    /// its `invalid_params`.
    ///
    /// Now it is no game's line and waits behind none: game 0 refuses it at once (§13).
    @Test func aLineNamingNoGameIsRefusedDuringGameZerosWait() throws {
        let game = try RunningEFB(["pipe", "--games", "2"])
        Self.send(
            game,
            #"{"type":"wait","ms":600000,"id":"w"}"#,
            #"{"type":"ping","id":"nowhere","game":7}"#,
            #"{"type":"ping","id":"held"}"#
        )
        try waitUntil("the refusal during game 0's wait") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "nowhere" }
        }
        let refusal = try Self.events(game).first { $0["type"] == "error" }
        #expect(refusal?["field"] == "game" && refusal?["game"] == 0)
        #expect(try !Self.events(game).contains { $0["replyTo"] == "held" || $0["replyTo"] == "w" })
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

    /// Disagreement 2 of protocol 1.1: a hint notice on the real clock made a client's `ifGen` stale.
    @Test func aHintNoticeLeavesIfGenGoodAndEndsWithIdle() throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--hint-interval", "1"])
        Self.send(
            game,
            #"{"type":"hello","id":"h","protocol":[1,1]}"#,
            #"{"type":"goto","id":"g","chapter":1,"level":1}"#
        )
        try waitUntil("the goto's done") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "g" }
        }
        let focus = try #require(try Self.events(game).last { $0["type"] == "focus" })
        guard case .int(let gen) = focus["gen"] else { throw TestFailure("a focus without gen") }
        try waitUntil("an unsolicited hint notice and its idle") {
            let events = try Self.events(game)
            return events.contains { $0["category"] == "hint" && $0["replyTo"] == nil }
                && events.last?["type"] == "idle"
        }
        let burst = try Self.events(game).drop { !($0["category"] == "hint" && $0["replyTo"] == nil) }
        #expect(burst.allSatisfy { $0["gen"] == .int(gen) })
        Self.send(game, #"{"type":"activate","id":"a","ifGen":\#(gen)}"#)
        try waitUntil("the activate's done") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "a" }
        }
        #expect(try !Self.events(game).contains { $0["code"] == "stale" })
        game.closeInput()
        #expect(Self.exitStatus(game) == 0)
    }

    /// `cancel` ends a pending real-clock wait at once: the wait's `done`, then the cancel's.
    @Test func cancelEndsAPendingWait() throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        Self.send(game, #"{"type":"wait","ms":600000,"id":"w"}"#, #"{"type":"ping","id":"p"}"#)
        Self.send(game, #"{"type":"cancel","id":"c","target":"w"}"#)
        try waitUntil("the ping's done") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "p" }
        }
        let dones = try Self.events(game).filter { $0["type"] == "done" }.map { $0["replyTo"] }
        #expect(dones == [.string("w"), .string("c"), .string("p")])
        game.closeInput()
        #expect(Self.exitStatus(game) == 0)
    }

    /// A batch stays all or nothing, so it may not wait on the real clock.
    @Test func aBatchMayNotWaitOnTheRealClock() throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        Self.send(game, #"{"type":"batch","id":"b","commands":[{"type":"next"},{"type":"wait","ms":10}]}"#)
        try waitUntil("the batch's done") {
            try Self.events(game).contains { $0["type"] == "done" && $0["replyTo"] == "b" }
        }
        let error = try Self.events(game).first { $0["type"] == "error" }
        #expect(error?["field"] == "commands[1]")
        #expect(error?["code"] == "invalid_params")
        game.closeInput()
        #expect(Self.exitStatus(game) == 0)
    }
}
