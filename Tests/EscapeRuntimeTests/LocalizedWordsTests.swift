// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

/// With `--locale fr`, the built efb says none of its own words in English: not the labels of the
/// gestures it lists, not the message of any error, from the decoder, the core or the runtime.
@Suite struct LocalizedWordsTests {
    /// Words of the engine's English that French never uses; a French message holding one is not French.
    static let englishWords: Set<String> = [
        "the", "is", "not", "no", "nothing", "here", "must", "between", "and", "does", "has", "yet", "already",
        "increment", "decrement", "next", "previous", "item", "cannot", "could", "focused", "this", "was", "be",
        "been", "of", "its", "it", "game", "new",
    ]

    /// The letters-only words of `text`, lower-cased.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter }.map(String.init)
    }

    /// One efb run's errors and labels.
    struct Run {
        var errors: [(code: String, message: String)] = []
        var labels: [String: [String]] = [:]
    }

    /// Runs `efb pipe` in `locale` with `lines`, from `save` when given (a file of that content).
    static func run(_ locale: String, _ lines: [String], save: String? = nil) throws -> Run {
        try run(locale, lines.map { Array($0.utf8) }, save: save)
    }

    /// Runs `efb pipe` in `locale` with `lines` of any bytes, from `save` when given.
    static func run(_ locale: String, _ lines: [[UInt8]], save: String? = nil) throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["pipe", "--locale", locale, "--seed", "1", "--clock", "virtual"]
        if let save {
            let file = folder.appendingPathComponent("progress.json")
            try Data(save.utf8).write(to: file)
            arguments += ["--save", file.path]
        } else {
            arguments.append("--memory-save")
        }
        let input = lines.flatMap { $0 + [UInt8(ascii: "\n")] }
        let result = try runEFB(arguments, input: input)
        #expect(result.status == 0, "\(result.stderr)")
        var run = Run()
        for event in try Support.events(result.stdout) {
            if event["type"] == "error", case .string(let code) = event["code"],
                case .string(let message) = event["message"]
            {
                run.errors.append((code, message))
            }
            if event["type"] == "validActions", case .string(let screen) = event["screen"],
                case .array(let actions) = event["actions"]
            {
                run.labels[screen] = actions.compactMap { action in
                    guard case .object(let fields) = action, case .string(let label) = fields["label"] else {
                        return nil
                    }
                    return label
                }
            }
        }
        return run
    }

    /// Runs `lines` in English and in French: the same errors, each in its own language.
    static func compare(_ lines: [String], save: String? = nil, expecting codes: [String]) throws -> (Run, Run) {
        try compare(lines.map { Array($0.utf8) }, save: save, expecting: codes)
    }

    /// Runs lines of any bytes in English and in French: the same errors, each in its own language.
    static func compare(_ lines: [[UInt8]], save: String? = nil, expecting codes: [String]) throws -> (Run, Run) {
        let english = try run("en", lines, save: save)
        let french = try run("fr", lines, save: save)
        #expect(english.errors.map(\.code) == codes)
        #expect(french.errors.map(\.code) == codes)
        for (english, french) in zip(english.errors, french.errors) {
            #expect(english.message != french.message, "\(french.code) is not translated: \(french.message)")
        }
        return (english, french)
    }

    /// Expects `text` to hold none of ``englishWords``, apart from the protocol's own names in `wire`.
    static func expectFrench(
        _ text: String,
        wire: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // File paths (a temporary folder's random name may spell "be") are not words of the message.
        let withoutPaths = text.split(separator: " ").filter { !$0.contains("/") }.joined(separator: " ")
        let english = words(withoutPaths).filter { englishWords.contains($0) && !wire.contains($0) }
        #expect(english.isEmpty, "English in \"\(text)\": \(english)", sourceLocation: sourceLocation)
    }

    @Test func everyRefusalOfTheCoreAndTheSessionIsInFrench() throws {
        let lines = [
            #"{"type":"hello","id":"h","protocol":2}"#,
            #"{"type":"repeat","id":1}"#,
            #"{"type":"rotor","direction":"next","id":2}"#,
            #"{"type":"adjust","direction":"increment","id":3}"#,
            #"{"type":"input","text":"x","id":4}"#,
            #"{"type":"action","index":1,"id":5}"#,
            #"{"type":"menu","id":6}"#,
            #"{"type":"menu","id":7}"#,
            #"{"type":"goto","chapter":9,"level":1,"id":8}"#,
            #"{"type":"goto","chapter":1,"level":9,"id":9}"#,
            #"{"type":"goto","chapter":2,"level":1,"id":10}"#,
            #"{"type":"focus","element":"personne","id":11}"#,
            #"{"type":"escape","id":12}"#,
            #"{"type":"next","ifGen":0,"id":13}"#,
            #"{"type":"restore","blob":"abc","id":14}"#,
            #"{"type":"restore","blob":"efb-snapshot-1.AAAA","id":15}"#,
            #"{"type":"restore","blob":"efb-snapshot-1.e30K.0000000000000000","id":16}"#,
            #"{"type":"assistive","active":false,"id":17}"#,
            #"{"type":"magicTap","id":18}"#,
            #"{"type":"assistive","active":true,"id":19}"#,
            String(repeating: "x", count: 1_048_577),
            #"{"type":"quit","id":"q"}"#,
        ]
        let codes = [
            "unsupported_protocol", "not_now", "not_now", "not_now", "not_now", "not_now", "not_now",
            "invalid_params", "invalid_params", "locked", "invalid_params", "stale", "bad_snapshot", "bad_snapshot",
            "bad_snapshot", "not_now", "line_too_long",
        ]
        let (_, french) = try Self.compare(lines, expecting: codes)
        for error in french.errors { Self.expectFrench(error.message) }
    }

    @Test func theLabelsAndRefusalsOfEachLevelKindAreInFrench() throws {
        let save =
            #"{"adventure":"escape-from-blindness","completed":["cellar-door","cellar-water","cellar-jars","#
            + #""cellar-stairs","stones-memory","stones-count","stones-light","stones-letters","vault-iron","#
            + #""vault-silver","workshop-forge","workshop-hatch"],"current":"locks-bell","format":1}"#
        let lines = [
            #"{"type":"hello","id":"h","protocol":1,"want":["validActions"]}"#,
            #"{"type":"goto","chapter":3,"level":1,"id":"rotor"}"#,
            #"{"type":"goto","chapter":4,"level":1,"id":"actions"}"#,
            #"{"type":"action","element":"bellows","index":9,"id":"index"}"#,
            #"{"type":"action","element":"bellows","name":"Voler","id":"name"}"#,
            #"{"type":"goto","chapter":5,"level":1,"id":"dials"}"#,
            #"{"type":"rotor","element":"left-wheel","direction":"next","id":"no-rotor"}"#,
            #"{"type":"quit","id":"q"}"#,
        ]
        let (english, french) = try Self.compare(
            lines,
            save: save,
            expecting: ["invalid_params", "invalid_params", "not_now"]
        )
        for error in french.errors { Self.expectFrench(error.message) }
        #expect(english.labels["level-locks-bell"]?.contains("Left wheel: increment") == true)
        #expect(
            french.labels["level-vault-iron"]?.filter { $0.contains("rotor") }
                == [
                    "rotor\u{00A0}: suivant", "élément du rotor\u{00A0}: suivant", "rotor\u{00A0}: précédent",
                    "élément du rotor\u{00A0}: précédent",
                ]
        )
        #expect(french.labels["level-workshop-forge"]?.contains("Soufflet\u{00A0}: Actionner") == true)
        #expect(french.labels["level-locks-bell"]?.contains("Roue de gauche\u{00A0}: vers le haut") == true)
        #expect(french.labels["level-locks-bell"]?.contains("Roue de gauche\u{00A0}: vers le bas") == true)
        for label in french.labels.values.joined() { Self.expectFrench(label) }
    }

    @Test func theSaveProblemsOfTheOpeningAreInFrench() throws {
        let quit = [#"{"type":"quit","id":"q"}"#]
        let newer = #"{"adventure":"escape-from-blindness","completed":[],"current":null,"format":3}"#
        let (_, french) = try Self.compare(quit, save: newer, expecting: ["save_unreadable"])
        for error in french.errors { Self.expectFrench(error.message) }
        // The reason a damaged file gives stays the save library's own words; the sentence around it is French.
        let (_, damaged) = try Self.compare(quit, save: "{", expecting: ["save_unreadable"])
        let message = try #require(damaged.errors.first?.message)
        #expect(message.hasPrefix("la sauvegarde (file "), "\(message)")
        #expect(message.contains("l'ancien fichier a été gardé sous le nom "), "\(message)")
    }

    @Test func everyLineTheDecoderRefusesIsAnsweredInFrench() throws {
        // The bad-input corpus gives a line of every class the decoder refuses.
        var lines = BadInputTests.corpus.filter { $0.code != nil && $0.code != "not_now" }.map(\.line)
        let codes = BadInputTests.corpus.compactMap { $0.code == "not_now" ? nil : $0.code }
        // And one of every other form of invalid_params: each kind of field, hello's versions, batches.
        let forms = [
            #"{"type":"adjust","direction":"up","id":1}"#,
            #"{"type":"next","id":[1]}"#,
            #"{"type":"next","id":1e300}"#,
            #"{"type":"action","id":2}"#,
            #"{"type":"assistive","active":null,"id":3}"#,
            #"{"type":"hello","protocol":1,"keys":{"a":1},"id":4}"#,
            #"{"type":"hello","protocol":1,"want":"x","id":5}"#,
            #"{"type":"hello","protocol":"1","id":6}"#,
            #"{"type":"hello","protocol":[],"id":7}"#,
            #"{"type":"hello","protocol":[1,2,3],"id":8}"#,
            #"{"type":"hello","protocol":{"min":[1,0]},"id":9}"#,
            #"{"type":"wait","ms":1.5,"id":10}"#,
            #"{"type":"batch","commands":{},"id":11}"#,
            #"{"type":"batch","commands":[7],"id":12}"#,
            #"{"type":"batch","commands":[{"type":"ping","id":1}],"id":13}"#,
            #"{"type":"batch","commands":[{"type":"restore","blob":""}],"id":14}"#,
            #"{"type":"batch","commands":[{"type":"goto","chapter":0,"level":1}],"id":15}"#,
            #"{"type":"batch","commands":[\#(Array(repeating: "{}", count: 1001).joined(separator: ","))],"id":16}"#,
        ]
        lines += forms.map { Array($0.utf8) } + [Array(#"{"type":"quit","id":"q"}"#.utf8)]
        let (_, french) = try Self.compare(
            lines,
            expecting: codes + Array(repeating: "invalid_params", count: forms.count)
        )
        // The wire values a message names stay as they are.
        for error in french.errors {
            Self.expectFrench(error.message, wire: ["next", "previous", "increment", "decrement"])
        }
    }
}
