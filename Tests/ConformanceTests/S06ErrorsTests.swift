// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

/// §6 Errors: the codes with their fields, replyTo on decoding errors, save errors, and the message language.
@Suite struct S06ErrorsTests {
    @Test(
        "§6 The code table: each code comes with its field (or none)",
        arguments: [
            (#"{"type":"fly","id":1}"#, "unknown_command", "type"),
            (#"{"type":"focus","id":1}"#, "invalid_params", "element"),
            (#"{"type":"input","text":"\#(String(repeating: "a", count: 1001))","id":1}"#, "input_too_long", "text"),
            (#"{"type":"rotor","direction":"next","id":1}"#, "not_now", nil),
            (#"{"type":"next","ifGen":5,"id":1}"#, "stale", "ifGen"),
            (#"{"type":"hello","protocol":2,"id":1}"#, "unsupported_protocol", "protocol"),
            (#"{"type":"restore","blob":"x","id":1}"#, "bad_snapshot", "blob"),
        ] as [(String, String, String?)]
    )
    func codeTable(line: String, code: String, field: String?) async throws {
        let transcript = try await EFB.run([line])
        let error = try #require(transcript.error(1))
        #expect(error.string("code") == code)
        #expect(error.string("field") == field)
        #expect(error.string("message")?.isEmpty == false)
    }

    @Test("§6 locked: goto a level not unlocked yet, no field")
    func lockedCode() async throws {
        let transcript = try await EFB.run([#"{"type":"goto","chapter":2,"level":1,"id":1}"#])
        #expect(transcript.error(1)?.string("code") == "locked")
        #expect(transcript.error(1)?["field"] == nil)
    }

    @Test("§6 Decoding errors have replyTo only if the id could be read; the five syntax codes never have one")
    func decodingErrorsReplyTo() async throws {
        let transcript = try await EFB.run([
            #"{"id":"a","type":"ping"} x"#, #"["id"]"#, #"{"id":"b","type":"fly"}"#, #"{"id":"c","type":"focus"}"#,
        ])
        let errors = transcript.all("error")
        #expect(errors.map { $0["replyTo"] } == [nil, nil, "b", "c"])
    }

    @Test("§6 save_failed: right after the solving command's reply, without replyTo, then progress saved false")
    func saveFailed() async throws {
        let folder = try temporaryFolder("conf-fail")
        let save = folder.appendingPathComponent("progress.json")
        let game = try RunningEFB(
            ["pipe", "--seed", "1", "--clock", "virtual", "--adventure", EFB.lanternPath, "--save", save.path]
        )
        EFB.send(game, #"{"type":"ping","id":"ready"}"#)
        try game.waitForOutput(containing: #""replyTo":"ready""#)
        // The folder becomes a plain file: the save can neither be written nor its folder made again.
        try FileManager.default.removeItem(at: folder)
        try Data("x".utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        EFB.send(game, EFB.toFirstLevel[0], EFB.toFirstLevel[1], #"{"type":"activate","element":"warm-handle","id":1}"#)
        EFB.send(game, #"{"type":"ping","id":"after"}"#)
        try game.waitForOutput(containing: #""replyTo":"after""#)
        let events = try EFB.events(game)
        let done = try #require(events.firstIndex { $0.type == "done" && $0["replyTo"] == 1 })
        try #require(events.count > done + 2)
        #expect(events[done + 1].type == "error")
        #expect(events[done + 1].string("code") == "save_failed")
        #expect(events[done + 1]["replyTo"] == nil)
        #expect(events[done + 2].type == "progress")
        #expect(events[done + 2]["saved"] == false)
        #expect(events[done + 2]["replyTo"] == nil)
        #expect(events[..<done].last { $0.type == "progress" }?["saved"] == true)
        try EFB.finish(game)
    }

    @Test("§6 Messages are in the adventure's language, decoding errors included; code and field never change")
    func messageLanguage() async throws {
        let transcript = try await EFB.run(
            [#"{"type":"rotor","direction":"next","id":1}"#, #"{"type":"fly","id":2}"#],
            arguments: EFB.virtual + ["--locale", "fr"]
        )
        let french = try #require(transcript.error(1))
        #expect(french.string("code") == "not_now")
        #expect(french.string("message") != "the focused element has no rotor")
        #expect(transcript.error(2)?.string("message") == "commande inconnue «\u{00A0}fly\u{00A0}»")
        #expect(transcript.error(2)?.string("code") == "unknown_command")
    }
}
