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
