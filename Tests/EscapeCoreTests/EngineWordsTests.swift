// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Testing

/// The engine's own words: every language has every sentence, with the same placeholders as English,
/// and an engine speaks its adventure's language.
struct EngineWordsTests {
    @Test(arguments: EngineWords.Language.allCases)
    func everyLanguageHasEverySentenceWithTheEnglishPlaceholders(language: EngineWords.Language) {
        let words = EngineWords(language)
        for key in EngineWords.Key.allCases {
            let sentence = words.template(key)
            #expect(!sentence.isEmpty, "\(language) \(key)")
            #expect(
                EngineWords.placeholders(in: sentence).sorted()
                    == EngineWords.placeholders(in: EngineWords.english.template(key)).sorted(),
                "\(language) \(key): \(sentence)"
            )
        }
    }

    @Test(arguments: EngineWords.Language.allCases)
    func everyPlaceholderIsAName(language: EngineWords.Language) {
        for key in EngineWords.Key.allCases {
            for name in EngineWords.placeholders(in: EngineWords(language).template(key)) {
                #expect(!name.isEmpty && name.allSatisfy(\.isLetter), "\(language) \(key): {\(name)}")
            }
        }
    }

    @Test func aPhraseSaysThePhrasesItHoldsInItsLanguage() {
        let inner = EngineWords.Phrase(.decodeWrongType, ["field": "ms"], phrases: ["expected": .init(.valueInteger)])
        var phrase = EngineWords.Phrase(.decodeInBatch, ["index": "2"], phrases: ["message": inner])
        phrase.values["found"] = "1.5"
        phrase.phrases["message"]?.values["found"] = "1.5"
        #expect(EngineWords.english.text(phrase) == "commands[2]: ms must be an integer, not 1.5")
        #expect(EngineWords(.french).text(phrase) == "commands[2]\u{00A0}: ms doit être un entier, pas 1.5")
        // A phrase wins over a value of the same name.
        let both = EngineWords.Phrase(
            .alternative,
            ["first": "x", "second": "y"],
            phrases: ["first": .init(.valueNull)]
        )
        #expect(EngineWords.english.text(both) == "null or y")
    }

    @Test func everyFrenchSentenceIsTranslated() {
        for key in EngineWords.Key.allCases {
            #expect(EngineWords(.french).template(key) != EngineWords.english.template(key), "\(key)")
        }
    }

    @Test(arguments: [
        ("fr", EngineWords.Language.french), ("fr-CA", .french), ("fr_FR.UTF-8", .french), ("FR", .french),
        ("en", .english), ("en-GB", .english), ("de", .english), ("C", .english), ("", .english),
    ])
    func aLocaleGetsItsLanguageOrEnglish(locale: String, language: EngineWords.Language) {
        #expect(EngineWords(locale: locale).language == language)
    }

    @Test func placeholdersAreFilledInOnePass() {
        let words = EngineWords.english
        #expect(
            words(.refusalNoElement, ["element": "{screen}", "screen": "menu"])
                == #"no element "{screen}" on screen menu"#
        )
        #expect(words(.refusalLevelLocked, ["chapter": "2"]) == "level 2.{level} is not unlocked yet")
        #expect(words(.labelRotorNext) == "rotor: next")
    }

    /// The fill reads the template's bytes; this reads its characters, as the fill once did: both
    /// agree on every template, braces unmatched, empty or nested, and braces followed by a
    /// combining accent, a joiner or a spacing mark (which make them no brace as characters count).
    private func fillByCharacters(_ template: String, _ values: [String: String]) -> String {
        guard !values.isEmpty else { return template }
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest.index(after: open)
            guard let close = rest[after...].firstIndex(of: "}"), let value = values[String(rest[after..<close])] else {
                result += rest[...open]
                rest = rest[after...]
                continue
            }
            result += rest[..<open]
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    @Test func placeholdersAreFilledAsCharacterByCharacter() {
        let pieces = [
            "{", "}", "{a}", "{b}", "{é}", "{}", "é", "a", "🔦", " ", "{a", "b}", "{{a}}", "e\u{301}", "\u{301}",
            "\u{200D}", "\u{903}", "\u{301}a",
        ]
        let values = ["a": "A{b}", "b": "", "é": "È", "": "empty", "\u{301}a": "B", "a\u{301}": "C"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<20_000 {
            var template = ""
            for _ in 0..<Int(state % 8) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                template += pieces[Int(state % UInt64(pieces.count))]
            }
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            #expect(EngineWords.fill(template, values) == fillByCharacters(template, values), "\(template)")
        }
    }

    @Test func aFrenchEngineRefusesAndLabelsInFrench() throws {
        let adventure = try AdventureLoader.bundled(locale: "fr")
        var engine = Engine(adventure: adventure, progress: .fresh, now: 0)
        #expect(throws: CommandRefusal.self) { try engine.apply(.repeatAnnouncement, now: 0) }
        do {
            _ = try engine.apply(.goto(chapter: 2, level: 1), now: 0)
            Issue.record("a locked level was entered")
        } catch {
            #expect(error.code == .locked)
            #expect(error.message == "le niveau 2.1 n'est pas encore déverrouillé")
            #expect(error.reason == EngineWords.Phrase(.refusalLevelLocked, ["chapter": "2", "level": "1"]))
        }
    }
}
