// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Foundation
import Testing

/// The core's answer folding gives what Foundation's folding gives, wherever players type.
struct AnswerFoldingTests {
    /// Foundation's folding, which the core's replaces.
    private static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Every text a player may have to type or choose in a shipped adventure: accepted answers of
    /// open questions, answer labels, codes, dial values and action names.
    private static func shippedAnswers() throws -> [String] {
        var answers: [String] = []
        for locale in ["en", "fr"] {
            let adventure = try AdventureLoader.bundled(locale: locale)
            for level in adventure.chapters.flatMap(\.levels) {
                switch level.puzzle.content {
                case let open as OpenQuestion: answers += open.accepted
                case let closed as ClosedQuestion: answers += closed.answers.map(\.label)
                case let rotor as RotorPuzzle: answers += rotor.codes
                case let dials as DialsPuzzle: answers += dials.dials.flatMap(\.values)
                case let actions as CustomActionPuzzle: answers += actions.objects.flatMap { $0.actions.map(\.name) }
                default: Issue.record("a level kind the test does not know: \(level.puzzle.kind)")
                }
            }
        }
        return answers
    }

    @Test func everyShippedAnswerFoldsAsWithFoundation() throws {
        let answers = try Self.shippedAnswers()
        #expect(answers.count > 100)
        #expect(answers.contains { $0.unicodeScalars.contains { $0.value > 0x7F } })
        for answer in answers {
            #expect(AnswerFolding.fold(answer) == Self.foundation(answer), "\(answer)")
            let decomposed = answer.decomposedStringWithCanonicalMapping
            #expect(AnswerFolding.fold(decomposed) == Self.foundation(decomposed), "\(answer), decomposed")
            let shouted = answer.uppercased()
            #expect(AnswerFolding.fold(shouted) == Self.foundation(shouted), "\(shouted)")
        }
    }

    @Test(arguments: [
        "ÉLÈVE", "Élève", "ÇA", "À LA", "CAFÉ", "Noël", "NAÏVE", "Ÿ", "ÅNGSTRÖM", "ÑANDÚ",
        "E\u{301}le\u{300}ve", "CAFE\u{301}", "n\u{303}", "a\u{30A}\u{301}", "i\u{307}",
        "Ｃａｆé", "ＬＡＭＰＥ！", "１２３", "～ｔｉｌｄｅ～",
        "œuvre", "ŒUVRE", "Cœur", "æther", "ÆSIR", "Straße", "STRASSE", "ẞ", "ﬁn", "ﬂeur", "ſ", "ŉ", "µ",
        "İstanbul", "Łódź", "ØRESUND", "Þorn", "ÐAÐ", "Ĳssel", "Đorđe", "Ħal", "ı",
        "l'huile à lampe", "  Le   Verre  ", "", "42",
    ])
    func trickyInputsFoldAsWithFoundation(input: String) {
        #expect(AnswerFolding.fold(input) == Self.foundation(input))
    }

    @Test func everyLatin1AndLatinExtendedALetterFoldsAsWithFoundation() {
        for value in UInt32(0x20)...0x17F where !(0x7F...0x9F).contains(value) {
            let text = String(Unicode.Scalar(value)!)
            #expect(AnswerFolding.fold(text) == Self.foundation(text), "U+\(String(value, radix: 16))")
        }
    }

    @Test func fullwidthFormsAndLigaturesFoldAsWithFoundation() {
        for value in Array(UInt32(0xFF01)...0xFF5E) + Array(0xFB00...0xFB06) {
            let text = String(Unicode.Scalar(value)!)
            #expect(AnswerFolding.fold(text) == Self.foundation(text), "U+\(String(value, radix: 16))")
        }
    }

    @Test func everyCombiningDiacriticOnALetterIsDropped() {
        for mark in UInt32(0x300)...0x36F {
            for base in ["a", "E", "o", "U", "z"] {
                let text = base + String(Unicode.Scalar(mark)!)
                #expect(AnswerFolding.fold(text) == Self.foundation(text), "\(base) U+\(String(mark, radix: 16))")
                #expect(AnswerFolding.fold(text) == base.lowercased())
            }
        }
    }

    @Test func typedAnswersMatchWhateverTheirCaseAccentsAndWidth() {
        #expect(Engine.normalizedAnswer("  LA LUMIE\u{300}RE, du jour! ") == "la lumiere du jour")
        #expect(Engine.normalizedAnswer("Ｌａ Ｌｕｍｉèｒｅ") == Engine.normalizedAnswer("la lumière"))
    }
}

/// The ASCII path of answer normalisation gives what the Unicode path gives.
struct ASCIIAnswerTests {
    @Test func everyASCIICharacterBetweenWordsIsTreatedAsUnicodeTreatsIt() throws {
        for value in UInt8(0)..<128 {
            let character = String(UnicodeScalar(value))
            for text in [
                character, "ab" + character + "Cd", character + "x", "x" + character, "1" + character + character + "2",
            ] {
                let fast = try #require(Engine.asciiNormalizedAnswer(text), "U+\(String(value, radix: 16))")
                #expect(fast == Engine.unicodeNormalizedAnswer(text), "\(text.debugDescription)")
            }
        }
    }

    @Test func randomASCIITextsAreNormalizedAsUnicodeDoes() throws {
        var random = SeededGenerator(seed: 29)
        let alphabet = Array((0..<128).map { Character(UnicodeScalar(UInt8($0))) })
        for _ in 0..<5000 {
            let length = Int.random(in: 0...24, using: &random)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            #expect(
                Engine.asciiNormalizedAnswer(text) == Engine.unicodeNormalizedAnswer(text),
                "\(text.debugDescription)"
            )
        }
    }

    @Test func textBeyondASCIIGoesThroughUnicode() {
        #expect(Engine.asciiNormalizedAnswer("lumière") == nil)
        #expect(Engine.normalizedAnswer("LUMIÈRE!") == "lumiere")
    }
}
