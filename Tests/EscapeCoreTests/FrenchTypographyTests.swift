// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeTestSupport
import Testing

/// French texts are set as French printers set them: a no-break space before `:` and inside « », a
/// narrow no-break space before `;`, `?` and `!`, so no line or Braille window starts with them.
@Suite struct FrenchTypographyTests {
    @Test func eachPunctuationGetsItsSpace() {
        #expect(FrenchTypography.spaced("Ici : la porte") == "Ici\u{00A0}: la porte")
        #expect(FrenchTypography.spaced("Prêt ? Oui ! Bon ; fini") == "Prêt\u{202F}? Oui\u{202F}! Bon\u{202F}; fini")
        #expect(FrenchTypography.spaced("le mot « lumière » ici") == "le mot «\u{00A0}lumière\u{00A0}» ici")
    }

    @Test func whatIsNotAPlainSpaceBeforePunctuationIsLeftAsItIs() {
        for text in ["12:30", "Ici: rien", "?", "", "a\u{00A0}: b", "fin.", "a\t: b"] {
            #expect(FrenchTypography.spaced(text) == text)
        }
        // Spacing twice changes nothing more.
        let once = FrenchTypography.spaced("Qui ? « Toi » : oui !")
        #expect(FrenchTypography.spaced(once) == once)
        #expect(FrenchSpacing.plainSpaces(in: once).isEmpty)
    }

    @Test func everyFrenchSentenceOfTheEngineIsSpaced() {
        let words = EngineWords(.french)
        let unspaced = EngineWords.Key.allCases.flatMap { FrenchSpacing.plainSpaces(in: words.template($0)) }
        #expect(unspaced.isEmpty, "\(unspaced)")
    }

    /// Every text of the shipped French adventure, as the loader gives it to the engine.
    @Test func theFrenchAdventureIsSpacedAsItIsLoaded() throws {
        let adventure = try AdventureLoader.bundled(locale: "fr")
        var texts: [String] = []
        collectStrings(adventure, into: &texts)
        #expect(texts.count > 300)
        // The file itself keeps the plain spaces its authors typed.
        #expect(texts.contains { $0.contains("\u{00A0}:") })
        let unspaced = texts.flatMap(FrenchSpacing.plainSpaces(in:))
        #expect(unspaced.isEmpty, "\(unspaced.prefix(10))")
    }

    /// Every string anywhere inside `value`.
    private func collectStrings(_ value: Any, into texts: inout [String]) {
        if let text = value as? String {
            texts.append(text)
            return
        }
        for child in Mirror(reflecting: value).children { collectStrings(child.value, into: &texts) }
    }
}
