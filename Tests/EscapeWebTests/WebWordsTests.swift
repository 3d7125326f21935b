// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeWeb
import Testing

/// The page's key names, as the chapter pages say them in each language.
@Suite struct WebWordsTests {
    @Test func theEnglishPageNamesEveryKeyItHasAndNoOther() {
        let keys = WebWords(locale: "en_GB.UTF-8").gestureKeys
        #expect(Set(keys.keys) == [.next, .previous, .activate, .adjust, .magicTap, .escape, .hint, .menu, .repeat])
        #expect(keys[.previous] == "Shift+Tab")
        #expect(keys[.magicTap] == "Control+Alt+M")
    }

    @Test func theFrenchPageNamesKeysAsAFrenchKeyboardDoes() {
        let keys = WebWords(locale: "fr_CA.UTF-8").gestureKeys
        #expect(keys[.previous] == "Maj+Tab")
        #expect(keys[.activate] == "Entrée")
        #expect(keys[.escape] == "Échap")
        #expect(keys[.repeat] == "Ctrl+Alt+R")
    }

    @Test func aLanguageTheGameDoesNotSpeakGetsEnglish() {
        #expect(WebWords(locale: "de_DE.UTF-8") == WebWords(.english))
        #expect(WebWords(locale: nil) == WebWords(.english))
    }
}
