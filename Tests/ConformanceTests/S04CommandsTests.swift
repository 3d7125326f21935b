// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

/// §4 Commands: the envelope, then each command's fields, events and refusals.
@Suite struct S04CommandsTests {
    // MARK: §4.1 The envelope

    @Test("§4.1 type: missing is invalid_params (field type); unknown is unknown_command (field type)")
    func typeMissingOrUnknown() async throws {
        let transcript = try await EFB.run([#"{"id":1}"#, #"{"type":"fly","id":2}"#, #"{"type":7,"id":3}"#])
        #expect(transcript.error(1)?.string("code") == "invalid_params")
        #expect(transcript.error(1)?.string("field") == "type")
        #expect(transcript.error(1)?.string("message") == "missing required field type")
        #expect(transcript.error(2)?.string("code") == "unknown_command")
        #expect(transcript.error(2)?.string("field") == "type")
        #expect(transcript.error(3)?.string("field") == "type")
    }

    @Test("§4.1 Fields are checked in this order: id, ifGen, type, then the command's own; only the first problem")
    func fieldOrder() async throws {
        let transcript = try await EFB.run([
            #"{"type":"fly","ifGen":-1,"id":null}"#, #"{"type":"fly","ifGen":-1,"id":1}"#,
            #"{"type":"fly","ifGen":0,"id":2}"#, #"{"type":"wait","ms":"x","id":3}"#,
        ])
        let errors = transcript.all("error")
        #expect(errors.count == 4)
        #expect(errors.compactMap { $0.string("field") } == ["id", "ifGen", "type", "ms"])
    }

    @Test("§4.1 Aimed gestures: the element is focused first, the focus event before the gesture's own events")
    func aimedGestureFocusesFirst() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"adjust","element":"left-wheel","direction":"increment","id":1}"#]
        )
        let types = transcript.types(1)
        #expect(types.first == "focus")
        #expect(transcript.reply(to: 1).first?.elementID == "left-wheel")
        #expect(types.dropFirst().prefix(2) == ["sound", "announce"])
    }

    @Test("§4.1 Aimed gestures are all or nothing: a refused gesture leaves the focus where it was, only the error")
    func aimedGestureAllOrNothing() async throws {
        let transcript = try await EFB.play(
            at: "room-latch",
            [
                #"{"type":"adjust","element":"question","direction":"increment","id":1}"#, #"{"type":"state","id":2}"#,
            ]
        )
        #expect(transcript.types(1) == ["error", "done"])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.last("focus", 2)?.elementID == "title")
    }

    @Test(
        "§4.1 On the assistive screen, game commands other than navigation, activate, assistive and repeat are not_now",
        arguments: [
            #"{"type":"rotor","direction":"next"}"#, #"{"type":"rotorItem","direction":"next"}"#,
            #"{"type":"action","index":1}"#, #"{"type":"adjust","direction":"increment"}"#,
            #"{"type":"input","text":"x"}"#,
            #"{"type":"magicTap"}"#, #"{"type":"escape"}"#, #"{"type":"hint"}"#, #"{"type":"menu"}"#,
            #"{"type":"goto","chapter":1,"level":1}"#, #"{"type":"replay"}"#,
        ]
    )
    func assistiveRefusesGameCommands(command: String) async throws {
        let line = String(command.dropLast()) + #","id":"c"}"#
        let transcript = try await EFB.play(at: "room-word", [#"{"type":"assistive","active":false}"#, line])
        #expect(transcript.types("c") == ["error", "done"])
        #expect(transcript.error("c")?.string("code") == "not_now")
    }

    @Test("§4.1 On the assistive screen, navigation, activate, assistive, repeat and session commands work")
    func assistiveAllowsTheRest() async throws {
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"hint"}"#, #"{"type":"assistive","active":false}"#,
                #"{"type":"next","id":1}"#, #"{"type":"previous","id":2}"#, #"{"type":"last","id":3}"#,
                #"{"type":"first","id":4}"#, #"{"type":"focus","element":"text","id":5}"#,
                #"{"type":"activate","id":6}"#,
                #"{"type":"repeat","id":7}"#, #"{"type":"state","id":8}"#, #"{"type":"ping","id":9}"#,
                #"{"type":"validActions","id":10}"#, #"{"type":"snapshot","id":11}"#,
                #"{"type":"wait","ms":1,"id":12}"#,
                #"{"type":"batch","commands":[],"id":13}"#, #"{"type":"hello","protocol":1,"id":14}"#,
                #"{"type":"assistive","active":true,"id":15}"#,
            ]
        )
        for id in 1...15 { #expect(transcript.error(.int(id)) == nil, "command \(id)") }
    }

    @Test("§4.1 Errors of any field: missing, wrong type, out of range and outside an enumeration, in words, field X")
    func fieldErrorWords() async throws {
        let transcript = try await EFB.run([
            #"{"type":"focus","id":1}"#, #"{"type":"focus","element":3,"id":2}"#,
            #"{"type":"wait","ms":-1,"id":3}"#, #"{"type":"rotor","direction":"up","id":4}"#,
        ])
        #expect(transcript.error(1)?.string("message") == "missing required field element")
        #expect(transcript.error(1)?.string("field") == "element")
        #expect(transcript.error(2)?.string("message") == "element must be a string, not 3")
        #expect(transcript.error(3)?.string("message") == "ms must be between 0 and 86400000")
        #expect(transcript.error(4)?.string("message") == "direction must be next or previous")
        #expect(transcript.error(4)?.string("field") == "direction")
        #expect(transcript.all("error").allSatisfy { $0.string("code") == "invalid_params" })
    }

    // MARK: §4.3 hello

    @Test(
        "§4.3 hello: with no version in common, unsupported_protocol (field protocol) and the normal reply, rest applied"
    )
    func helloUnsupported() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape"}"#, #"{"type":"hello","id":"h","protocol":[2,0],"keys":{"next":"swipe right"}}"#,
        ])
        #expect(transcript.types("h") == ["error", "hello", "screen", "focus", "done"])
        #expect(transcript.error("h")?.string("code") == "unsupported_protocol")
        #expect(transcript.error("h")?.string("field") == "protocol")
        let text = transcript.last("screen", "h").flatMap { screen -> String? in
            guard case .array(let elements) = screen["elements"] else { return nil }
            return elements.compactMap { if case .object(let e) = $0, e["id"] == "text" { e["label"] } else { nil } }
                .first.flatMap { if case .string(let s) = $0 { s } else { nil } }
        }
        #expect(text?.hasSuffix("Your keys for this chapter: next: swipe right.") == true)
    }

    @Test(
        "§4.3 hello: protocol as an integer, a pair, a list of pairs or a range; the newest common version is picked",
        arguments: [
            ("1", [1, 0]), ("[1,0]", [1, 0]), ("[1,1]", [1, 1]), ("[[1,0],[1,1]]", [1, 1]), ("[[1,0]]", [1, 0]),
            (#"{"min":[1,0],"max":[1,1]}"#, [1, 1]), (#"{"min":[1,0],"max":[1,0]}"#, [1, 0]),
            (#"{"min":[0,0],"max":[9,9]}"#, [1, 3]), ("[[1,1],[2,0]]", [1, 1]),
        ]
    )
    func helloProtocolForms(form: String, version: [Int]) async throws {
        let transcript = try await EFB.run([#"{"type":"hello","id":"h","protocol":\#(form)}"#])
        #expect(transcript.error("h") == nil)
        #expect(transcript.last("hello", "h")?["version"] == .array(version.map { .int($0) }))
    }

    @Test(
        "§4.3 hello: with no version in common (a range with min above max holds none) the reply is unsupported_protocol",
        arguments: ["2", "[1,4]", "[[2,0],[0,9]]", #"{"min":[1,1],"max":[1,0]}"#, #"{"min":[2,0],"max":[3,0]}"#]
    )
    func helloNoCommonVersion(form: String) async throws {
        let transcript = try await EFB.run([#"{"type":"hello","id":"h","protocol":\#(form)}"#])
        #expect(transcript.error("h")?.string("code") == "unsupported_protocol")
        #expect(transcript.types("h").contains("hello"))
    }

    @Test(
        "§4.3 hello: a malformed protocol gets invalid_params naming the part at fault",
        arguments: [
            (#""1""#, "protocol"), ("[1]", "protocol"), ("[]", "protocol"), (#"[[1,0],"x"]"#, "protocol[1]"),
            (#"{"max":[1,1]}"#, "protocol.min"), (#"{"min":[1,0],"max":3}"#, "protocol.max"),
            (#"{"min":[1,-1],"max":[1,1]}"#, "protocol.min[1]"), ("[1,-1]", "protocol[1]"), ("-1", "protocol"),
        ]
    )
    func helloMalformedProtocol(form: String, field: String) async throws {
        let transcript = try await EFB.run([#"{"type":"hello","id":"h","protocol":\#(form)}"#])
        #expect(transcript.error("h")?.string("code") == "invalid_params")
        #expect(transcript.error("h")?.string("field") == field)
    }

    @Test("§4.3 hello: protocol is required")
    func helloNeedsProtocol() async throws {
        let transcript = try await EFB.run([#"{"type":"hello","id":"h"}"#])
        #expect(transcript.error("h")?.string("field") == "protocol")
        #expect(transcript.error("h")?.string("message") == "missing required field protocol")
    }

    @Test(
        "§4.3 hello: the reply says version, versions, want, locale and capabilities (1.1 adds elementChanged, idle, timer)"
    )
    func helloReply() async throws {
        let transcript = try await EFB.run([
            #"{"type":"hello","id":1,"protocol":1,"want":["validActions","fly"],"locale":"fr"}"#, EFB.hello11,
        ])
        let first = try #require(transcript.last("hello", 1))
        #expect(first["version"] == [1, 0])
        #expect(first["versions"] == [[1, 0], [1, 1], [1, 2], [1, 3]])
        #expect(first["want"] == ["validActions"])
        #expect(first["locale"] == "en")
        let second = try #require(transcript.last("hello", "h"))
        guard case .array(let before) = first["capabilities"], case .array(let after) = second["capabilities"] else {
            Issue.record("no capabilities")
            return
        }
        #expect(Set(after).subtracting(before) == ["elementChanged", "idle", "timer"])
    }

    @Test("§4.3 hello: keys with a non-string value gets invalid_params (field keys.NAME)")
    func helloKeysMustBeStrings() async throws {
        let transcript = try await EFB.run([#"{"type":"hello","id":"h","protocol":1,"keys":{"next":"a","rotor":3}}"#])
        #expect(transcript.error("h")?.string("code") == "invalid_params")
        #expect(transcript.error("h")?.string("field") == "keys.rotor")
    }

    @Test("§4.3 hello: want validActions sends one at once and one after every focus; other values are ignored")
    func helloWantValidActions() async throws {
        let transcript = try await EFB.run([
            #"{"type":"hello","id":"h","protocol":1,"want":["validActions","nope"]}"#, #"{"type":"next","id":1}"#,
        ])
        #expect(transcript.types("h") == ["hello", "validActions", "done"])
        #expect(transcript.types(1) == ["focus", "validActions", "done"])
    }

    @Test("§4.3 hello: each hello replaces the previous one's keys and want; one without keys clears the key names")
    func helloReplaces() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape"}"#,
            #"{"type":"hello","id":1,"protocol":1,"keys":{"next":"swipe right"},"want":["validActions"]}"#,
            #"{"type":"hello","id":2,"protocol":1}"#, #"{"type":"next","id":3}"#,
        ])
        #expect(transcript.types(2) == ["hello", "screen", "focus", "done"])
        #expect(transcript.types(3) == ["focus", "done"])
        let screen = try #require(transcript.last("screen", 2))
        #expect(!JSONWriter.string(.object(screen)).contains("Your keys"))
    }

    @Test("§4.3 hello: key names end a chapter page's text with the gestures its first level needs, hint and menu last")
    func helloKeyNames() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape"}"#,
            #"{"type":"hello","id":1,"protocol":1,"keys":{"menu":"M","adjust":"A","previous":"P","activate":"T","next":"N","hint":"H","rotor":"R"}}"#,
        ])
        let screen = JSONWriter.string(.object(try #require(transcript.last("screen", 1))))
        #expect(
            screen.contains("Your keys for this chapter: next: N, previous: P, activate: T, hint: H, level menu: M.")
        )
    }

    @Test("§4.3 hello: the reply is error, hello, screen and focus if the text changed, validActions if wanted, done")
    func helloReplyOrder() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape"}"#,
            #"{"type":"hello","id":1,"protocol":7,"keys":{"next":"N"},"want":["validActions"]}"#,
        ])
        #expect(transcript.types(1) == ["error", "hello", "screen", "focus", "validActions", "done"])
    }

    @Test("§4.3 hello: not allowed inside a batch")
    func helloNotInBatch() async throws {
        let transcript = try await EFB.run([#"{"type":"batch","id":1,"commands":[{"type":"hello","protocol":1}]}"#])
        #expect(transcript.error(1)?.string("code") == "invalid_params")
        #expect(transcript.error(1)?.string("field") == "commands[0]")
    }

    // MARK: §4.4 Navigation

    @Test("§4.4 next / previous: move the focus; at the last / first element a boundary sound and nothing moves")
    func nextPreviousBoundary() async throws {
        let transcript = try await EFB.run([
            #"{"type":"previous","id":1}"#, #"{"type":"next","id":2}"#, #"{"type":"next","id":3}"#,
            #"{"type":"next","id":4}"#, #"{"type":"previous","id":5}"#,
        ])
        #expect(transcript.types(1) == ["sound", "done"])
        #expect(transcript.last("sound", 1)?.string("name") == "boundary")
        #expect(transcript.last("focus", 2)?.elementID == "text")
        #expect(transcript.last("focus", 3)?.elementID == "continue")
        #expect(transcript.last("sound", 4)?.string("name") == "boundary")
        #expect(transcript.types(4) == ["sound", "done"])
        #expect(transcript.last("focus", 5)?.elementID == "text")
    }

    @Test("§4.4 first / last: focus the first / last element; nothing is sent if it is already focused")
    func firstLast() async throws {
        let transcript = try await EFB.run([
            #"{"type":"first","id":1}"#, #"{"type":"last","id":2}"#, #"{"type":"last","id":3}"#,
            #"{"type":"first","id":4}"#,
        ])
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.last("focus", 2)?.elementID == "continue")
        #expect(transcript.types(3) == ["done"])
        #expect(transcript.last("focus", 4)?.elementID == "title")
    }

    @Test("§4.4 focus: an id not on screen is invalid_params (field element); the focused one sends nothing")
    func focusCommand() async throws {
        let transcript = try await EFB.run([
            #"{"type":"focus","element":"x","id":1}"#, #"{"type":"focus","element":"title","id":2}"#,
            #"{"type":"focus","element":"text","id":3}"#,
        ])
        #expect(transcript.error(1)?.string("code") == "invalid_params")
        #expect(transcript.error(1)?.string("field") == "element")
        #expect(transcript.error(1)?.string("message") == #"no element "x" on screen intro-1"#)
        #expect(transcript.types(2) == ["done"])
        #expect(transcript.last("focus", 3)?.elementID == "text")
    }

    @Test(
        "§4.4 When the focus moves to an element with rotors a rotor event follows; with custom actions an actions event"
    )
    func focusFollowers() async throws {
        let rotor = try await EFB.play(at: "room-dial", [#"{"type":"focus","element":"door","id":1}"#])
        #expect(rotor.types(1) == ["focus", "rotor", "done"])
        let actions = try await EFB.play(at: "room-shelf", [#"{"type":"focus","element":"candle","id":1}"#])
        #expect(actions.types(1) == ["focus", "actions", "done"])
    }

    // MARK: §4.5 activate

    @Test("§4.5 activate continue: the next intro page; after the last, the chapter page with a chapter sound")
    func activateContinue() async throws {
        let transcript = try await EFB.lantern([#"{"type":"activate","element":"continue","id":1}"#])
        let types = transcript.types(1)
        #expect(transcript.last("screen", 1)?.string("screen") == "chapter-room")
        #expect(transcript.reply(to: 1).contains { $0.type == "sound" && $0.string("name") == "chapter" })
        #expect(Array(types.suffix(3)) == ["screen", "focus", "done"])
    }

    @Test("§4.5 activate begin: the chapter's level to carry on with")
    func activateBegin() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"escape"}"#, #"{"type":"activate","element":"begin","id":1}"#,
        ])
        #expect(transcript.last("screen", 1)?.string("screen") == "level-room-latch")
    }

    @Test("§4.5 activate on anything else: announce Nothing happens. (feedback), not an error")
    func activateNothing() async throws {
        let transcript = try await EFB.run([#"{"type":"activate","id":1}"#])
        #expect(transcript.types(1) == ["announce", "done"])
        #expect(transcript.last("announce", 1)?.string("category") == "feedback")
        #expect(transcript.last("announce", 1)?.string("text") == "Nothing happens.")
    }

    @Test("§4.5 activate: an element not on the screen is invalid_params (field element)")
    func activateUnknown() async throws {
        let transcript = try await EFB.run([#"{"type":"activate","element":"nope","id":1}"#])
        #expect(transcript.error(1)?.string("code") == "invalid_params")
        #expect(transcript.error(1)?.string("field") == "element")
    }

    @Test("§4.5 activate resume on the assistive screen is the same as assistive active true")
    func activateResume() async throws {
        let transcript = try await EFB.play(
            at: "room-latch",
            [
                #"{"type":"assistive","active":false}"#, #"{"type":"activate","element":"resume","id":1}"#,
                #"{"type":"assistive","active":false}"#, #"{"type":"assistive","active":true,"id":2}"#,
            ]
        )
        let strip: (Event) -> Event = { $0.filter { !["seq", "replyTo", "gen"].contains($0.key) } }
        #expect(transcript.reply(to: 1).dropFirst().map(strip) == transcript.reply(to: 2).map(strip))
        #expect(transcript.last("screen", 1)?.string("screen") == "level-room-latch")
    }

    @Test("§4.5 activate replay on the end screen is the same as replay")
    func activateReplay() async throws {
        let save = try EFB.save(completed: EFB.lanternLevels, current: nil)
        let transcript = try await EFB.run(
            [#"{"type":"activate","element":"replay","id":1}"#],
            arguments: EFB.lantern(save: save)
        )
        #expect(transcript.types(1).suffix(5) == ["progress", "announce", "screen", "focus", "done"])
        #expect(transcript.last("screen", 1)?.string("screen") == "intro-1")
    }

    // MARK: §4.6 rotor, rotorItem

    @Test(
        "§4.6 rotor: switches to the next / previous rotor, two that wrap; events rotor then an assertive feedback announce"
    )
    func rotorSwitches() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"focus","element":"door"}"#, #"{"type":"rotor","direction":"next","id":1}"#,
                #"{"type":"rotor","direction":"next","id":2}"#, #"{"type":"rotor","direction":"previous","id":3}"#,
            ]
        )
        #expect(transcript.types(1) == ["rotor", "announce", "done"])
        #expect(transcript.last("rotor", 1)?.string("rotor") == "Clues")
        #expect(transcript.last("announce", 1)?.string("priority") == "assertive")
        #expect(transcript.last("announce", 1)?.string("category") == "feedback")
        #expect(transcript.last("announce", 1)?.string("text") == "Clues")
        #expect(transcript.last("rotor", 2)?.string("rotor") == "Codes")
        #expect(transcript.last("rotor", 3)?.string("rotor") == "Clues")
    }

    @Test(
        "§4.6 rotorItem: first step next goes to item 1, previous to the last; later steps wrap; a focus if the value changed"
    )
    func rotorItemSteps() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"rotorItem","element":"door","direction":"previous","id":1}"#,
                #"{"type":"rotorItem","direction":"next","id":2}"#,
            ]
        )
        #expect(transcript.types(1) == ["focus", "rotor", "rotor", "announce", "focus", "done"])
        #expect(transcript.reply(to: 1)[2].int("itemIndex") == 3)
        #expect(transcript.last("announce", 1)?.string("priority") == "assertive")
        #expect(transcript.last("focus", 1)?.elementValue == "22")
        #expect(transcript.last("rotor", 2)?.int("itemIndex") == 1)
        #expect(transcript.types(2) == ["rotor", "announce", "focus", "done"])
        let fresh = try await EFB.play(
            at: "room-dial",
            [#"{"type":"rotorItem","element":"door","direction":"next","id":1}"#]
        )
        #expect(fresh.reply(to: 1)[2].int("itemIndex") == 1)
    }

    @Test("§4.6 rotorItem: each rotor remembers its own position")
    func rotorsRememberPositions() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"rotorItem","element":"door","direction":"next"}"#,
                #"{"type":"rotorItem","direction":"next"}"#,
                #"{"type":"rotor","direction":"next"}"#, #"{"type":"rotorItem","direction":"next"}"#,
                #"{"type":"rotor","direction":"next","id":1}"#,
            ]
        )
        #expect(transcript.last("rotor", 1)?.int("itemIndex") == 2)
    }

    @Test("§4.6 rotor, rotorItem elsewhere: not_now")
    func rotorElsewhere() async throws {
        let transcript = try await EFB.run([
            #"{"type":"rotor","direction":"next","id":1}"#, #"{"type":"rotorItem","direction":"next","id":2}"#,
        ])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.error(1)?.string("message") == "the focused element has no rotor")
        #expect(transcript.error(2)?.string("code") == "not_now")
    }

    // MARK: §4.7 action

    @Test("§4.7 action: index or name is required (field name); index past the list; unknown name")
    func actionErrors() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [
                #"{"type":"action","element":"candle","id":1}"#,
                #"{"type":"action","element":"candle","index":3,"id":2}"#,
                #"{"type":"action","element":"candle","name":"Eat it","id":3}"#,
            ]
        )
        #expect(transcript.error(1)?.string("field") == "name")
        #expect(transcript.error(1)?.string("message") == "action needs a name or an index")
        #expect(transcript.error(2)?.string("field") == "index")
        #expect(transcript.error(2)?.string("message") == "index must be between 1 and 2")
        #expect(transcript.error(3)?.string("field") == "name")
        #expect(transcript.error(3)?.string("message") == #"candle has no action "Eat it""#)
        #expect(transcript.all("error").allSatisfy { $0.string("code") == "invalid_params" })
    }

    @Test("§4.7 action: if both index and name are given, index is used")
    func actionIndexWins() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [
                #"{"type":"action","element":"candle","index":2,"name":"Light it","id":1}"#
            ]
        )
        #expect(transcript.last("focus", 1)?.elementValue == "Break it")
    }

    @Test("§4.7 action: the result is announced (polite, feedback) and a focus follows with the action as value")
    func actionEvents() async throws {
        let transcript = try await EFB.play(
            at: "room-shelf",
            [
                #"{"type":"focus","element":"candle"}"#, #"{"type":"action","name":"Light it","id":1}"#,
            ]
        )
        #expect(transcript.types(1) == ["announce", "focus", "done"])
        #expect(transcript.last("announce", 1)?.string("priority") == "polite")
        #expect(transcript.last("announce", 1)?.string("category") == "feedback")
        #expect(transcript.last("announce", 1)?.string("text") == "The candle burns.")
        #expect(transcript.last("focus", 1)?.elementValue == "Light it")
    }

    @Test("§4.7 action elsewhere: not_now")
    func actionElsewhere() async throws {
        let transcript = try await EFB.run([#"{"type":"action","index":1,"id":1}"#])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.error(1)?.string("message") == "the focused element has no custom actions")
    }

    // MARK: §4.8 adjust

    @Test("§4.8 adjust: sound dial, announce the new value (polite, feedback), then focus with it; values wrap")
    func adjustEvents() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [
                #"{"type":"focus","element":"left-wheel"}"#, #"{"type":"adjust","direction":"decrement","id":1}"#,
                #"{"type":"adjust","direction":"increment","id":2}"#,
            ]
        )
        #expect(transcript.types(1) == ["sound", "announce", "focus", "done"])
        #expect(transcript.last("sound", 1)?.string("name") == "dial")
        #expect(transcript.last("announce", 1)?.string("text") == "9")
        #expect(transcript.last("announce", 1)?.string("priority") == "polite")
        #expect(transcript.last("announce", 1)?.string("category") == "feedback")
        #expect(transcript.last("focus", 1)?.elementValue == "9")
        #expect(transcript.last("focus", 2)?.elementValue == "0")
    }

    @Test("§4.8 adjust elsewhere: not_now")
    func adjustElsewhere() async throws {
        let transcript = try await EFB.run([#"{"type":"adjust","direction":"increment","id":1}"#])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.error(1)?.string("message") == "the focused element is not adjustable")
    }

    // MARK: §4.9 input

    @Test("§4.9 input: announce the text (echo, polite), then focus with the new value; text replaces, not appends")
    func inputEvents() async throws {
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"input","element":"answer","text":"lan","id":1}"#, #"{"type":"input","text":"tern","id":2}"#,
                #"{"type":"input","text":"tern","id":3}"#,
            ]
        )
        #expect(transcript.types(1) == ["focus", "announce", "focus", "done"])
        #expect(transcript.last("announce", 1)?.string("category") == "echo")
        #expect(transcript.last("announce", 1)?.string("priority") == "polite")
        #expect(transcript.last("announce", 1)?.string("text") == "lan")
        #expect(transcript.last("focus", 2)?.elementValue == "tern")
        #expect(transcript.types(3) == ["announce", "done"])
    }

    @Test("§4.9 input: at most 1000 code points (👨‍👩‍👧 is five, an escape pair one); longer is input_too_long (field text)")
    func inputLength() async throws {
        let family = "👨‍👩‍👧"
        let pair = #"\uD83D\uDE00"#
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"input","element":"answer","text":"\#(String(repeating: family, count: 200))","id":1}"#,
                #"{"type":"input","element":"answer","text":"\#(String(repeating: family, count: 200))e","id":2}"#,
                #"{"type":"input","element":"answer","text":"\#(String(repeating: pair, count: 1000))","id":3}"#,
                #"{"type":"input","element":"answer","text":"\#(String(repeating: "e\u{301}", count: 500))x","id":4}"#,
            ]
        )
        #expect(transcript.error(1) == nil)
        #expect(transcript.error(2)?.string("code") == "input_too_long")
        #expect(transcript.error(2)?.string("field") == "text")
        #expect(transcript.error(3) == nil)
        #expect(transcript.error(4)?.string("code") == "input_too_long")
    }

    @Test("§4.9 input: input_too_long comes before anything else, even where input is not_now")
    func inputTooLongFirst() async throws {
        let transcript = try await EFB.run([
            #"{"type":"input","text":"\#(String(repeating: "a", count: 1001))","id":1}"#
        ])
        #expect(transcript.error(1)?.string("code") == "input_too_long")
    }

    @Test("§4.9 input elsewhere: not_now")
    func inputElsewhere() async throws {
        let transcript = try await EFB.run([#"{"type":"input","text":"x","id":1}"#])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.error(1)?.string("message") == "the focused element is not a text field")
    }

    // MARK: §4.10 magicTap, escape

    @Test("§4.10 magicTap / escape perform the screen's declared action; null gives not_now")
    func magicTapAndEscape() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"magicTap","id":1}"#, #"{"type":"escape","id":2}"#, #"{"type":"magicTap","id":3}"#,
            #"{"type":"escape","id":4}"#,
        ])
        #expect(transcript.last("screen", 1)?.string("screen") == "chapter-room")
        #expect(transcript.last("screen", 2)?.string("screen") == "menu")
        #expect(transcript.error(3)?.string("code") == "not_now")
        #expect(transcript.error(3)?.string("message") == "magic tap does nothing here")
        #expect(transcript.last("screen", 4)?.string("screen") == "chapter-room")
        let menu = try await EFB.play(at: "room-latch", [#"{"type":"menu"}"#, #"{"type":"escape","id":1}"#])
        #expect(menu.last("screen", 1)?.string("screen") == "level-room-latch")
    }

    // MARK: §4.11 hint

    @Test("§4.11 hint: no hint yet; then Hint 1 of N; once all are heard it repeats the last; category hint, polite")
    func hintSequence() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [
                #"{"type":"hint","id":1}"#, #"{"type":"wait","ms":60000}"#, #"{"type":"hint","id":2}"#,
                #"{"type":"hint","id":3}"#, #"{"type":"hint","id":4}"#,
            ],
            ["--no-time-pressure"]
        )
        #expect(transcript.last("announce", 1)?.string("text") == "No hint yet — wait a little.")
        #expect(transcript.last("announce", 2)?.string("text") == "Hint 1 of 2: You opened four locks before this one.")
        #expect(transcript.last("announce", 3)?.string("text") == "Hint 2 of 2: Four, then two.")
        #expect(transcript.last("announce", 4)?.string("text") == "Hint 2 of 2: Four, then two.")
        for id in 1...4 {
            #expect(transcript.types(.int(id)) == ["announce", "done"])
            #expect(transcript.last("announce", .int(id))?.string("category") == "hint")
            #expect(transcript.last("announce", .int(id))?.string("priority") == "polite")
        }
    }

    @Test("§4.11 hint on other screens (intro, chapter, menu): This level has no hints.")
    func hintElsewhere() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"hint","id":1}"#, #"{"type":"escape"}"#, #"{"type":"hint","id":2}"#, #"{"type":"menu"}"#,
            #"{"type":"hint","id":3}"#,
        ])
        for id in 1...3 {
            #expect(transcript.last("announce", .int(id))?.string("text") == "This level has no hints.")
            #expect(transcript.error(.int(id)) == nil)
        }
    }

    // MARK: §4.12 menu, goto

    @Test("§4.12 menu: opens over the screen, focus on the level being played; already open is not_now")
    func menuOpens() async throws {
        let transcript = try await EFB.play(at: "room-dial", [#"{"type":"menu","id":1}"#, #"{"type":"menu","id":2}"#])
        #expect(transcript.last("screen", 1)?.string("screen") == "menu")
        #expect(transcript.last("focus", 1)?.elementID == "level-room-dial")
        #expect(transcript.error(2)?.string("code") == "not_now")
        #expect(transcript.error(2)?.string("message") == "the menu is already open")
    }

    @Test("§4.12 menu: after the game is finished the focus goes to the title")
    func menuAfterTheEnd() async throws {
        let save = try EFB.save(completed: EFB.lanternLevels, current: nil)
        let transcript = try await EFB.run([#"{"type":"menu","id":1}"#], arguments: EFB.lantern(save: save))
        #expect(transcript.last("focus", 1)?.elementID == "title")
    }

    @Test("§4.12 goto: past the last chapter or level is invalid_params; not unlocked is locked (no field)")
    func gotoErrors() async throws {
        let transcript = try await EFB.lantern([
            #"{"type":"goto","chapter":2,"level":1,"id":1}"#, #"{"type":"goto","chapter":1,"level":6,"id":2}"#,
            #"{"type":"goto","chapter":1,"level":2,"id":3}"#,
        ])
        #expect(transcript.error(1)?.string("field") == "chapter")
        #expect(transcript.error(1)?.string("message") == "chapter must be between 1 and 1")
        #expect(transcript.error(2)?.string("field") == "level")
        #expect(transcript.error(2)?.string("message") == "level must be between 1 and 5 in chapter 1")
        #expect(transcript.error(3)?.string("code") == "locked")
        #expect(transcript.error(3)?["field"] == nil)
        #expect(transcript.error(3)?.string("message") == "level 1.2 is not unlocked yet")
    }

    @Test("§4.12 goto: works from any screen, the menu included (closing it); restarts even the level being played")
    func gotoWorks() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"rotorItem","element":"door","direction":"next"}"#, #"{"type":"menu"}"#,
                #"{"type":"goto","chapter":1,"level":3,"id":1}"#, #"{"type":"state","id":2}"#,
                #"{"type":"goto","chapter":1,"level":1,"id":3}"#,
            ]
        )
        #expect(transcript.last("screen", 1)?.string("screen") == "level-room-dial")
        let door = transcript.last("screen", 2).map { JSONWriter.string(.object($0)) } ?? ""
        #expect(!door.contains(#""value":"27""#))
        #expect(transcript.last("screen", 3)?.string("screen") == "level-room-latch")
    }

    @Test("§4.12 goto: the saved progress is not touched until a level is solved")
    func gotoKeepsProgress() async throws {
        let transcript = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"goto","chapter":1,"level":1,"id":1}"#, #"{"type":"state","id":2}"#,
            ]
        )
        #expect(transcript.types(1).contains("progress") == false)
        #expect(transcript.last("progress", 2)?.int("level") == 3)
    }

    // MARK: §4.13 replay

    @Test("§4.13 replay: clears progress and saves it; progress, an assertive narrative announce, then intro-1")
    func replayEvents() async throws {
        let transcript = try await EFB.play(at: "room-dial", [#"{"type":"replay","id":1}"#])
        #expect(transcript.types(1) == ["progress", "announce", "screen", "focus", "done"])
        let progress = try #require(transcript.last("progress", 1))
        #expect(progress["completed"] == [])
        #expect(progress.int("level") == 1)
        #expect(transcript.last("announce", 1)?.string("priority") == "assertive")
        #expect(transcript.last("announce", 1)?.string("category") == "narrative")
        #expect(transcript.last("screen", 1)?.string("screen") == "intro-1")
    }

    // MARK: §4.14 repeat

    @Test("§4.14 repeat: the last announcement again, same text, priority and category; gen unchanged")
    func repeatAgain() async throws {
        let transcript = try await EFB.play(
            at: "room-latch",
            [
                #"{"type":"activate","element":"cold-handle","id":1}"#, #"{"type":"repeat","id":2}"#,
            ]
        )
        let said = try #require(transcript.last("announce", 1))
        let again = try #require(transcript.last("announce", 2))
        #expect(transcript.types(2) == ["announce", "done"])
        #expect(
            said.filter { $0.key != "seq" && $0.key != "replyTo" }
                == again.filter { $0.key != "seq" && $0.key != "replyTo" }
        )
        #expect(transcript.done(1)?.int("gen") == transcript.done(2)?.int("gen"))
    }

    @Test("§4.14 repeat: echoes of the player's input are never repeated")
    func repeatSkipsEcho() async throws {
        let transcript = try await EFB.play(
            at: "room-word",
            [
                #"{"type":"activate","element":"title"}"#, #"{"type":"input","element":"answer","text":"abc"}"#,
                #"{"type":"repeat","id":1}"#,
            ]
        )
        #expect(transcript.last("announce", 1)?.string("text") == "Nothing happens.")
    }

    @Test("§4.14 repeat: before anything was announced it is not_now; the resumed game's welcome back does not count")
    func repeatNothingYet() async throws {
        let fresh = try await EFB.run([#"{"type":"repeat","id":1}"#])
        #expect(fresh.error(1)?.string("code") == "not_now")
        #expect(fresh.error(1)?.string("message") == "nothing has been announced yet")
        let resumed = try await EFB.play(at: "room-word", [#"{"type":"repeat","id":1}"#])
        #expect(resumed.error(1)?.string("code") == "not_now")
    }

    // MARK: §4.15 assistive

    @Test("§4.15 assistive false: sound assistive-lost, the assistive screen, its focus")
    func assistiveLost() async throws {
        let transcript = try await EFB.play(at: "room-word", [#"{"type":"assistive","active":false,"id":1}"#])
        #expect(transcript.types(1) == ["sound", "screen", "focus", "done"])
        #expect(transcript.last("sound", 1)?.string("name") == "assistive-lost")
        #expect(transcript.last("screen", 1)?.string("kind") == "assistive")
    }

    @Test("§4.15 assistive true: sound assistive-back, a polite narrative welcome back, the same screen and focus")
    func assistiveBack() async throws {
        let transcript = try await EFB.play(
            at: "room-latch",
            [
                #"{"type":"focus","element":"question","id":0}"#, #"{"type":"assistive","active":false}"#,
                #"{"type":"next"}"#, #"{"type":"assistive","active":true,"id":1}"#,
            ]
        )
        #expect(transcript.types(1) == ["sound", "announce", "screen", "focus", "done"])
        #expect(transcript.last("sound", 1)?.string("name") == "assistive-back")
        #expect(transcript.last("announce", 1)?.string("text") == "Welcome back. Carrying on where you were.")
        #expect(transcript.last("announce", 1)?.string("priority") == "polite")
        #expect(transcript.last("announce", 1)?.string("category") == "narrative")
        #expect(transcript.last("screen", 1)?.string("screen") == "level-room-latch")
        #expect(transcript.last("focus", 1)?.elementID == "question")
    }

    @Test("§4.15 assistive: reporting the state that already holds does nothing but done")
    func assistiveSameState() async throws {
        let transcript = try await EFB.run([
            #"{"type":"assistive","active":true,"id":1}"#, #"{"type":"assistive","active":false}"#,
            #"{"type":"assistive","active":false,"id":2}"#,
        ])
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.types(2) == ["done"])
    }

    // MARK: §4.16 state, validActions, ping

    @Test("§4.16 state: screen, focus, rotor if any, actions if any, progress, validActions if wanted; gen unchanged")
    func stateOrder() async throws {
        let rotor = try await EFB.play(
            at: "room-dial",
            [
                #"{"type":"hello","protocol":1,"want":["validActions"]}"#, #"{"type":"focus","element":"door","id":0}"#,
                #"{"type":"state","id":1}"#,
            ]
        )
        #expect(rotor.types(1) == ["screen", "focus", "rotor", "progress", "validActions", "done"])
        #expect(rotor.done(0)?.int("gen") == rotor.done(1)?.int("gen"))
        let actions = try await EFB.play(
            at: "room-shelf",
            [#"{"type":"focus","element":"key"}"#, #"{"type":"state","id":1}"#]
        )
        #expect(actions.types(1) == ["screen", "focus", "actions", "progress", "done"])
    }

    @Test("§4.16 validActions sends one validActions event; ping only its done with the current gen")
    func validActionsAndPing() async throws {
        let transcript = try await EFB.run([
            #"{"type":"next"}"#, #"{"type":"validActions","id":1}"#, #"{"type":"ping","id":2}"#,
        ])
        #expect(transcript.types(1) == ["validActions", "done"])
        #expect(transcript.types(2) == ["done"])
        #expect(transcript.done(2)?.int("gen") == 1)
    }

    // MARK: §4.17 wait

    @Test("§4.17 wait (virtual): time jumps; every due hint and time announcement in order, with the wait's replyTo")
    func waitVirtual() async throws {
        let transcript = try await EFB.play(at: "room-wheels", [#"{"type":"wait","ms":46000,"id":1}"#])
        let texts = transcript.reply(to: 1).filter { $0.type == "announce" }.compactMap { $0.string("text") }
        #expect(
            texts == [
                "One minute of torchlight left.", "45 seconds of torchlight left.",
                "A new hint is ready. Ask for it whenever you like.",
                "30 seconds of torchlight left.",
            ]
        )
    }

    @Test("§4.17 wait (real): lines that arrive before the deadline are answered after the wait, in order")
    func waitRealKeepsLines() async throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        EFB.send(
            game,
            #"{"type":"wait","ms":300,"id":"w"}"#,
            #"{"type":"next","id":"n"}"#,
            #"{"type":"ping","id":"p"}"#
        )
        try game.waitForOutput(containing: #""replyTo":"p""#)
        let dones = try EFB.events(game).filter { $0.type == "done" }.map { $0["replyTo"] }
        #expect(dones == ["w", "n", "p"])
        try EFB.finish(game)
    }

    @Test("§4.17 wait (real): a batch may not hold a wait: invalid_params (field commands[i])")
    func waitInRealBatch() async throws {
        let transcript = try await EFB.run(
            [#"{"type":"batch","id":1,"commands":[{"type":"next"},{"type":"wait","ms":1}]}"#],
            arguments: ["pipe", "--memory-save"]
        )
        #expect(transcript.error(1)?.string("code") == "invalid_params")
        #expect(transcript.error(1)?.string("field") == "commands[1]")
    }

    // MARK: §4.18 snapshot, restore

    @Test("§4.18 snapshot: a blob efb-snapshot-1. + base64 + . + 16 hex digits")
    func snapshotBlob() async throws {
        let transcript = try await EFB.run([#"{"type":"snapshot","id":1}"#])
        #expect(transcript.types(1) == ["snapshot", "done"])
        let blob = try #require(transcript.last("snapshot", 1)?.string("blob"))
        #expect(blob.wholeMatch(of: /efb-snapshot-1\.[A-Za-z0-9+\/]+=*\.[0-9a-f]{16}/) != nil)
    }

    @Test(
        "§4.18 restore: a bare done with the snapshot's gen; state shows the snapshot's game; the save is not written"
    )
    func restoreWorks() async throws {
        let save = try EFB.save(completed: ["room-latch"], current: "room-word")
        let taken = try await EFB.run(
            [
                #"{"type":"input","element":"answer","text":"lamp"}"#, #"{"type":"snapshot","id":"s"}"#,
                #"{"type":"state","id":"t"}"#,
            ],
            arguments: EFB.lantern(save: save)
        )
        let blob = try #require(taken.last("snapshot", "s")?.string("blob"))
        let before = try Data(contentsOf: save)
        let restored = try await EFB.run(
            [#"{"type":"replay"}"#, #"{"type":"restore","id":"r","blob":"\#(blob)"}"#, #"{"type":"state","id":"t"}"#],
            arguments: EFB.lantern(at: "room-latch")
        )
        #expect(restored.types("r") == ["done"])
        #expect(restored.done("r")?.int("gen") == taken.last("snapshot", "s")?.int("gen"))
        #expect(restored.last("focus", "t")?.elementValue == "lamp")
        #expect(try Data(contentsOf: save) == before)
    }

    @Test(
        "§4.18 restore first in a fresh session: later commands give byte for byte the events they gave after the snapshot"
    )
    func restoreReplaysByteForByte() async throws {
        let after = [
            #"{"type":"activate","element":"warm-handle","id":9}"#, #"{"type":"input","text":"x"}"#,
            #"{"type":"quit"}"#,
        ]
        let original = try await EFB.lantern(EFB.toFirstLevel + [#"{"type":"snapshot","id":"s"}"#] + after)
        let blob = try #require(original.last("snapshot", "s")?.string("blob"))
        let replayed = try await EFB.lantern([#"{"type":"restore","id":"s","blob":"\#(blob)"}"#] + after)
        let tail = { (t: Transcript) in
            t.lines.suffix(from: t.lines.firstIndex { $0.contains(Array(#""replyTo":9"#.utf8)) } ?? 0)
        }
        #expect(Array(tail(original)).map(Array.init) == Array(tail(replayed)).map(Array.init))
        #expect(replayed.done("s")?.int("seq") == original.done("s")?.int("seq"))
    }

    @Test(
        "§4.18 restore: a refused blob gets bad_snapshot (field blob) and nothing changes",
        arguments: [
            "nope", "efb-snapshot-1.", "efb-snapshot-2.AAAA.0000000000000000", "efb-snapshot-1.eyJ9.0000000000000000",
        ]
    )
    func restoreRefused(blob: String) async throws {
        let transcript = try await EFB.run([
            #"{"type":"next","id":0}"#, #"{"type":"restore","id":1,"blob":"\#(blob)"}"#, #"{"type":"ping","id":2}"#,
        ])
        #expect(transcript.types(1) == ["error", "done"])
        #expect(transcript.error(1)?.string("code") == "bad_snapshot")
        #expect(transcript.error(1)?.string("field") == "blob")
        #expect(transcript.done(2)?.int("gen") == transcript.done(0)?.int("gen"))
    }

    @Test("§4.18 restore: an altered blob, or one of another adventure id, is bad_snapshot")
    func restoreAlteredOrForeign() async throws {
        let shipped = try await EFB.run([#"{"type":"snapshot","id":"s"}"#])
        let blob = try #require(shipped.last("snapshot", "s")?.string("blob"))
        var altered = Array(blob)
        let i = altered.count - 20
        altered[i] = altered[i] == "A" ? "B" : "A"
        let transcript = try await EFB.lantern([
            #"{"type":"restore","id":1,"blob":"\#(String(altered))"}"#, #"{"type":"restore","id":2,"blob":"\#(blob)"}"#,
        ])
        #expect(transcript.error(1)?.string("code") == "bad_snapshot")
        #expect(transcript.error(2)?.string("code") == "bad_snapshot")
    }

    @Test("§4.18 restore: not allowed inside a batch")
    func restoreNotInBatch() async throws {
        let transcript = try await EFB.run([#"{"type":"batch","id":1,"commands":[{"type":"restore","blob":"x"}]}"#])
        #expect(transcript.error(1)?.string("field") == "commands[0]")
    }

    // MARK: §4.19 batch

    @Test(
        "§4.19 batch: decoding is all or nothing; the inner code kept, message prefixed commands[i]: , field commands[i].FIELD"
    )
    func batchDecoding() async throws {
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[{"type":"next"},{"type":"fly"}]}"#,
            #"{"type":"batch","id":2,"commands":[{"type":"next"},3]}"#, #"{"type":"state","id":3}"#,
        ])
        let error = try #require(transcript.error(1))
        #expect(error.string("code") == "unknown_command")
        #expect(error.string("field") == "commands[1].type")
        #expect(error.string("message") == #"commands[1]: unknown command "fly""#)
        #expect(transcript.types(1) == ["error", "done"])
        #expect(transcript.error(2)?.string("field") == "commands[1]")
        #expect(transcript.last("focus", 3)?.elementID == "title")
    }

    @Test("§4.19 batch: hello, restore, cancel and batch are not allowed inside (field commands[i])")
    func batchForbidden() async throws {
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[{"type":"cancel","target":1}]}"#,
            #"{"type":"batch","id":2,"commands":[{"type":"next"},{"type":"batch","commands":[]}]}"#,
        ])
        #expect(transcript.error(1)?.string("field") == "commands[0]")
        #expect(transcript.error(2)?.string("field") == "commands[1]")
        #expect(transcript.all("error").allSatisfy { $0.string("code") == "invalid_params" })
    }

    @Test(
        "§4.19 batch: an inner command carries no id, even null (field commands[i].id); events carry the batch's replyTo"
    )
    func batchInnerId() async throws {
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[{"type":"next","id":null}]}"#,
            #"{"type":"batch","id":2,"commands":[{"type":"next"},{"type":"next"}]}"#,
        ])
        #expect(transcript.error(1)?.string("field") == "commands[0].id")
        #expect(transcript.types(2) == ["focus", "focus", "done"])
    }

    @Test(
        "§4.19 batch: an inner ifGen is checked when its turn comes; stale refuses the batch (field commands[i].ifGen)"
    )
    func batchInnerIfGen() async throws {
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[{"type":"next","ifGen":0},{"type":"next","ifGen":1}]}"#,
            #"{"type":"batch","id":2,"commands":[{"type":"previous"},{"type":"next","ifGen":2}]}"#,
            #"{"type":"batch","id":3,"commands":[{"type":"next","ifGen":-1}]}"#,
        ])
        #expect(transcript.types(1) == ["focus", "focus", "done"])
        #expect(transcript.error(2)?.string("code") == "stale")
        #expect(transcript.error(2)?.string("field") == "commands[1].ifGen")
        #expect(transcript.error(3)?.string("code") == "invalid_params")
        #expect(transcript.error(3)?.string("field") == "commands[0].ifGen")
    }

    @Test("§4.19 batch: running is all or nothing; a refused command leaves state, gen, seq and save as before")
    func batchRunsAllOrNothing() async throws {
        let transcript = try await EFB.play(
            at: "room-latch",
            [
                #"{"type":"state","id":0}"#,
                #"{"type":"batch","id":1,"commands":[{"type":"activate","element":"warm-handle"},{"type":"rotor","direction":"next"}]}"#,
                #"{"type":"state","id":2}"#,
            ]
        )
        #expect(transcript.types(1) == ["error", "done"])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.error(1)?.string("field") == "commands[1]")
        #expect(transcript.error(1)?.string("message")?.hasPrefix("commands[1]: ") == true)
        let strip: (Event) -> Event = { $0.filter { $0.key != "seq" && $0.key != "replyTo" } }
        #expect(transcript.reply(to: 0).map(strip) == transcript.reply(to: 2).map(strip))
        let errorSeq = try #require(transcript.error(1)?.int("seq"))
        #expect(transcript.done(0)?.int("seq") == errorSeq - 1)
    }

    @Test("§4.19 batch: one done settles it; with want validActions one follows each command that sent a focus")
    func batchValidActions() async throws {
        let transcript = try await EFB.run([
            #"{"type":"hello","protocol":1,"want":["validActions"]}"#,
            #"{"type":"batch","id":1,"commands":[{"type":"next"},{"type":"hint"},{"type":"next"}]}"#,
        ])
        #expect(transcript.types(1) == ["focus", "validActions", "announce", "focus", "validActions", "done"])
    }

    @Test("§4.19 batch: a quit inside ends the session there: ended, done, bye; the rest is skipped")
    func batchQuit() async throws {
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[{"type":"next"},{"type":"quit"},{"type":"next"}]}"#
        ])
        #expect(transcript.types(1) == ["focus", "ended", "done", "bye"])
    }

    @Test("§4.19 batch: an empty commands array is fine: only done")
    func batchEmpty() async throws {
        let transcript = try await EFB.run([#"{"type":"batch","id":1,"commands":[]}"#])
        #expect(transcript.types(1) == ["done"])
    }

    // MARK: §4.20 cancel

    @Test("§4.20 cancel: with no pending wait of that id (never on the virtual clock) it is not_now (field target)")
    func cancelNothing() async throws {
        let transcript = try await EFB.run([
            #"{"type":"wait","ms":10,"id":"w"}"#, #"{"type":"cancel","target":"w","id":1}"#,
        ])
        #expect(transcript.error(1)?.string("code") == "not_now")
        #expect(transcript.error(1)?.string("field") == "target")
    }

    @Test("§4.20 cancel: ends the pending wait at once (its done), then its own done, ahead of the other waiting lines")
    func cancelEndsAWait() async throws {
        let game = try RunningEFB(["pipe", "--memory-save"])
        EFB.send(game, #"{"type":"ping","id":"ready"}"#)
        try game.waitForOutput(containing: #""replyTo":"ready""#)
        EFB.send(
            game,
            #"{"type":"wait","ms":86400000,"id":"w"}"#,
            #"{"type":"ping","id":"p"}"#,
            #"{"type":"cancel","target":"w","id":"c"}"#
        )
        try game.waitForOutput(containing: #""replyTo":"p""#)
        let dones = try EFB.events(game).filter { $0.type == "done" }.map { $0["replyTo"] }
        #expect(dones == ["ready", "w", "c", "p"])
        try EFB.finish(game)
    }

    @Test("§4.20 cancel: not allowed inside a batch; target is required")
    func cancelNotInBatch() async throws {
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[{"type":"cancel","target":"x"}]}"#, #"{"type":"cancel","id":2}"#,
        ])
        #expect(transcript.error(1)?.string("field") == "commands[0]")
        #expect(transcript.error(2)?.string("field") == "target")
    }

    // MARK: §4.21 quit

    @Test("§4.21 quit: ended (quit, cutShort true away from the end screen), done, bye; exit 0")
    func quitReply() async throws {
        let transcript = try await EFB.run([#"{"type":"quit","id":1}"#])
        #expect(transcript.types(1) == ["ended", "done", "bye"])
        #expect(transcript.last("ended", 1)?["cutShort"] == true)
        #expect(transcript.status == 0)
    }
}
