import EscapeConsole
import EscapeCore
import Testing

/// The console's catalogue: every language says every sentence, with the same placeholders.
struct ConsoleWordsTests {
    @Test(arguments: ConsoleWords.Language.allCases)
    func everyLanguageHasEverySentenceWithTheEnglishPlaceholders(language: ConsoleWords.Language) {
        let words = ConsoleWords(language)
        for key in ConsoleWords.Key.allCases {
            let sentence = words.template(key)
            #expect(!sentence.isEmpty, "\(language) \(key)")
            #expect(
                EngineWords.placeholders(in: sentence).sorted()
                    == EngineWords.placeholders(in: ConsoleWords(.english).template(key)).sorted(),
                "\(language) \(key)"
            )
        }
    }

    @Test func countsAndDurationsFollowTheLanguage() {
        let english = ConsoleWords(.english)
        let french = ConsoleWords(locale: "fr_FR.UTF-8")
        #expect(french.language == .french)
        #expect(ConsoleWords(locale: "de").language == .english)
        #expect(
            english.counting(0, one: .levelsSolvedOne, many: .levelsSolvedMany, ["total": "25"])
                == "0 of 25 levels solved."
        )
        #expect(
            french.counting(0, one: .levelsSolvedOne, many: .levelsSolvedMany, ["total": "25"])
                == "0 niveau résolu sur 25."
        )
        #expect(
            french.counting(2, one: .levelsSolvedOne, many: .levelsSolvedMany, ["total": "25"])
                == "2 niveaux résolus sur 25."
        )
        #expect(english.duration(milliseconds: 90_000) == "1 minute and 30 seconds")
        #expect(english.duration(milliseconds: 180_000) == "3 minutes")
        #expect(english.duration(milliseconds: 1) == "1 second")
        #expect(french.duration(milliseconds: 44_001) == "45 secondes")
        #expect(french.alternatives(["a", "b", "c"]) == "a, b ou c")
    }
}
