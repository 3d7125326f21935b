// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Testing

/// §10 Versioning and compatibility.
@Suite struct S10VersioningTests {
    @Test("§10 hello says protocol 1, version and versions; a session speaks 1.0 until a hello agrees on 1.1")
    func versions() async throws {
        let transcript = try await EFB.run([#"{"type":"hello","id":1,"protocol":1}"#, EFB.hello11])
        #expect(transcript.events[0]["protocol"] == 1)
        #expect(transcript.events[0]["version"] == [1, 0])
        // Before, 1.2 was hidden until spoken, though the schema says every version the engine can speak.
        #expect(
            transcript.events[0]["versions"] == [[1, 0], [1, 1], [1, 2], [1, 3]],
            "every version, whichever is spoken"
        )
        #expect(transcript.last("hello", 1)?["version"] == [1, 0])
        #expect(transcript.last("hello", "h")?["version"] == [1, 1])
    }

    @Test(
        "§10 With no version in common the engine answers unsupported_protocol and carries on in the version it spoke"
    )
    func carriesOn() async throws {
        let transcript = try await EFB.run([
            EFB.hello11, #"{"type":"hello","id":2,"protocol":[2,0]}"#, #"{"type":"next","id":3}"#,
        ])
        #expect(transcript.error(2)?.string("code") == "unsupported_protocol")
        #expect(transcript.last("hello", 2)?["version"] == [1, 1])
        #expect(transcript.done(3) != nil)
        #expect(transcript.reply(to: 3).allSatisfy { $0["gen"] != nil })
    }

    @Test("§10 1.1 adds idle, elementChanged, timer, the time category, hints and onScreen; 1.0 gets none of them")
    func onlyIn11() async throws {
        let lines = [
            #"{"type":"goto","chapter":1,"level":5}"#,
            #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#, #"{"type":"wait","ms":20000}"#,
            #"{"type":"state"}"#,
        ]
        let v10 = try await EFB.play(at: "room-wheels", lines)
        let v11 = try await EFB.play(at: "room-wheels", [EFB.hello11] + lines)
        let text10 = String(decoding: v10.bytes, as: UTF8.self)
        let text11 = String(decoding: v11.bytes, as: UTF8.self)
        for marker in [#""type":"elementChanged""#, #""type":"timer""#, #""category":"time""#, #""onScreen""#] {
            #expect(!text10.contains(marker), "\(marker)")
            #expect(text11.contains(marker), "\(marker)")
        }
    }

    @Test("§10 1.2 adds chapterId to chapter and level screens, chapterId and chapters to progress; 1.1 has none")
    func onlyIn12() async throws {
        let lines = [
            #"{"type":"batch","id":"b","commands":[{"type":"escape"},{"type":"activate","element":"begin"}]}"#,
            #"{"type":"state","id":"s"}"#,
        ]
        let v11 = try await EFB.run([EFB.hello11] + lines)
        let v12 = try await EFB.run([#"{"type":"hello","id":"h","protocol":{"min":[1,0],"max":[1,2]}}"#] + lines)
        #expect(v12.last("hello", "h")?["version"] == [1, 2])
        #expect(v12.last("hello", "h")?["versions"] == [[1, 0], [1, 1], [1, 2], [1, 3]])
        #expect(v11.last("hello", "h")?["versions"] == [[1, 0], [1, 1], [1, 2], [1, 3]])
        let capabilities = v12.last("hello", "h")?["capabilities"]
        #expect(capabilities.map { "\($0)".contains("chapterIds") } == true)
        let screens = v12.events.filter { $0.type == "screen" && $0["replyTo"] != nil }
        #expect(screens.map { $0.string("kind") } == ["chapter", "level", "level"])
        #expect(screens.allSatisfy { $0.string("chapterId") == "cellar" })
        let progress = v12.events.last { $0.type == "progress" }
        #expect(progress?.string("chapterId") == "cellar")
        guard case .array(let chapters)? = progress?["chapters"] else {
            Issue.record("no chapters in 1.2 progress")
            return
        }
        #expect(chapters.count == 7)
        #expect(chapters.first == ["completed": 0, "id": "cellar", "total": 4])
        let text11 = String(decoding: v11.bytes, as: UTF8.self)
        #expect(!text11.contains(#""chapterId""#) && !text11.contains(#""chapters""#))
        try EFB.expectValid(v12.bytes)
    }

    @Test("§10 1.3 adds range to adjustable elements and adjust first and last; 1.2 has neither")
    func onlyIn13() async throws {
        let lines = [
            #"{"type":"adjust","id":1,"element":"left-wheel","direction":"last"}"#,
            #"{"type":"adjust","id":2,"element":"left-wheel","direction":"increment"}"#,
            #"{"type":"adjust","id":3,"direction":"first"}"#,
            #"{"type":"state","id":4}"#,
        ]
        let v12 = try await EFB.play(at: "room-wheels", [#"{"type":"hello","id":"h","protocol":[1,2]}"#] + lines)
        let v13 = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"hello","id":"h","protocol":{"min":[1,0],"max":[1,3]}}"#] + lines
        )
        #expect(v13.last("hello", "h")?["version"] == [1, 3])
        #expect(v13.last("hello", "h")?["capabilities"].map { "\($0)".contains("ranges") } == true)
        #expect(v12.last("hello", "h")?["capabilities"].map { "\($0)".contains("ranges") } == false)
        // 1.3: the last value, one step up wraps to the first; the first again changes nothing, and says it.
        let changed: [Event] = v13.events.filter { $0.type == "elementChanged" }.compactMap {
            if case .object(let element)? = $0["element"] { element } else { nil }
        }
        #expect(changed.map { $0["value"] } == ["9", "0"])
        #expect(changed.map { $0["range"] } == [["count": 10, "position": 10], ["count": 10, "position": 1]])
        #expect(v13.reply(to: 3).filter { $0.type == "announce" }.map { $0["text"] } == ["0"])
        let screen = try #require(v13.reply(to: 4).first { $0.type == "screen" })
        guard case .array(let elements)? = screen["elements"] else {
            Issue.record("no elements")
            return
        }
        let ranged: [JSONValue?] = elements.compactMap {
            if case .object(let element) = $0, element["range"] != nil { element["id"] } else { nil }
        }
        #expect(ranged == ["left-wheel", "right-wheel"])
        // 1.2: first and last are a bad direction, refused; the step is taken; no range anywhere.
        for id: JSONValue in [1, 3] {
            #expect(v12.error(id)?.string("code") == "invalid_params")
            #expect(v12.error(id)?.string("field") == "direction")
            #expect(v12.error(id)?.string("message") == "direction must be increment or decrement")
        }
        #expect(v12.error(2) == nil)
        #expect(!String(decoding: v12.bytes, as: UTF8.self).contains(#""range""#))
        try EFB.expectValid(v13.bytes)
        try EFB.expectValid(v12.bytes)
    }

    @Test("§3 In every version the opening ends with its progress; the first reply comes after it")
    func theOpeningEndsWithProgress() async throws {
        for hello in [
            #"{"type":"hello","id":"h","protocol":1}"#, EFB.hello11, #"{"type":"hello","id":"h","protocol":[1,2]}"#,
            #"{"type":"hello","id":"h","protocol":[1,3]}"#,
        ] {
            let transcript = try await EFB.run([hello])
            let opening = transcript.events.prefix { $0["replyTo"] == nil }
            #expect(opening.last?.type == "progress")
            #expect(opening.dropLast().allSatisfy { $0.type != "progress" })
        }
    }

    @Test("§10 An unknown type is refused with unknown_command and nothing else happens")
    func unknownType() async throws {
        let transcript = try await EFB.run([#"{"type":"teleport","id":1,"to":"end"}"#, #"{"type":"ping","id":2}"#])
        #expect(transcript.types(1) == ["error", "done"])
        #expect(transcript.done(2)?["gen"] == 0)
    }
}
