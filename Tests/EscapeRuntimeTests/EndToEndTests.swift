// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeProtocol
import EscapeTestSupport
import Foundation
import Testing

/// The built `efb` executable, driven through its pipe like any client would.
struct EndToEndTests {
    @Test func theExecutablePlaysTheWholeGameAndEveryLineValidates() throws {
        let commands = try Array(Data(contentsOf: Support.examples.appendingPathComponent("full-game.commands.ndjson")))
        let result = try runEFB(["pipe", "--seed", "1", "--clock", "virtual", "--memory-save"], input: commands)
        #expect(result.status == 0, "\(result.stderr)")
        let golden = try Array(Data(contentsOf: Support.examples.appendingPathComponent("full-game.transcript.ndjson")))
        #expect(result.stdout == golden)
        let events = try Support.events(result.stdout)
        #expect(events.contains { $0["type"] == "screen" && $0["kind"] == "end" })
        let validation = try Support.validate("events", result.stdout)
        #expect(validation.ok, "\(validation.report)")
        let commandValidation = try Support.validate("commands", commands)
        #expect(commandValidation.ok, "\(commandValidation.report)")
    }

    @Test func theExampleTranscriptsInProtocolValidate() throws {
        let folder = Support.examples
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let bytes = try Array(Data(contentsOf: folder.appendingPathComponent(name)))
            let kind =
                name.hasSuffix(".commands.ndjson") ? "commands" : name.hasSuffix(".transcript.ndjson") ? "events" : nil
            guard let kind else { continue }
            let validation = try Support.validate(kind, bytes)
            #expect(validation.ok, "\(name): \(validation.report)")
        }
    }

    @Test func validateReportsEveryProblemWithItsPath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = packageRoot.appendingPathComponent("Sources/EscapeContent/Adventures/en.json")
        var text = try String(contentsOf: good, encoding: .utf8)
        text = text.replacingOccurrences(of: #""answer": "135""#, with: #""answer": "999""#)
        text = text.replacingOccurrences(of: #""id": "stones-count""#, with: #""id": "stones-memory""#)
        let broken = folder.appendingPathComponent("broken.json")
        try text.write(to: broken, atomically: true, encoding: .utf8)
        let result = try runEFB(["validate", good.path, broken.path], input: [])
        #expect(result.status == 1)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("en.json: ok (7 chapters, 25 levels"))
        #expect(
            result.stderr.contains(
                "broken.json: $.chapters[2].levels[0].puzzle.answer: \"999\" is not one of the codes"
            )
        )
        #expect(result.stderr.contains("broken.json: $.chapters[1].levels[1].id: duplicate level id \"stones-memory\""))

        let wrongType = folder.appendingPathComponent("type.json")
        try text.replacingOccurrences(of: #""hints": ["#, with: #""hints": 3, "x": ["#).write(
            to: wrongType,
            atomically: true,
            encoding: .utf8
        )
        let typed = try runEFB(["validate", wrongType.path], input: [])
        #expect(typed.stderr.contains("type.json: $.chapters[0].levels[0].hints: expected an array"), "\(typed.stderr)")
    }

    @Test func aBrokenAdventureStopsThePipeWithAPlainMessage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("adventure.json")
        try Data(#"{"format":1}"#.utf8).write(to: file)
        let result = try runEFB(["pipe", "--memory-save", "--adventure", file.path], input: [])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("adventure.json: $: missing required key"))
    }
}

/// Many commands written at once are answered in order, each settled by its own done.
@Suite struct PipeliningTests {
    @Test func pipelinedCommandsAreAnsweredInOrder() throws {
        var input: [UInt8] = []
        let gestures = ["next", "previous", "last", "first", "ping", "state"]
        for number in 0..<2000 {
            input += Array(#"{"type":"\#(gestures[number % gestures.count])","id":\#(number)}"#.utf8) + [10]
        }
        let result = try runEFB(["pipe", "--clock", "virtual", "--memory-save"], input: input)
        #expect(result.status == 0)
        let dones = try Support.events(result.stdout).filter { $0["type"] == "done" }
        #expect(dones.map { $0["replyTo"] } == (0..<2000).map { JSONValue.int($0) })
    }
}
