// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

/// One reading of a locale name for every part of the game (issue 24: one locale parser).
struct LocaleLanguageTests {
    @Test(
        "A locale's language is its leading letters, lowercased",
        arguments: [
            ("fr", "fr"), ("FR", "fr"), ("fr-CA", "fr"), ("fr_FR.UTF-8", "fr"), ("fr_FR@euro", "fr"),
            ("en_GB.UTF-8", "en"), ("en", "en"), ("C.UTF-8", "c"), ("POSIX", "posix"), ("", ""),
            ("-fr", ""), ("français", "fran"),
        ]
    )
    func theLanguageIsTheLeadingLetters(locale: String, language: String) {
        #expect(LocaleLanguage.code(of: locale) == language)
    }

    @Test func theEnginesWordsPickByThatLanguage() {
        #expect(EngineWords(locale: "fr_FR@euro").language == .french)
        #expect(EngineWords(locale: "FR-ca").language == .french)
        #expect(EngineWords(locale: "fra").language == .english)
        #expect(EngineWords(locale: "C").language == .english)
    }
}
