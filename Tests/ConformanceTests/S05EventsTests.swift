// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Testing

/// §5 Events: each event's fields and when it is sent.
@Suite struct S05EventsTests {
    @Test("§5.2 hello: protocol 1, engine 0.1.0, locale, adventure {id, title}, capabilities, gen")
    func helloEvent() async throws {
        let transcript = try await EFB.lantern([])
        let hello = try #require(transcript.events.first)
        #expect(hello["protocol"] == 1)
        #expect(hello["engine"] == "0.1.0")
        #expect(hello["locale"] == "en")
        #expect(hello["adventure"] == ["id": "lantern-room", "title": "The Lantern Room"])
        #expect(hello["gen"] == 0)
    }

    @Test("§5.2 hello: the capabilities table; virtualClock only with --clock virtual")
    func capabilities() async throws {
        let listed: Set<JSONValue> = [
            "adjust", "aimedGestures", "assistive", "batch", "customActions", "escape", "hints", "ifGen", "levelMenu",
            "magicTap", "repeat", "rotors", "snapshot", "timePressure", "validActions",
        ]
        let virtual = try await EFB.run([])
        let real = try await EFB.run([], arguments: ["pipe", "--memory-save"])
        guard case .array(let onVirtual) = virtual.events.first?["capabilities"],
            case .array(let onReal) = real.events.first?["capabilities"]
        else { throw TestFailure("no capabilities") }
        #expect(listed.isSubset(of: Set(onVirtual)))
        #expect(onVirtual.contains("virtualClock"))
        #expect(listed.isSubset(of: Set(onReal)))
        #expect(!onReal.contains("virtualClock"))
    }

    @Test("§5.3 screen: a focus always follows; hints {total, unlocked} on level screens in 1.1 only")
    func screenEvent() async throws {
        let v10 = try await EFB.play(at: "room-wheels", [#"{"type":"state","id":1}"#])
        #expect(v10.last("screen", 1)?["hints"] == nil)
        let v11 = try await EFB.play(
            at: "room-wheels",
            [EFB.hello11, #"{"type":"wait","ms":30000}"#, #"{"type":"state","id":1}"#],
            ["--no-time-pressure"]
        )
        #expect(v11.last("screen", 1)?["hints"] == ["total": 2, "unlocked": 1])
        for (index, event) in v11.events.enumerated() where event.type == "screen" {
            #expect(v11.events[index + 1].type == "focus")
        }
    }

    @Test("§5.4 focus: index and count place the element on the screen")
    func focusEvent() async throws {
        let transcript = try await EFB.run([#"{"type":"last","id":1}"#])
        let focus = try #require(transcript.last("focus", 1))
        #expect(focus.int("index") == 3)
        #expect(focus.int("count") == 3)
        #expect(focus.string("screen") == "intro-1")
    }

    @Test("§5.4 focus: in 1.0 a changed focused element is a focus; in 1.1 an elementChanged and no focus")
    func focusVersusElementChanged() async throws {
        let line = #"{"type":"input","element":"answer","text":"x","id":1}"#
        let v10 = try await EFB.play(at: "room-word", [#"{"type":"focus","element":"answer"}"#, line])
        #expect(v10.types(1) == ["announce", "focus", "done"])
        let v11 = try await EFB.play(at: "room-word", [EFB.hello11, #"{"type":"focus","element":"answer"}"#, line])
        #expect(v11.types(1) == ["announce", "elementChanged", "done"])
        #expect(v11.last("elementChanged", 1)?.elementValue == "x")
    }

    @Test("§5.4 rotor / actions do not follow when only the same element's value changed")
    func noRotorOnValueChange() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [#"{"type":"focus","element":"candle"}"#, #"{"type":"action","index":1,"id":1}"#]
        )
        #expect(!transcript.types(1).contains("actions"))
    }

    @Test("§5.8 result: comes before its sound and announcement; malformed plays no sound")
    func resultEvent() async throws {
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"activate","element":"answer","id":1}"#, #"{"type":"input","text":"x"}"#,
                #"{"type":"activate","id":2}"#,
            ]
        )
        #expect(transcript.types(1) == ["focus", "result", "announce", "done"])
        #expect(transcript.last("result", 1)?["outcome"] == "malformed")
        #expect(transcript.last("result", 1)?["level"] == "room-word")
        #expect(transcript.types(2) == ["result", "sound", "announce", "done"])
    }

    @Test("§5.9 progress: chapter and level null once the game is finished; total; completed in playing order")
    func progressEvent() async throws {
        let save = try EFB.save(completed: EFB.lanternLevels, current: nil)
        let transcript = try await EFB.run([], arguments: EFB.lantern(save: save))
        let progress = try #require(transcript.opening.last)
        #expect(progress["chapter"] == .null)
        #expect(progress["level"] == .null)
        #expect(progress["total"] == 5)
        #expect(progress["completed"] == .array(EFB.lanternLevels.map(JSONValue.string)))
    }

    @Test("§5.10 sound: ambient with loop when arriving on a chapter whose ambience differs; chapter on the page")
    func ambientSound() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape","id":1}"#, #"{"type":"menu"}"#, #"{"type":"escape","id":2}"#,
        ])
        let sounds = transcript.reply(to: 1).filter { $0.type == "sound" }
        #expect(sounds.map { $0["name"] } == ["chapter", "ambient"])
        #expect(sounds.last?["loop"] == "quiet-room")
        #expect(!transcript.reply(to: 2).contains { $0["name"] == "ambient" })
    }

    @Test(
        "§5.11 ended: escaped once per game, right after the end screen, focus and sound escaped; later quit is done, bye"
    )
    func endedEscaped() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            EFB.solveWheels + [
                #"{"type":"magicTap","id":1}"#, #"{"type":"menu"}"#, #"{"type":"escape","id":2}"#,
                #"{"type":"quit","id":3}"#,
            ]
        )
        #expect(transcript.types(1).suffix(5) == ["screen", "focus", "sound", "ended", "done"])
        #expect(transcript.last("ended", 1)?["reason"] == "escaped")
        #expect(transcript.last("ended", 1)?["cutShort"] == false)
        #expect(!transcript.types(2).contains("ended"))
        #expect(transcript.types(3) == ["done", "bye"])
        #expect(transcript.all("ended").count == 1)
    }

    @Test("§5.11 ended: replay starts a new game, which gets its own ended")
    func replayGetsItsOwnEnded() async throws {
        let save = try EFB.save(completed: EFB.lanternLevels, current: nil)
        let transcript = try await EFB.run(
            [#"{"type":"replay"}"#, #"{"type":"quit","id":1}"#],
            arguments: EFB.lantern(save: save)
        )
        #expect(transcript.types(1) == ["ended", "done", "bye"])
        #expect(transcript.last("ended", 1)?["cutShort"] == true)
    }

    @Test(
        "§5.12 validActions: per element (text field, button, adjustable, rotors, actions), then magicTap, escape, hint"
    )
    func validActionsContents() async throws {
        func commands(_ level: String) async throws -> [JSONValue] {
            let transcript = try await EFB.play(at: level, [#"{"type":"validActions","id":1}"#], ["--no-time-pressure"])
            guard case .array(let actions) = transcript.last("validActions", 1)?["actions"] else { return [] }
            return actions.compactMap { if case .object(let entry) = $0 { entry["command"] } else { nil } }
        }
        #expect(
            try await commands("room-word") == [
                ["type": "input", "element": "answer", "text": ""], ["type": "activate", "element": "answer"],
                ["type": "magicTap"], ["type": "escape"], ["type": "hint"],
            ]
        )
        #expect(
            try await commands("room-dial") == [
                ["type": "activate", "element": "door"],
                ["type": "rotor", "element": "door", "direction": "next"],
                ["type": "rotorItem", "element": "door", "direction": "next"],
                ["type": "rotor", "element": "door", "direction": "previous"],
                ["type": "rotorItem", "element": "door", "direction": "previous"],
                ["type": "magicTap"], ["type": "escape"], ["type": "hint"],
            ]
        )
        let wheels = try await commands("room-wheels")
        #expect(
            wheels.prefix(2) == [
                ["type": "adjust", "element": "left-wheel", "direction": "increment"],
                ["type": "adjust", "element": "left-wheel", "direction": "decrement"],
            ]
        )
        let shelf = try await commands("room-shelf")
        #expect(shelf.contains(["type": "action", "element": "candle", "name": "Light it"]))
    }

    @Test("§5.12 validActions: elements that are notEnabled get none; navigation, menu and repeat are never listed")
    func validActionsExclusions() async throws {
        let transcript = try await EFB.lantern([#"{"type":"menu"}"#, #"{"type":"validActions","id":1}"#])
        let text = JSONWriter.string(.object(try #require(transcript.last("validActions", 1))))
        #expect(!text.contains("level-room-word"))
        #expect(text.contains("level-room-latch"))
        for type in ["next", "previous", "first", "last", "focus", "menu", "repeat"] {
            #expect(!text.contains(#""type":"\#(type)""#))
        }
    }

    @Test("§5.15 done: gen after the command; §5.16 bye has no fields of its own")
    func doneAndBye() async throws {
        let transcript = try await EFB.run([#"{"type":"next","id":1}"#, #"{"type":"quit","id":2}"#])
        #expect(transcript.done(1)?["gen"] == 1)
        #expect(Set(try #require(transcript.events.last).keys) == ["type", "seq", "replyTo"])
    }

    @Test("§5.17 elementChanged (1.1): sent for every element that changed, focused or not, and no focus for a change")
    func elementChangedOrder() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [
                EFB.hello11, #"{"type":"action","element":"candle","index":2}"#,
                #"{"type":"action","element":"key","index":2,"id":1}"#,
            ]
        )
        // The wrong set resets every object; the key's value is back where it was, so only the candle changed.
        #expect(
            transcript.types(1).filter { $0 != "announce" && $0 != "sound" } == [
                "focus", "actions", "result", "elementChanged", "done",
            ]
        )
        let changed = transcript.reply(to: 1).filter { $0.type == "elementChanged" }.compactMap(\.elementID)
        #expect(changed == ["candle"])
    }

    @Test("§5.18 timer (1.1): on arriving on a timed level, paused by the menu, going on when the player comes back")
    func timerEvent() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [
                EFB.hello11, #"{"type":"goto","chapter":1,"level":5,"id":1}"#, #"{"type":"wait","ms":5000}"#,
                #"{"type":"menu","id":2}"#, #"{"type":"escape","id":3}"#,
            ]
        )
        #expect(transcript.last("timer", 1)?["limitMs"] == 75000)
        #expect(transcript.last("timer", 1)?["remainingMs"] == 75000)
        #expect(transcript.last("timer", 1)?["paused"] == false)
        #expect(transcript.last("timer", 2)?["paused"] == true)
        #expect(transcript.last("timer", 2)?["remainingMs"] == 70000)
        #expect(transcript.last("timer", 3)?["paused"] == false)
    }

    @Test("§4.16 state, §5.18 timer (1.1): state says a timed level's clock as it stands; 1.0 has no timer")
    func stateSaysTheTimer() async throws {
        let timed = [
            #"{"type":"goto","chapter":1,"level":5,"id":1}"#, #"{"type":"wait","ms":5000}"#,
            #"{"type":"state","id":2}"#, #"{"type":"menu","id":3}"#, #"{"type":"wait","ms":5000}"#,
            #"{"type":"state","id":4}"#,
        ]
        let transcript = try await EFB.play(at: "room-wheels", [EFB.hello11] + timed)
        #expect(transcript.types(2).filter { $0 == "timer" || $0 == "progress" } == ["timer", "progress"])
        #expect(transcript.last("timer", 2)?["remainingMs"] == 70000)
        #expect(transcript.last("timer", 2)?["paused"] == false)
        #expect(transcript.last("timer", 4)?["remainingMs"] == 70000)
        #expect(transcript.last("timer", 4)?["paused"] == true)
        let old = try await EFB.play(at: "room-wheels", timed)
        #expect(!old.types(2).contains("timer"))
    }
}
