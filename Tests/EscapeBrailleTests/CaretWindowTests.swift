// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

@testable import EscapeBraille

/// The answer field's caret, and what was typed just before it, are on the display after every
/// keystroke, at every display size: the window follows the caret with the text before it, as BRLTTY
/// and NVDA do.
@Suite struct CaretWindowTests {
    /// The field as the view lays it out: label, typed text, role and position.
    static func layout(
        label: String,
        typed: String,
        caret: Int,
        width: Int,
        translator: some BrailleTranslator
    ) -> (BrailleLayout, Int) {
        let language: EngineWords.Language = label == "Ta réponse" ? .french : .english
        let prefix = label + BrailleWords(language)(.colon)
        let role = " " + BrailleWords(language)(.textField)
        let text = translator.translate([
            (prefix, .contracted), (typed, .literal), (role, .literal), (" ", .literal), ("4/4", .contracted),
        ])
        let offset = prefix.count + caret
        return (BrailleLayout(text, width: width, rows: 1, keeping: offset), offset)
    }

    /// The problems of one frame: the caret not shown, or typed characters before it left behind.
    static func problems(
        label: String,
        typed: String,
        caret: Int,
        width: Int,
        translator: some BrailleTranslator
    ) -> [String] {
        let (layout, offset) = layout(label: label, typed: typed, caret: caret, width: width, translator: translator)
        let window = layout.window(containing: offset)
        guard layout.cell(showing: offset, window: window, columns: width) != nil else {
            return ["\(width) cells, \(typed)|: the caret is not shown"]
        }
        // The characters of the word typed before the caret, as many as fit beside it (the caret takes
        // one cell); an earlier word may wrap as any text does.
        let typedBefore = Array(typed.prefix(caret))
        let wordStart = typedBefore.lastIndex { $0 == " " || $0 == "\u{2800}" }.map { $0 + 1 } ?? 0
        let before = min(typedBefore.count - wordStart, width - 1)
        let prefix = label.count + 2 + (label == "Ta réponse" ? 1 : 0)
        let hidden = ((offset - before)..<offset).filter { layout.window(containing: $0) != window }
        guard hidden.isEmpty else {
            let shown = String(layout.cells(window: window, columns: width))
            return [
                "\(width) cells, \(typed.prefix(caret))|: \(hidden.count) typed characters before the caret not shown: \"\(shown)\" (\(prefix))"
            ]
        }
        return []
    }

    @Test(arguments: [12, 20, 40])
    func typingAToZOneKeyAtATimeKeepsTheCaretAndWhatWasTyped(width: Int) {
        var problems: [String] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for label in ["Your answer", "Ta réponse"] {
            for count in 0...letters.count {
                let typed = String(letters.prefix(count))
                problems += Self.problems(
                    label: label,
                    typed: typed,
                    caret: count,
                    width: width,
                    translator: PlainBrailleTranslator()
                )
            }
            // Backspacing them away.
            for count in stride(from: letters.count, through: 0, by: -1) {
                let typed = String(letters.prefix(count))
                problems += Self.problems(
                    label: label,
                    typed: typed,
                    caret: count,
                    width: width,
                    translator: PlainBrailleTranslator()
                )
            }
        }
        #expect(problems.isEmpty, "\(problems.count) blind frames: \(problems.prefix(8))")
    }

    #if Louis
    /// With a contracted table: the label contracted, the answer typed as cells (a contracted word).
    @Test(arguments: [12, 20, 40], ["en-ueb-g2", "fr-bfu-g2"])
    func typingAContractedWordOneCellAtATimeKeepsTheCaretAndWhatWasTyped(width: Int, table: String) throws {
        let translator = try LouisTranslator(table: table)
        let label = table.hasPrefix("fr") ? "Ta réponse" : "Your answer"
        let word = String(translator.translate(Array("thunderstorm knowledge"), style: .contracted).cells)
        // a-z as their cells, as a Braille keyboard types them.
        let letters = String(
            RealBRLTTYCaretTests.letterDots.map { Character(Unicode.Scalar(0x2800 + UInt32($0)) ?? "\u{2800}") }
        )
        var problems: [String] = []
        for typed in [letters, word] {
            for count in 0...typed.count {
                problems += Self.problems(
                    label: label,
                    typed: String(typed.prefix(count)),
                    caret: count,
                    width: width,
                    translator: translator
                )
            }
        }
        #expect(problems.isEmpty, "\(problems.count) blind frames: \(problems.prefix(8))")
    }
    #endif
}
