// SPDX-License-Identifier: Apache-2.0
/// Text turned into the cells that show it, with the maps between the two.
///
/// A contracted word takes fewer cells than it has letters, so a character and a cell are no longer
/// the same index: ``cellOfSource`` finds the cell that shows a character (the caret's cell), and
/// ``sourceOfCell`` the character a cell shows (the word a routing key lands on).
package struct BrailleText: Sendable, Hashable {
    /// The text translated.
    package var source: [Character]
    /// One character per cell: U+28xx dot patterns after a translation, the text itself when BRLTTY's
    /// text table shows it.
    package var cells: [Character]
    /// For each character of ``source``, the first cell that shows it; one more entry, the end of the
    /// text, maps to ``cells``' count.
    package var cellOfSource: [Int]
    /// For each cell, the first character it shows; one more entry, past the last cell, maps to
    /// ``source``' count.
    package var sourceOfCell: [Int]

    /// Creates a translated text; the maps must have one entry more than their side of the text.
    package init(source: [Character], cells: [Character], cellOfSource: [Int], sourceOfCell: [Int]) {
        precondition(cellOfSource.count == source.count + 1 && sourceOfCell.count == cells.count + 1)
        self.source = source
        self.cells = cells
        self.cellOfSource = cellOfSource
        self.sourceOfCell = sourceOfCell
    }

    /// A text shown one character per cell (through BRLTTY's text table, as without a translator).
    package init(plain characters: [Character]) {
        let identity = Array(0...characters.count)
        self.init(source: characters, cells: characters, cellOfSource: identity, sourceOfCell: identity)
    }

    /// The texts one after the other, their maps shifted to match.
    package static func joined(_ parts: [BrailleText]) -> BrailleText {
        var source: [Character] = []
        var cells: [Character] = []
        var cellOfSource: [Int] = []
        var sourceOfCell: [Int] = []
        for part in parts {
            cellOfSource += part.cellOfSource.dropLast().map { $0 + cells.count }
            sourceOfCell += part.sourceOfCell.dropLast().map { $0 + source.count }
            source += part.source
            cells += part.cells
        }
        cellOfSource.append(cells.count)
        sourceOfCell.append(source.count)
        return BrailleText(source: source, cells: cells, cellOfSource: cellOfSource, sourceOfCell: sourceOfCell)
    }

    /// Whether `cell` is blank: a word boundary, where a line may break.
    static func isBlank(_ cell: Character) -> Bool { cell == " " || cell == "\u{2800}" }

    /// Whether `character` is a no-break space (U+00A0, U+202F, U+2007): a blank no line breaks on.
    static func isNoBreakSpace(_ character: Character) -> Bool {
        character == "\u{00A0}" || character == "\u{202F}" || character == "\u{2007}"
    }
}

/// How a piece of text is shown.
package enum BrailleStyle: Sendable, Hashable {
    /// Story, labels and messages: contracted when the table is (fewer cells, less panning).
    case contracted
    /// Role words, positions, numbers and typed answers: one cell per character, as BRLTTY's text
    /// table would show them, so `btn 2/3` never turns into contractions and number signs, and the
    /// caret is on the very character it stands at.
    case literal
}

/// Turns text into cells and typed cells back into text.
///
/// The default, ``PlainBrailleTranslator``, leaves text as it is for BRLTTY's text table, as the
/// game always did; `LouisTranslator` (with the Louis trait) translates with a liblouis table.
package protocol BrailleTranslator: Sendable {
    /// The table in words, for the terminal.
    var name: String { get }
    /// Whether cells typed as dots are taken as they are (and back-translated when the answer is sent).
    var takesDots: Bool { get }
    /// Translates `text` in `style`.
    func translate(_ text: [Character], style: BrailleStyle) -> BrailleText
    /// The text that the answer `typed` stands for: its dot patterns (U+28xx) back-translated, the
    /// other characters as they are.
    func backTranslate(_ typed: [Character]) -> String
}

extension BrailleTranslator {
    /// Translates pieces of text, each in its own style, into one text.
    package func translate(_ pieces: [(text: String, style: BrailleStyle)]) -> BrailleText {
        BrailleText.joined(pieces.filter { !$0.text.isEmpty }.map { translate(Array($0.text), style: $0.style) })
    }
}

/// No translation: the text goes to BRLTTY, whose text table shows it (uncontracted).
package struct PlainBrailleTranslator: BrailleTranslator {
    /// Creates the plain translator.
    package init() {}

    /// BRLTTY's own text table.
    package var name: String { "BRLTTY's text table" }

    /// Typed dots arrive as characters through BRLTTY's text table.
    package var takesDots: Bool { false }

    /// The text itself, one character per cell, with the typographer's characters BRLTTY's text
    /// tables lack shown as the ones they have.
    package func translate(_ text: [Character], style: BrailleStyle) -> BrailleText {
        let identity = Array(0...text.count)
        return BrailleText(source: text, cells: text.map(Self.cell), cellOfSource: identity, sourceOfCell: identity)
    }

    /// The character BRLTTY's text tables show for `character`.
    ///
    /// Curly quotes, dashes and no-break spaces, which they lack (BRLTTY shows an 8-dot fallback cell
    /// such as ⢎ or ⢺ for them), become the straight quote, the hyphen and the space that read the
    /// same; any other character stays as it is. One character for one, so the caret and routing keys
    /// stay on the character they stand at.
    static func cell(_ character: Character) -> Character {
        switch character {
        case "\u{201C}", "\u{201D}", "\u{201E}", "\u{201F}": "\""
        case "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}": "'"
        case "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}": "-"
        case "\u{00A0}", "\u{202F}", "\u{2007}": " "
        default: character
        }
    }

    /// The typed text as it is.
    package func backTranslate(_ typed: [Character]) -> String { String(typed) }
}
