// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

/// §7 Screens, elements and the game, on the lantern room.
@Suite struct S07GameTests {
    @Test("§7.1 Screens: intro, chapter, level, menu, assistive and end with their elements, magicTap and escape")
    func screenTable() async throws {
        let end = try EFB.save(completed: EFB.lanternLevels, current: nil)
        let game = try await EFB.lantern(
            [
                #"{"type":"state","id":1}"#, #"{"type":"escape","id":2}"#,
                #"{"type":"activate","element":"begin","id":3}"#,
                #"{"type":"menu","id":4}"#, #"{"type":"assistive","active":false,"id":5}"#,
            ]
        )
        let finished = try await EFB.run([#"{"type":"state","id":6}"#], arguments: EFB.lantern(save: end))
        let screens = [1, 2, 3, 4, 5].map { game.last("screen", .int($0)) } + [finished.last("screen", 6)]
        let expected: [(String, String, [String]?, JSONValue, JSONValue)] = [
            ("intro-1", "intro", ["title", "text", "continue"], "continue", "skipIntro"),
            ("chapter-room", "chapter", ["title", "text", "begin"], "begin", "menu"),
            ("level-room-latch", "level", nil, "hint", "menu"),
            ("menu", "menu", nil, .null, "back"),
            ("assistive", "assistive", ["title", "text", "resume"], .null, .null),
            ("end", "end", ["title", "text", "replay"], "replay", "menu"),
        ]
        for (screen, (id, kind, elements, magicTap, escape)) in zip(screens, expected) {
            let screen = try #require(screen)
            #expect(screen.string("screen") == id)
            #expect(screen.string("kind") == kind)
            if let elements { #expect(screen.elementIDs == elements) }
            let action = { (value: JSONValue?) -> JSONValue in
                if case .object(let object) = value { object["action"] ?? .null } else { .null }
            }
            #expect(action(screen["magicTap"]) == magicTap, "\(id)")
            #expect(action(screen["escape"]) == escape, "\(id)")
        }
        #expect(screens[2]?.elementIDs.prefix(3) == ["title", "story", "question"])
        #expect(
            screens[3]?.elementIDs == ["title", "chapter-room"] + EFB.lanternLevels.map { "level-\($0)" } + ["back"]
        )
    }

    @Test("§7.1 At start: a new game on intro-1, a saved game on its level, a finished game on the end screen")
    func startScreens() async throws {
        let new = try await EFB.lantern([])
        #expect(new.opening[1].string("screen") == "intro-1")
        let saved = try await EFB.run([], arguments: EFB.lantern(at: "room-dial"))
        #expect(saved.opening.first { $0.type == "screen" }?.string("screen") == "level-room-dial")
        let done = try await EFB.run(
            [],
            arguments: EFB.lantern(save: EFB.save(completed: EFB.lanternLevels, current: nil))
        )
        #expect(done.opening.first { $0.type == "screen" }?.string("screen") == "end")
    }

    @Test("§7.4 Solving a level: result correct, sound solved, assertive announce, progress, then the next level")
    func solvingOrder() async throws {
        let transcript = try await EFB.play(at: "room-latch", [#"{"type":"activate","element":"warm-handle","id":1}"#])
        #expect(transcript.types(1) == ["focus", "result", "sound", "announce", "progress", "screen", "focus", "done"])
        #expect(transcript.last("announce", 1)?["priority"] == "assertive")
        #expect(transcript.last("screen", 1)?.string("screen") == "level-room-word")
    }

    @Test("§7.4 The last level: progress, end screen and focus, sound escaped, ended escaped")
    func solvingTheLast() async throws {
        let transcript = try await EFB.play(at: "room-wheels", EFB.solveWheels + [#"{"type":"magicTap","id":1}"#])
        #expect(
            transcript.types(1) == [
                "result", "sound", "announce", "progress", "screen", "focus", "sound", "ended", "done",
            ]
        )
    }

    @Test("§7.4 Wrong answers: result wrong, sound wrong, an assertive announce; the player stays")
    func wrongAnswer() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"rotorItem","element":"door","direction":"previous"}"#, #"{"type":"activate","id":1}"#,
            ]
        )
        #expect(transcript.types(1) == ["result", "sound", "announce", "done"])
        #expect(transcript.last("sound", 1)?["name"] == "wrong")
        #expect(transcript.last("announce", 1)?["priority"] == "assertive")
    }

    @Test("§7.4 Solving again: solving any level makes the one after it current")
    func solvingAgain() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [
                #"{"type":"goto","chapter":1,"level":1}"#, #"{"type":"activate","element":"warm-handle","id":1}"#,
            ]
        )
        #expect(transcript.last("progress", 1)?["level"] == 2)
    }

    @Test("§7.5 Open question: compared loosely (case, spaces, punctuation); an empty field is malformed")
    func openQuestion() async throws {
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"input","element":"answer","text":" ,. "}"#, #"{"type":"activate","id":1}"#,
                #"{"type":"input","text":"  The   LANTERN! "}"#, #"{"type":"activate","id":2}"#,
            ]
        )
        #expect(transcript.last("result", 1)?["outcome"] == "malformed")
        #expect(transcript.last("result", 2)?["outcome"] == "correct")
    }

    @Test("§7.5 Rotor: activating the door before a code is chosen is malformed")
    func rotorMalformed() async throws {
        let transcript = try await EFB.play(at: "room-dial", [#"{"type":"activate","element":"door","id":1}"#])
        #expect(transcript.last("result", 1)?["outcome"] == "malformed")
    }

    @Test("§7.5 Custom actions: nothing judged until every object has one; wrong resets all to not handled yet")
    func customActions() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [
                #"{"type":"action","element":"candle","name":"Light it","id":1}"#,
                #"{"type":"action","element":"key","name":"Drop it","id":2}"#, #"{"type":"state","id":3}"#,
                #"{"type":"activate","element":"candle","id":4}"#,
            ]
        )
        #expect(!transcript.types(1).contains("result"))
        #expect(transcript.last("result", 2)?["outcome"] == "wrong")
        let screen = JSONWriter.string(.object(try #require(transcript.last("screen", 3))))
        #expect(!screen.contains(#""value":"Light it""#))
        #expect(transcript.last("announce", 4)?.string("text")?.contains("Light it") == true)
    }

    @Test("§7.5 Dials: a wrong combination keeps the dials where they are")
    func dialsWrong() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [
                #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#, #"{"type":"magicTap","id":1}"#,
                #"{"type":"state","id":2}"#,
            ]
        )
        #expect(transcript.last("result", 1)?["outcome"] == "wrong")
        #expect(JSONWriter.string(.object(try #require(transcript.last("screen", 2)))).contains(#""value":"1""#))
    }

    @Test("§7.6 Menu: entry statuses current, complete, open, locked with their traits; locked plays sound locked")
    func menuStatuses() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"menu","id":1}"#, #"{"type":"activate","element":"level-room-shelf","id":2}"#,
            ]
        )
        let screen = try #require(transcript.last("screen", 1))
        guard case .array(let elements) = screen["elements"] else { throw TestFailure("no elements") }
        let entries = elements.compactMap { element -> (String, JSONValue?, JSONValue?)? in
            guard case .object(let e) = element, case .string(let id) = e["id"], id.hasPrefix("level-") else {
                return nil
            }
            return (id, e["value"], e["traits"])
        }
        #expect(entries.map(\.1) == ["complete", "complete", "current", "locked", "locked"])
        #expect(entries[2].2 == ["button", "selected"])
        #expect(entries[3].2 == ["button", "notEnabled"])
        #expect(transcript.types(2).contains("sound"))
        #expect(transcript.last("sound", 2)?["name"] == "locked")
        #expect(transcript.error(2) == nil)
    }

    @Test("§7.7 Hints: one notice (sound hint, announce hint) covers every hint unlocked since the last one")
    func hintNotices() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"wait","ms":70000,"id":1}"#],
            ["--no-time-pressure"]
        )
        #expect(transcript.reply(to: 1).filter { $0.string("category") == "hint" }.count == 1)
        #expect(transcript.reply(to: 1).filter { $0["name"] == "hint" }.count == 1)
    }

    @Test("§7.7 Hints: with --hints-at-once all are unlocked at once and no notices are sent")
    func hintsAtOnce() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"hint"}"#, #"{"type":"hint","id":1}"#, #"{"type":"wait","ms":60000,"id":2}"#],
            ["--hints-at-once", "--no-time-pressure"]
        )
        #expect(transcript.last("announce", 1)?.string("text")?.hasPrefix("Hint 2 of 2") == true)
        #expect(transcript.types(2) == ["done"])
    }

    @Test("§7.7 Hints: the menu pauses the timer; a level started again starts its hints from zero")
    func hintsPauseAndReset() async throws {
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"menu"}"#, #"{"type":"wait","ms":60000,"id":1}"#, #"{"type":"escape"}"#,
                #"{"type":"wait","ms":20000}"#, #"{"type":"goto","chapter":1,"level":2}"#,
                #"{"type":"wait","ms":20000,"id":2}"#,
                #"{"type":"hint","id":3}"#,
            ]
        )
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.types(2) == ["done"])
        #expect(transcript.last("announce", 3)?.string("text") == "No hint yet — wait a little.")
    }

    @Test("§7.8 Timed levels: the time left at each mark, countdown from 10, torch-out and the level starting over")
    func timedLevel() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [
                #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#,
                #"{"type":"wait","ms":75000,"id":1}"#,
                #"{"type":"state","id":2}"#,
            ]
        )
        let reply = transcript.reply(to: 1)
        let texts = reply.filter { $0.type == "announce" && $0.string("category") == "feedback" }.compactMap {
            $0.string("text")
        }
        #expect(
            texts.prefix(4) == [
                "One minute of torchlight left.", "45 seconds of torchlight left.", "30 seconds of torchlight left.",
                "15 seconds of torchlight left.",
            ]
        )
        #expect(Array(texts.dropFirst(4).prefix(10)) == (1...10).reversed().map { "\($0)" })
        let sounds = reply.filter { $0.type == "sound" }.compactMap { $0.string("name") }
        #expect(sounds.filter { $0 != "hint" } == ["torch-last-minute", "torch-countdown", "torch-out"])
        #expect(reply.suffix(4).compactMap(\.type) == ["announce", "screen", "focus", "done"])
        #expect(reply.suffix(4).first?["priority"] == "assertive")
        #expect(!JSONWriter.string(.object(try #require(transcript.last("screen", 2)))).contains(#""value":"1""#))
        #expect(transcript.last("progress", 2)?["level"] == 5)
    }

    @Test("§7.8 Timed levels: --no-time-pressure or hello timePressure false: the torch never goes out")
    func noTimePressure() async throws {
        let flag = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"wait","ms":80000,"id":1}"#],
            ["--no-time-pressure"]
        )
        #expect(!flag.reply(to: 1).contains { $0["name"] == "torch-out" })
        let hello = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"hello","protocol":1,"timePressure":false}"#, #"{"type":"wait","ms":80000,"id":1}"#]
        )
        #expect(!hello.reply(to: 1).contains { $0["name"] == "torch-out" })
    }

    @Test("§7.9 The assistive screen pauses the level and can go over the menu, which then comes back")
    func assistiveOverMenu() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [
                #"{"type":"assistive","active":false}"#, #"{"type":"wait","ms":80000,"id":1}"#,
                #"{"type":"assistive","active":true}"#, #"{"type":"menu"}"#, #"{"type":"assistive","active":false}"#,
                #"{"type":"assistive","active":true,"id":2}"#,
            ]
        )
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.last("screen", 2)?.string("screen") == "menu")
    }

    @Test("§7.10 Saves: saved is false at a new game's start and true after a solved level with --memory-save")
    func savedFlag() async throws {
        let transcript = try await EFB.play(at: "room-latch", [#"{"type":"activate","element":"warm-handle","id":1}"#])
        #expect(transcript.opening.last?["saved"] == false)
        #expect(transcript.last("progress", 1)?["saved"] == true)
    }

    @Test("§7.10 Saves: a damaged file is renamed to PATH.unreadable-1 and a new game starts and saves")
    func damagedSave() async throws {
        let save = try EFB.save(completed: [], current: nil)
        try Data("{".utf8).write(to: save)
        let transcript = try await EFB.run(
            EFB.toFirstLevel + [#"{"type":"activate","element":"warm-handle","id":1}"#],
            arguments: EFB.lantern(save: save)
        )
        #expect(transcript.opening.contains { $0.string("code") == "save_unreadable" })
        #expect(try Data(contentsOf: URL(fileURLWithPath: save.path + ".unreadable-1")) == Data("{".utf8))
        #expect(transcript.last("progress", 1)?["saved"] == true)
        #expect(FileManager.default.fileExists(atPath: save.path))
    }

    @Test("§7.10 Saves: a newer format is left untouched and never saved in this session")
    func newerSave() async throws {
        let save = try EFB.save(completed: [], current: nil, format: 3)
        let before = try Data(contentsOf: save)
        let transcript = try await EFB.run(
            EFB.toFirstLevel + [#"{"type":"activate","element":"warm-handle","id":1}"#],
            arguments: EFB.lantern(save: save)
        )
        #expect(transcript.opening.contains { $0.string("code") == "save_unreadable" })
        #expect(try Data(contentsOf: save) == before)
        #expect(transcript.last("progress", 1)?["saved"] == false)
    }

    @Test("§7.10 Saves: a file of another adventure id starts a new game without an error, and keeps that progress")
    func foreignSave() async throws {
        let save = try EFB.save(adventure: "escape-from-blindness", completed: ["cellar-door"], current: "cellar-door")
        let transcript = try await EFB.run(
            EFB.toFirstLevel + [#"{"type":"activate","element":"warm-handle","id":1}"#],
            arguments: EFB.lantern(save: save)
        )
        #expect(transcript.opening.compactMap(\.type) == ["hello", "screen", "focus", "progress"])
        #expect(transcript.opening[1].string("screen") == "intro-1")
        #expect(transcript.last("progress", 1)?["saved"] == true)
        let text = try String(contentsOf: save, encoding: .utf8)
        #expect(text.contains(#""escape-from-blindness":{"completed":["cellar-door"],"current":"cellar-door"}"#))
        #expect(text.contains(#""lantern-room":{"answerOrders":{"room-latch":["#))
        #expect(text.contains(#""completed":["room-latch"],"current":"room-word"}"#))
    }

    @Test("§7.10 Saves: a file that is not a save of this game is refused with status 64, untouched")
    func notASave() async throws {
        let save = try EFB.save(completed: [], current: nil)
        try Data("export PATH=$HOME/bin:$PATH\n".utf8).write(to: save)
        let result = try runEFB(EFB.lantern(save: save), input: [])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOf: save, encoding: .utf8) == "export PATH=$HOME/bin:$PATH\n")
    }
}
