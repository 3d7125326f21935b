// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import Testing

/// The decoder's failures are phrases of the engine's words: said in English they are the protocol's
/// sentences byte for byte, said in French they are whole French sentences.
struct DecoderWordsTests {
    /// The failure a line gets.
    private func failure(_ text: String) throws -> DecodingFailure {
        guard case .failure(let failure, _) = CommandDecoder.decode(Array(text.utf8)) else {
            throw DecodingAccepted(line: text)
        }
        return failure
    }

    private struct DecodingAccepted: Error {
        var line: String
    }

    /// One line of every form of message, with its English sentence as protocol 1.1 wrote it.
    static let samples: [(line: String, english: String)] = [
        ("{", "not valid JSON: expected a string key at byte 1"),
        (#"{"type":"next","type":"quit"}"#, #"not valid JSON: duplicate key "type" at byte 15"#),
        (String(repeating: "[", count: 100), "not valid JSON: nesting deeper than 64 levels at byte 64"),
        (#"{"a":01}"#, "not valid JSON: expected ',' or '}' at byte 6"),
        ("null", "a command is a JSON object, not a null"),
        ("[]", "a command is a JSON object, not an array"),
        (#"{"type":"dance"}"#, #"unknown command "dance""#),
        (#"{}"#, "missing required field type"),
        (#"{"type":null}"#, "type must be a string, not null"),
        (#"{"type":-2.5}"#, "type must be a string, not -2.5"),
        (#"{"type":"adjust","direction":"up"}"#, "direction must be increment or decrement or first or last"),
        (#"{"type":"wait","ms":-1}"#, "ms must be between 0 and 86400000"),
        (#"{"type":"goto","chapter":-1e300,"level":1}"#, "chapter must be at least 1"),
        (#"{"type":"goto","chapter":1e300,"level":1}"#, "chapter must be at most 9007199254740991"),
        (#"{"type":"goto","chapter":1.5,"level":1}"#, "chapter must be an integer, not 1.5"),
        (#"{"type":"next","id":1e300}"#, "id must be between -9007199254740991 and 9007199254740991"),
        (#"{"type":"next","id":[1]}"#, "id must be a string or an integer, not an array"),
        (#"{"type":"action"}"#, "action needs a name or an index"),
        (#"{"type":"hello","protocol":1,"keys":[]}"#, "keys must be an object of strings, not an array"),
        (#"{"type":"hello","protocol":1,"want":"x"}"#, "want must be an array of strings, not a string"),
        (
            #"{"type":"hello","protocol":"1"}"#,
            "protocol must be an integer, a [major, minor] pair, a list of pairs or a {min, max} object, not a string"
        ),
        (#"{"type":"hello","protocol":[]}"#, "protocol must list at least one version"),
        (#"{"type":"hello","protocol":[1]}"#, "protocol must be a [major, minor] pair, not 1 items"),
        (#"{"type":"hello","protocol":{"min":1,"max":[1,0]}}"#, "protocol.min must be a [major, minor] pair, not 1"),
        (
            #"{"type":"input","text":"\#(String(repeating: "a", count: 1001))"}"#,
            "text is 1001 characters (code points) long; the limit is 1000"
        ),
        (#"{"type":"batch","commands":{}}"#, "commands must be an array of objects, not an object"),
        (
            #"{"type":"batch","commands":[\#(Array(repeating: "{}", count: 1001).joined(separator: ","))]}"#,
            "a batch holds at most 1000 commands, not 1001"
        ),
        (#"{"type":"batch","commands":[true]}"#, "commands[0]: a batched command is a JSON object, not a boolean"),
        (
            #"{"type":"batch","commands":[{"type":"ping","id":1}]}"#,
            "commands[0]: a batched command carries no id: the batch's id is its replyTo"
        ),
        (
            #"{"type":"batch","commands":[{"type":"ping"},{"type":"cancel","target":1}]}"#,
            "commands[1]: a batch cannot hold hello, restore, cancel or another batch"
        ),
        (
            #"{"type":"batch","commands":[{"type":"batch","commands":[{"type":"dance"}]}]}"#,
            #"commands[0]: commands[0]: unknown command "dance""#
        ),
    ]

    @Test func englishFailuresAreTheProtocolsSentences() throws {
        for sample in Self.samples {
            let failure = try failure(sample.line)
            #expect(ProtocolError(failure, in: .english).message == sample.english, "\(sample.line.prefix(60))")
        }
        #expect(
            CommandDecoder.decode([0x7B, 0xFF, 0x7D])
                == .failure(DecodingFailure(.invalidUTF8, EngineWords.Phrase(.decodeInvalidUTF8)), replyTo: nil)
        )
    }

    /// Before protocol 1.3 `adjust` only steps: `first` and `last` are bad values, and a bad value names
    /// the two steps alone, as those versions always said, in a batch too.
    @Test func beforeThirteenABadDirectionNamesTheSteps() throws {
        for (line, english, field) in [
            (#"{"type":"adjust","direction":"up"}"#, "direction must be increment or decrement", "direction"),
            (#"{"type":"adjust","direction":"first"}"#, "direction must be increment or decrement", "direction"),
            (
                #"{"type":"adjust","element":"d","direction":"last"}"#, "direction must be increment or decrement",
                "direction"
            ),
            (
                #"{"type":"batch","commands":[{"type":"next"},{"type":"adjust","direction":"up"}]}"#,
                "commands[1]: direction must be increment or decrement", "commands[1].direction"
            ),
            (
                #"{"type":"batch","commands":[{"type":"next"},{"type":"adjust","direction":"first"}]}"#,
                "commands[1]: direction must be increment or decrement", "commands[1].direction"
            ),
        ] {
            guard case .failure(let failure, _) = CommandDecoder.steppingOnly(CommandDecoder.decode(Array(line.utf8)))
            else {
                Issue.record("\(line) is refused")
                continue
            }
            #expect(ProtocolError(failure, in: .english).message == english, "\(line)")
            #expect(failure.field == field, "\(line)")
        }
        // What steps, and other bad values, are as they were.
        let step = CommandDecoder.decode(Array(#"{"type":"adjust","direction":"increment","id":3}"#.utf8))
        #expect(CommandDecoder.steppingOnly(step) == step)
        let rotor = CommandDecoder.decode(Array(#"{"type":"rotor","direction":"first"}"#.utf8))
        #expect(CommandDecoder.steppingOnly(rotor) == rotor)
    }

    @Test func frenchFailuresAreWholeFrenchSentences() throws {
        for sample in Self.samples {
            let failure = try failure(sample.line)
            let english = ProtocolError(failure, in: .english)
            let french = ProtocolError(failure, in: EngineWords(.french))
            #expect(french.message != english.message, "\(french.message)")
            #expect(french.code == english.code && french.field == english.field)
            // Every placeholder is filled, nested phrases too; `{min, max}` is the shape of a value.
            let left = EngineWords.placeholders(in: french.message).filter { $0 != "min, max" }
            #expect(left.isEmpty, "\(french.message)")
        }
        let batched = try failure(#"{"type":"batch","commands":[{"type":"rotor","direction":"up"}]}"#)
        #expect(
            ProtocolError(batched, in: EngineWords(.french)).message
                == "commands[0]\u{00A0}: direction doit valoir next ou previous"
        )
        #expect(batched.field == "commands[0].direction")
        let json = try failure(#"{"a":1,"a":2}"#)
        #expect(
            ProtocolError(json, in: EngineWords(.french)).message
                == "JSON invalide\u{00A0}: clé «\u{00A0}a\u{00A0}» en double à l'octet 7"
        )
    }
}
