// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeRuntime
import Testing

/// The runtime's own words (issue 24, words per layer): every language has every sentence, translated,
/// with the same placeholders as English.
struct SessionWordsTests {
    @Test(arguments: EngineWords.Language.allCases)
    func everyLanguageHasEverySentenceWithTheEnglishPlaceholders(language: EngineWords.Language) {
        let words = SessionWords(language)
        for key in SessionWords.Key.allCases {
            let sentence = words.template(key)
            #expect(!sentence.isEmpty, "\(language) \(key)")
            let names = EngineWords.placeholders(in: sentence)
            #expect(names.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isLetter) }, "\(language) \(key): \(sentence)")
            #expect(
                names.sorted() == EngineWords.placeholders(in: SessionWords.english.template(key)).sorted(),
                "\(language) \(key): \(sentence)"
            )
        }
    }

    @Test func everyFrenchSentenceIsTranslated() {
        for key in SessionWords.Key.allCases {
            #expect(SessionWords(.french).template(key) != SessionWords.english.template(key), "\(key)")
        }
    }

    @Test func placeholdersAreFilledInOnePass() {
        #expect(
            SessionWords.english(.errorNoWaitToCancel, ["target": "{limit}", "limit": "9"])
                == "no real-clock wait with the id {limit} is pending"
        )
        #expect(SessionWords(.french)(.errorTooManyClients, ["limit": "8"]).hasPrefix("cette partie a déjà 8 clients"))
    }
}
