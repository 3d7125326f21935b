// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeContent
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

    /// Time is phrased one way in each language: the adventure's announcements (minutes, the last
    /// minute, seconds), the console's answer to `time` and its countdown lines all say what is left
    /// of the torch's light in the same words.
    @Test(arguments: [("en", "of torchlight left."), ("fr", "de lumière à ta torche.")])
    func timeIsPhrasedOneWay(locale: String, phrase: String) throws {
        let messages = try AdventureLoader.bundled(locale: locale).messages
        let words = ConsoleWords(locale: locale)
        let sentences = [
            messages.timeLeftMinutes, messages.timeLeftOneMinute, messages.timeLeftSeconds,
            words(.timeLeft, ["time": words.duration(milliseconds: 90_000)]),
            words(.timeStopped, ["time": words.duration(milliseconds: 90_000)]),
            words.counting(1, one: .secondsLeftOne, many: .secondsLeftMany),
            words.counting(5, one: .secondsLeftOne, many: .secondsLeftMany),
        ]
        for sentence in sentences {
            #expect(sentence?.hasSuffix(phrase) == true, "\(locale): \(sentence ?? "missing")")
        }
    }
}
