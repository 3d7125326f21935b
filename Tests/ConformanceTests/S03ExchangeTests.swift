// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// §3 The exchange: the opening, one `done` per line, `replyTo`, unsolicited events, bursts, `seq`, `gen`,
/// `ifGen`, the end, and errors that never end the process.
@Suite struct S03ExchangeTests {
    @Test("§3 Opening: before reading anything, hello, the screen and its focus, then progress, without replyTo")
    func openingOfANewGame() async throws {
        let transcript = try await EFB.run([])
        #expect(transcript.opening.compactMap(\.type) == ["hello", "screen", "focus", "progress"])
        #expect(transcript.opening.allSatisfy { $0["replyTo"] == nil })
        // Nothing was read, yet the opening and the end came: the opening does not wait for input.
        #expect(transcript.events.compactMap(\.type) == ["hello", "screen", "focus", "progress", "ended", "bye"])
    }

    @Test("§3 Opening: a save problem found at start comes as an error after hello and before the screen")
    func openingWithADamagedSave() async throws {
        let save = try EFB.save(completed: [], current: nil)
        try Data(#"{"format":1,"adventure":"lantern-r"#.utf8).write(to: save)
        let transcript = try await EFB.run([], arguments: EFB.lantern(save: save))
        #expect(transcript.opening.compactMap(\.type) == ["hello", "error", "screen", "focus", "progress"])
        #expect(transcript.opening[1].string("code") == "save_unreadable")
        #expect(transcript.opening[1]["replyTo"] == nil)
    }

    @Test("§3 Opening: save_locked comes before save_unreadable")
    func openingWithALockedDamagedSave() async throws {
        let save = try EFB.save(completed: [], current: nil, format: 99)
        let holder = try RunningEFB(EFB.lantern(save: save, ["--clock", "real"]))
        defer { holder.stop() }
        try holder.waitForOutput(containing: #""type":"progress""#)
        let transcript = try await EFB.run([], arguments: EFB.lantern(save: save, ["--read-only-save"]))
        let codes = transcript.opening.filter { $0.type == "error" }.compactMap { $0.string("code") }
        #expect(codes == ["save_locked", "save_unreadable"])
        #expect(transcript.opening.compactMap(\.type).suffix(3) == ["screen", "focus", "progress"])
    }

    @Test("§3 Opening: a resumed game announces Welcome back before its level's screen and focus")
    func openingOfAResumedGame() async throws {
        let save = try EFB.save(completed: ["room-latch"], current: "room-word")
        let transcript = try await EFB.run([], arguments: EFB.lantern(save: save))
        #expect(transcript.opening.compactMap(\.type) == ["hello", "announce", "screen", "focus", "progress"])
        #expect(transcript.opening[2].string("screen") == "level-room-word")
    }

    @Test("§3 One done per line: every non-blank line gets exactly one done, after its events")
    func oneDonePerLine() async throws {
        let lines = [
            #"{"type":"next","id":1}"#, "", "not json", #"{"type":"fly","id":2}"#, #"{"type":"escape","id":3}"#,
            "   ", #"[1]"#, #"{"type":"state","id":4}"#, #"{"type":"hint"}"#,
        ]
        let transcript = try await EFB.run(lines)
        let reply = Array(transcript.events.dropFirst(transcript.opening.count).dropLast(2))
        #expect(reply.filter { $0.type == "done" }.count == 7)
        #expect(reply.last?.type == "done")
        for id in [1, 2, 3, 4] as [JSONValue] {
            #expect(transcript.reply(to: id).last?.type == "done")
            #expect(transcript.reply(to: id).filter { $0.type == "done" }.count == 1)
        }
    }

    @Test("§3 One done per line: lines are handled in order; pipelined replies come back in order, never interleaved")
    func pipelinedRepliesInOrder() async throws {
        let lines = (1...30).map { #"{"type":"\#(["next", "state", "previous"][$0 % 3])","id":\#($0)}"# }
        let transcript = try await EFB.run(lines)
        let ids = transcript.events.compactMap { $0.int("replyTo") }
        #expect(ids == ids.sorted())
        #expect(Set(ids) == Set(1...30))
    }

    @Test("§3 replyTo: every event a command causes, done included, carries its id exactly as sent")
    func replyToEchoesTheId() async throws {
        let transcript = try await EFB.run([
            #"{"type":"escape","id":"é x"}"#, #"{"type":"state","id":-9007199254740991}"#, #"{"type":"next","id":0}"#,
        ])
        #expect(transcript.types("é x") == ["sound", "sound", "screen", "focus", "done"])
        #expect(transcript.types(.int(-9_007_199_254_740_991)) == ["screen", "focus", "progress", "done"])
        #expect(transcript.types(0) == ["focus", "done"])
    }

    @Test("§3 replyTo: an integer id is echoed as an integer (1e3 comes back as 1000)")
    func integralIdIsAnInteger() async throws {
        let transcript = try await EFB.run([#"{"type":"ping","id":1e3}"#, #"{"type":"ping","id":7.0}"#])
        #expect(transcript.types(1000) == ["done"])
        #expect(transcript.types(7) == ["done"])
        #expect(String(decoding: transcript.bytes, as: UTF8.self).contains(#""replyTo":1000,"#))
    }

    @Test("§3 replyTo: a command without id gets events without replyTo")
    func noIdNoReplyTo() async throws {
        let transcript = try await EFB.run([#"{"type":"escape"}"#, #"{"type":"fly"}"#])
        #expect(transcript.events.allSatisfy { $0["replyTo"] == nil })
        #expect(transcript.all("done").count == 2)
    }

    @Test(
        "§3 replyTo: when a line's id cannot be read, its error and done have no replyTo",
        arguments: [
            #"{"type":"ping","id":"x""#, #"{"type":"ping","id":null}"#, #"{"type":"ping","id":true}"#,
            #"{"type":"ping","id":1.5}"#, #"{"type":"ping","id":9007199254740992}"#,
            #"{"type":"ping","id":-9007199254740992}"#, #"{"type":"ping","id":["x"]}"#,
        ]
    )
    func unreadableId(line: String) async throws {
        let transcript = try await EFB.run([line])
        let reply = Array(transcript.events.dropFirst(transcript.opening.count).dropLast(2))
        #expect(reply.compactMap(\.type) == ["error", "done"])
        #expect(reply.allSatisfy { $0["replyTo"] == nil })
    }

    @Test("§3 replyTo: ids are never checked for uniqueness")
    func idsNeedNotBeUnique() async throws {
        let transcript = try await EFB.run([#"{"type":"next","id":"same"}"#, #"{"type":"next","id":"same"}"#])
        #expect(transcript.types("same") == ["focus", "done", "focus", "done"])
    }

    @Test("§3 Unsolicited events: on the virtual clock, events that fall due carry the wait's replyTo")
    func virtualClockEventsCarryTheWait() async throws {
        let transcript = try await EFB.lantern(EFB.toFirstLevel + [#"{"type":"wait","id":"w","ms":30000}"#])
        #expect(transcript.types("w") == ["sound", "announce", "done"])
    }

    @Test("§3 Unsolicited events: on the real clock, hint notices come on their own, between commands, without replyTo")
    func realClockEventsComeUnsolicited() async throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--adventure", EFB.lanternPath, "--hint-interval", "0.2"])
        EFB.send(game, #"{"type":"escape","id":1}"#, #"{"type":"activate","element":"begin","id":2}"#)
        try waitUntil("an unsolicited hint notice") {
            try EFB.events(game).contains {
                $0.type == "announce" && $0.string("category") == "hint" && $0["replyTo"] == nil
            }
        }
        let events = try EFB.events(game)
        let notice = try #require(events.firstIndex { $0.type == "announce" && $0.string("category") == "hint" })
        #expect(events[notice - 1].type == "sound")
        #expect(events[notice - 1]["replyTo"] == nil)
        try EFB.finish(game)
    }

    @Test("§3 Bursts (1.1): every group of events sent on its own ends with idle carrying gen")
    func burstsEndWithIdle() async throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--adventure", EFB.lanternPath, "--hint-interval", "0.2"])
        EFB.send(game, EFB.hello11, #"{"type":"escape","id":1}"#, #"{"type":"activate","element":"begin","id":2}"#)
        try waitUntil("an idle") { try EFB.events(game).contains { $0.type == "idle" } }
        let events = try EFB.events(game)
        let idle = try #require(events.firstIndex { $0.type == "idle" })
        #expect(events[idle].int("gen") == events.last { $0.type == "done" }?.int("gen"))
        #expect(Set(events[idle].keys) == ["type", "seq", "gen"])
        #expect(events[idle - 2].type == "sound")
        #expect(events[idle - 1].type == "announce")
        #expect(events[(idle - 2)...idle].allSatisfy { $0["replyTo"] == nil })
        try EFB.finish(game)
    }

    @Test("§3 Bursts: a 1.0 session gets no idle")
    func noIdleIn10() async throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--adventure", EFB.lanternPath, "--hint-interval", "0.1"])
        EFB.send(game, #"{"type":"escape","id":1}"#, #"{"type":"activate","element":"begin","id":2}"#)
        try waitUntil("a hint notice") { try EFB.events(game).contains { $0.string("category") == "hint" } }
        EFB.send(game, #"{"type":"ping","id":"p"}"#)
        try game.waitForOutput(containing: #""replyTo":"p""#)
        #expect(try !EFB.events(game).contains { $0.type == "idle" })
        try EFB.finish(game)
    }

    @Test("§3 seq: 1 for the first line, then one more for each line")
    func seqCountsUp() async throws {
        let transcript = try await EFB.run([#"{"type":"state"}"#, "x", #"{"type":"next"}"#, #"{"type":"quit"}"#])
        #expect(transcript.events.compactMap { $0.int("seq") } == Array(1...transcript.events.count))
    }

    @Test("§3 seq: restore moves the counter to max(next seq, S + 1), S the seq of the snapshot event; never back")
    func restoreMovesSeqForward() async throws {
        let first = try await EFB.lantern(
            EFB.toFirstLevel + [#"{"type":"next"}"#, #"{"type":"snapshot","id":"s"}"#, #"{"type":"quit"}"#]
        )
        let snapshot = try #require(first.last("snapshot", "s"))
        let blob = try #require(snapshot.string("blob"))
        let s = try #require(snapshot.int("seq"))
        // A fresh session: its next seq (5) is behind S + 1, so the restore's done jumps forward to it.
        let fresh = try await EFB.lantern([#"{"type":"restore","id":"r","blob":"\#(blob)"}"#])
        #expect(fresh.done("r")?.int("seq") == s + 1)
        // A long session: its next seq is ahead of S + 1, so the counter goes on from there.
        let long = try await EFB.lantern(
            Array(repeating: #"{"type":"state"}"#, count: 10) + [#"{"type":"restore","id":"r","blob":"\#(blob)"}"#]
        )
        let done = try #require(long.done("r"))
        let before = try #require(long.events.firstIndex { $0 == done })
        #expect(done.int("seq") == long.events[before - 1].int("seq").map { $0 + 1 })
    }

    @Test("§3 gen: starts at 0 and grows by one when the focus moves")
    func genGrowsWithFocus() async throws {
        let transcript = try await EFB.run([#"{"type":"next","id":1}"#, #"{"type":"next","id":2}"#])
        #expect(transcript.opening.compactMap { $0.int("gen") }.allSatisfy { $0 == 0 })
        #expect(transcript.done(1)?.int("gen") == 1)
        #expect(transcript.done(2)?.int("gen") == 2)
    }

    @Test("§3 gen: grows by one for a new screen, an element change and a puzzle change")
    func genGrowsWithScreensAndElements() async throws {
        let transcript = try await EFB.lantern(
            EFB.toFirstLevel + [
                #"{"type":"ping","id":0}"#, #"{"type":"activate","element":"warm-handle","id":1}"#,
                #"{"type":"focus","element":"answer","id":2}"#, #"{"type":"input","text":"x","id":3}"#,
            ]
        )
        let start = try #require(transcript.done(0)?.int("gen"))
        // Focus to the handle, then the next level's screen.
        #expect(transcript.done(1)?.int("gen") == start + 2)
        #expect(transcript.done(3)?.int("gen") == start + 4)
    }

    @Test(
        "§3 gen: does not change with time, for reporting commands, hint, refused commands, or gestures that change nothing"
    )
    func genStaysStill() async throws {
        let transcript = try await EFB.lantern(
            EFB.toFirstLevel + [
                #"{"type":"ping","id":0}"#, #"{"type":"hint","id":1}"#, #"{"type":"wait","ms":30000,"id":2}"#,
                #"{"type":"hint","id":3}"#, #"{"type":"state","id":4}"#, #"{"type":"validActions","id":5}"#,
                #"{"type":"snapshot","id":6}"#, #"{"type":"repeat","id":7}"#,
                #"{"type":"adjust","direction":"increment","id":8}"#,
                #"{"type":"first","id":9}"#, #"{"type":"previous","id":10}"#,
                #"{"type":"focus","element":"title","id":11}"#,
                #"{"type":"fly","id":12}"#,
            ]
        )
        let gen = try #require(transcript.done(0)?.int("gen"))
        for id in 1...12 { #expect(transcript.done(.int(id))?.int("gen") == gen, "command \(id)") }
    }

    @Test("§3 gen: a hello that changes the text on screen grows gen by one")
    func helloWithKeysGrowsGen() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape","id":0}"#, #"{"type":"hello","id":1,"protocol":1,"keys":{"next":"swipe right"}}"#,
        ])
        let gen = try #require(transcript.done(0)?.int("gen"))
        #expect(transcript.done(1)?.int("gen") == gen + 1)
    }

    @Test("§3 gen: restore sets it to the snapshot's value when ahead, else to the current value plus one")
    func restoreSetsGen() async throws {
        let first = try await EFB.lantern(EFB.toFirstLevel + [#"{"type":"snapshot","id":"s"}"#])
        let snapshot = try #require(first.last("snapshot", "s"))
        let blob = try #require(snapshot.string("blob"))
        let snapGen = try #require(snapshot.int("gen"))
        #expect(snapGen > 0)
        let fresh = try await EFB.lantern([#"{"type":"restore","id":"r","blob":"\#(blob)"}"#])
        #expect(fresh.done("r")?.int("gen") == snapGen)
        let ahead = Array(repeating: #"{"type":"next"}"#, count: snapGen + 3)
        let later = try await EFB.lantern(
            ahead + [#"{"type":"ping","id":"p"}"#, #"{"type":"restore","id":"r","blob":"\#(blob)"}"#]
        )
        let current = try #require(later.done("p")?.int("gen"))
        #expect(later.done("r")?.int("gen") == current + 1)
    }

    @Test("§3 gen: in 1.0 only hello, screen, focus, elementChanged, validActions, snapshot, idle and done carry it")
    func genIn10() async throws {
        let transcript = try await EFB.lantern(
            [#"{"type":"hello","id":"h","protocol":1,"want":["validActions"]}"#] + EFB.toFirstLevel + [
                #"{"type":"activate","element":"cold-handle"}"#, #"{"type":"hint"}"#, #"{"type":"snapshot"}"#,
                #"{"type":"activate","element":"warm-handle"}"#, #"{"type":"fly"}"#, #"{"type":"quit"}"#,
            ]
        )
        let carriers: Set = ["hello", "screen", "focus", "elementChanged", "validActions", "snapshot", "idle", "done"]
        for event in transcript.events {
            let type = try #require(event.type)
            #expect((event["gen"] != nil) == carriers.contains(type), "\(type)")
        }
    }

    @Test("§3 gen: in 1.1 every event carries the gen it belongs to")
    func genIn11() async throws {
        let transcript = try await EFB.lantern(
            [EFB.hello11] + EFB.toFirstLevel + [
                #"{"type":"activate","element":"cold-handle"}"#, #"{"type":"hint"}"#, #"{"type":"wait","ms":30000}"#,
                #"{"type":"activate","element":"warm-handle"}"#, #"{"type":"fly"}"#, #"{"type":"quit"}"#,
            ]
        )
        for event in transcript.events.dropFirst(transcript.opening.count) {
            #expect(event["gen"] != nil, "\(event.type ?? "?")")
        }
    }

    @Test("§3 ifGen: a stale command is refused with stale (field ifGen); only error and done; nothing happens")
    func staleIsRefused() async throws {
        let transcript = try await EFB.run([
            #"{"type":"next","id":1}"#, #"{"type":"escape","id":2,"ifGen":0}"#, #"{"type":"state","id":3}"#,
        ])
        #expect(transcript.types(2) == ["error", "done"])
        #expect(transcript.error(2)?.string("code") == "stale")
        #expect(transcript.error(2)?.string("field") == "ifGen")
        #expect(transcript.last("screen", 3)?.string("screen") == "intro-1")
        #expect(transcript.done(2)?.int("gen") == 1)
    }

    @Test("§3 ifGen: a command whose ifGen holds is handled")
    func currentIfGenIsHandled() async throws {
        let transcript = try await EFB.run([#"{"type":"next","id":1,"ifGen":0}"#])
        #expect(transcript.types(1) == ["focus", "done"])
    }

    @Test("§3 ifGen: it works on batch and quit too, checked on the line as a whole")
    func ifGenOnBatchAndQuit() async throws {
        let transcript = try await EFB.run([
            #"{"type":"next","id":1}"#, #"{"type":"batch","id":2,"ifGen":0,"commands":[{"type":"next"}]}"#,
            #"{"type":"quit","id":3,"ifGen":0}"#, #"{"type":"ping","id":4}"#,
        ])
        #expect(transcript.types(2) == ["error", "done"])
        #expect(transcript.error(2)?.string("code") == "stale")
        #expect(transcript.types(3) == ["error", "done"])
        #expect(transcript.types(4) == ["done"])
    }

    @Test(
        "§3 ifGen: a level starting over because its time ran out changes gen; its screen and focus say the new value"
    )
    func torchOutChangesGen() async throws {
        let transcript = try await EFB.run(
            [#"{"type":"ping","id":0}"#, #"{"type":"wait","ms":75000,"id":1}"#],
            arguments: EFB.lantern(save: EFB.wheelsSave())
        )
        let gen = try #require(transcript.done(0)?.int("gen"))
        let screen = try #require(transcript.last("screen", 1))
        #expect(screen.int("gen") == gen + 1)
        #expect(transcript.last("focus", 1)?.int("gen") == gen + 1)
        #expect(transcript.done(1)?.int("gen") == gen + 1)
    }

    @Test(
        "§3 End: quit is answered with ended (quit), done and bye, all with its replyTo; exit 0; nothing more is read"
    )
    func quitEnds() async throws {
        let transcript = try await EFB.run([#"{"type":"quit","id":"q"}"#, #"{"type":"ping","id":"after"}"#])
        #expect(transcript.types("q") == ["ended", "done", "bye"])
        #expect(transcript.last("ended", "q")?.string("reason") == "quit")
        #expect(transcript.reply(to: "after").isEmpty)
        #expect(transcript.events.last?.type == "bye")
        #expect(transcript.status == 0)
    }

    @Test("§3 End: at the end of input, ended (eof) and bye without replyTo; exit 0")
    func endOfInputEnds() async throws {
        let transcript = try await EFB.run([#"{"type":"ping","id":1}"#])
        let tail = Array(transcript.events.suffix(2))
        #expect(tail.compactMap(\.type) == ["ended", "bye"])
        #expect(tail[0].string("reason") == "eof")
        #expect(tail.allSatisfy { $0["replyTo"] == nil })
        #expect(transcript.status == 0)
    }

    @Test("§3 End: at the end of input a pending real-clock wait is cut short and answered")
    func endOfInputCutsAWait() async throws {
        let transcript = try await EFB.run(
            [#"{"type":"wait","id":"w","ms":86400000}"#, #"{"type":"ping","id":"p"}"#],
            arguments: ["pipe", "--memory-save"]
        )
        #expect(transcript.types("w") == ["done"])
        #expect(transcript.types("p") == ["done"])
        #expect(transcript.events.suffix(2).compactMap(\.type) == ["ended", "bye"])
        #expect(transcript.status == 0)
    }

    @Test(
        "§3 End: SIGINT or SIGTERM answers a pending wait, then ended (quit) and bye without replyTo; exit 0",
        arguments: [SIGINT, SIGTERM]
    )
    func signalsEnd(signal: Int32) async throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        EFB.send(game, #"{"type":"ping","id":"ready"}"#, #"{"type":"wait","ms":86400000,"id":"w"}"#)
        try game.waitForOutput(containing: #""replyTo":"ready""#)
        kill(game.process.processIdentifier, signal)
        try waitUntil("efb to exit") { !game.process.isRunning }
        game.process.waitUntilExit()
        #expect(game.process.terminationStatus == 0)
        let events = try EFB.events(game)
        #expect(events.suffix(3).compactMap(\.type) == ["done", "ended", "bye"])
        #expect(events.suffix(3).first?["replyTo"] == "w")
        #expect(events.suffix(2).first?.string("reason") == "quit")
        #expect(events.suffix(2).allSatisfy { $0["replyTo"] == nil })
        try EFB.expectValid(Array(game.output.data))
    }

    @Test("§3 End: bye is always the last line")
    func byeIsLast() async throws {
        for lines in [[#"{"type":"quit"}"#], [], [#"{"type":"batch","commands":[{"type":"quit"},{"type":"next"}]}"#]] {
            let transcript = try await EFB.run(lines)
            #expect(transcript.events.last?.type == "bye")
            #expect(transcript.all("bye").count == 1)
        }
    }

    @Test("§3 Errors never end the process: the engine carries on, and a refused command changes nothing")
    func errorsNeverEnd() async throws {
        let bad = [
            "x", "[]", #"{"type":"fly"}"#, #"{"type":"focus","element":"nope"}"#,
            #"{"type":"rotor","direction":"next"}"#,
            #"{"type":"goto","chapter":9,"level":1}"#, #"{"type":"restore","blob":"x"}"#,
            #"{"type":"cancel","target":1}"#,
        ]
        let transcript = try await EFB.run(
            [#"{"type":"state","id":"before"}"#] + bad + [#"{"type":"state","id":"after"}"#]
        )
        #expect(transcript.all("error").count == bad.count)
        let before = transcript.reply(to: "before").map { $0.filter { $0.key != "seq" && $0.key != "replyTo" } }
        let after = transcript.reply(to: "after").map { $0.filter { $0.key != "seq" && $0.key != "replyTo" } }
        #expect(before == after)
        #expect(transcript.status == 0)
    }
}
