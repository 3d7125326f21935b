// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Testing

@testable import EscapeBraille

/// A contraction table of the tests' own: a few words become shorter groups of cells, every other
/// character one cell, so a test knows exactly which cell shows which letter.
struct FakeContractions: BrailleTranslator {
    static let words: [String: String] = ["the": "!", "and": "&", "answer": "ans"]

    var name: String { "fake" }
    var takesDots: Bool { false }

    func translate(_ text: [Character], style: BrailleStyle) -> BrailleText {
        guard style == .contracted else { return BrailleText(plain: text) }
        var parts: [BrailleText] = []
        var index = 0
        while index < text.count {
            var end = index
            while end < text.count, text[end].isLetter { end += 1 }
            if end > index, let cells = Self.words[String(text[index..<end])] {
                let source = Array(text[index..<end])
                parts.append(
                    BrailleText(
                        source: source,
                        cells: Array(cells),
                        cellOfSource: Array(repeating: 0, count: source.count) + [cells.count],
                        sourceOfCell: Array(repeating: 0, count: cells.count) + [source.count]
                    )
                )
                index = end
            } else {
                let plain = Array(text[index..<max(end, index + 1)])
                parts.append(BrailleText(plain: plain))
                index += plain.count
            }
        }
        return BrailleText.joined(parts)
    }

    func backTranslate(_ typed: [Character]) -> String { String(typed) }
}

@Suite struct TranslatedLayoutTests {
    private let text = FakeContractions().translate([("the cat and the dog sat", .contracted)])

    @Test func translatesWithBothMaps() {
        #expect(String(text.cells) == "! cat & ! dog sat")
        #expect(text.cellOfSource.prefix(9) == [0, 0, 0, 1, 2, 3, 4, 5, 6])
        #expect(text.sourceOfCell.prefix(8) == [0, 3, 4, 5, 6, 7, 8, 11])
        #expect(text.cellOfSource.last == text.cells.count && text.sourceOfCell.last == text.source.count)
    }

    @Test func wrapsOnCellCountsAtTheTextsWordBoundaries() {
        let layout = BrailleLayout(text, width: 9, rows: 1)
        #expect(layout.lines.map { String(text.cells[$0]) } == ["! cat & !", "dog sat"])
        // The same text untranslated takes a line more.
        #expect(BrailleLayout(text.source, width: 9, rows: 1).lines.count == 3)
    }

    @Test func routingLandsOnTheWordAndTheCaretOnItsCell() {
        let layout = BrailleLayout(text, width: 9, rows: 1)
        // The contracted "and" is cell 6; "dog" starts the second line.
        #expect(layout.offset(under: 6, window: 0, columns: 9) == 8)
        #expect(layout.offset(under: 8, window: 0, columns: 9) == 12)
        #expect(layout.offset(under: 0, window: 1, columns: 9) == 16)
        #expect(layout.cell(showing: 9, window: 0, columns: 9) == 6)
        #expect(layout.cell(showing: 14, window: 0, columns: 9) == 8)
        #expect(layout.cell(showing: 17, window: 1, columns: 9) == 1)
        #expect(layout.window(containing: 12) == 0 && layout.window(containing: 20) == 1)
    }

    @Test func routingInAFieldWithAContractedLabelPlacesTheCaret() throws {
        var game = try ViewHarness(chapter: 2, translator: FakeContractions())
        game.press(.command(.bottom))
        #expect(game.text == "Your ans:  edt 4/4")
        #expect(game.view.frame.cursor == 10)
        for character in "glass" { game.press(.character(character)) }
        #expect(game.text == "Your ans: glass edt 4/4")
        #expect(game.press(.route(cell: 12)).isEmpty)
        #expect(game.view.frame.cursor == 12)
        // On the contracted label: the caret goes to the start of the answer.
        #expect(game.press(.route(cell: 6)).isEmpty)
        #expect(game.view.frame.cursor == 10)
        #expect(game.press(.route(cell: 10)) == [.input(text: "glass", element: nil), .activate(element: nil)])
    }
}

#if Louis
@Suite struct LouisTranslatorTests {
    private let english: LouisTranslator
    private let french: LouisTranslator

    init() throws {
        english = try LouisTranslator(table: "en-ueb-g2")
        french = try LouisTranslator(table: "fr-bfu-g2.ctb")
    }

    @Test func translatesToDotsWithPositionMaps() {
        let text = english.translate(Array("the door is open"), style: .contracted)
        #expect(String(text.cells) == "⠮⠀⠙⠕⠕⠗⠀⠊⠎⠀⠕⠏⠢")
        // "the" is one cell: each of its letters maps to it, and it maps back to the "t".
        #expect(text.cellOfSource.prefix(5) == [0, 0, 0, 1, 2])
        #expect(text.sourceOfCell.prefix(3) == [0, 3, 4])
        // "en" of "open" is one cell too.
        #expect(text.cellOfSource[14] == 12 && text.cellOfSource[15] == 12)
    }

    @Test func translatesFrenchAbrege() {
        let text = french.translate(Array("la porte est ouverte"), style: .contracted)
        #expect(String(text.cells) == "⠄⠀⠏⠰⠞⠑⠀⠱⠀⠳⠧⠦⠞⠑")
        #expect(text.sourceOfCell[7] == 9)
    }

    /// French spacing's no-break space is a blank cell in abrégé, but no line breaks on it: the colon
    /// stays with its word, as on a page.
    @Test func aFrenchLineNeverStartsWithTheColonOfTheWordBefore() {
        let sentence = FrenchTypography.spaced("Ta réponse : la lumière revient ? Oui !")
        let text = french.translate(Array(sentence), style: .contracted)
        for width in 10...30 {
            let layout = BrailleLayout(text, width: width, rows: 1)
            for line in layout.lines where !line.isEmpty {
                let first = text.source[text.sourceOfCell[line.lowerBound]]
                #expect(![":", "?", "!", "\u{00A0}", "\u{202F}"].contains(first), "width \(width): \(layout.lines)")
            }
        }
        // Untranslated, the no-break space keeps its words together too.
        let plain = BrailleLayout(Array(sentence), width: 12, rows: 1)
        #expect(
            !plain.lines.contains {
                [":", "?", "!"].contains(sentence[sentence.index(sentence.startIndex, offsetBy: $0.lowerBound)])
            }
        )
    }

    @Test func keepsBlanksAroundAndTypedDotsAsTheyAre() {
        let text = english.translate(Array(" the ⠁⠃ "), style: .contracted)
        #expect(String(text.cells) == "⠀⠮⠀⠁⠃⠀")
        #expect(text.source.count == 8 && text.cellOfSource[5] == 3)
    }

    @Test func literalPiecesStayForBRLTTYsTextTable() {
        // Contracted, a position reads "#b_/#c"; literal it is the three characters BRLTTY shows.
        #expect(String(english.translate(Array("btn 2/3"), style: .contracted).cells) == "⠃⠞⠝⠀⠼⠃⠸⠌⠼⠉")
        #expect(String(english.translate(Array("btn 2/3"), style: .literal).cells) == "btn 2/3")
    }

    @Test(arguments: ["the door is open", "Your answer: glass", "Darkness falls and the knowledge returns"])
    func backTranslatesEnglish(_ text: String) {
        #expect(english.backTranslate(english.translate(Array(text), style: .contracted).cells) == text)
    }

    @Test(arguments: ["la porte est ouverte", "Votre réponse", "une lanterne dans la nuit"])
    func backTranslatesFrench(_ text: String) {
        #expect(french.backTranslate(french.translate(Array(text), style: .contracted).cells) == text)
    }

    @Test func backTranslatesOnlyTheDotsOfAMixedAnswer() {
        #expect(english.backTranslate(Array("⠮⠀⠙⠕⠕⠗ 42")) == "the door 42")
    }

    @Test func refusesAnUnknownTableNamingTheFolder() {
        #expect(throws: LouisTranslator.Failure.self) { try LouisTranslator(table: "no-such-table") }
        let failure = LouisTranslator.Failure.unknownTable("x", folder: LouisTranslator.tableFolder)
        #expect(failure.description.contains("liblouis/tables"))
    }

    @Test func autoPicksTheLanguagesContractedTable() {
        #expect(LouisTranslator.automaticTable(language: "en_GB.UTF-8") == "en-ueb-g2.ctb")
        #expect(LouisTranslator.automaticTable(language: "fr") == "fr-bfu-g2.ctb")
        #expect(LouisTranslator.automaticTable(language: "de") == nil)
    }

    @Test func rolesAndPositionsReadAsBefore() throws {
        var game = try ViewHarness(translator: english)
        // Role words as BRLTTY's text table shows them; positions in the table's number forms.
        #expect(game.text == "⠠⠙⠜⠅⠰⠎ hdr ⠼⠁⠸⠌⠼⠉")
        game.press(.command(.bottom))
        #expect(game.text == "⠠⠒⠞⠔⠥⠑ btn ⠼⠉⠸⠌⠼⠉")
    }

    @Test func routingOnAContractedLabelAndTheTypedAnswer() throws {
        var game = try ViewHarness(chapter: 2, translator: english)
        game.press(.command(.bottom))
        // "Your answer: " takes 11 cells, not 13: the caret is on cell 11.
        #expect(game.text == "⠠⠽⠗⠀⠁⠝⠎⠺⠻⠒⠀ edt ⠼⠙⠸⠌⠼⠙")
        #expect(game.view.frame.cursor == 11)
        for character in "glass" { game.press(.character(character)) }
        #expect(game.text == "⠠⠽⠗⠀⠁⠝⠎⠺⠻⠒⠀glass edt ⠼⠙⠸⠌⠼⠙")
        #expect(game.press(.route(cell: 13)).isEmpty)
        #expect(game.view.frame.cursor == 13)
        #expect(game.press(.route(cell: 5)).isEmpty)
        #expect(game.view.frame.cursor == 11)
        #expect(game.press(.route(cell: 11)) == [.input(text: "glass", element: nil), .activate(element: nil)])
    }

    @Test func typedDotsAreShownAsTypedAndBackTranslated() throws {
        var game = try ViewHarness(chapter: 2, translator: english)
        game.press(.command(.bottom))
        let dots = english.translate(Array("glass"), style: .contracted).cells
        for cell in dots {
            game.press(.dots(UInt8(cell.unicodeScalars.first!.value - 0x2800)))
        }
        #expect(game.text.hasPrefix("⠠⠽⠗⠀⠁⠝⠎⠺⠻⠒⠀" + String(dots) + " edt ⠼⠙⠸⠌⠼⠙"))
        #expect(game.press(.enter) == [.input(text: "glass", element: nil), .activate(element: nil)])
    }

    /// The story of the shipped adventure: intro, chapter descriptions, level texts and the ending.
    private func story(_ locale: String) throws -> [String] {
        let adventure = try AdventureLoader.bundled(locale: locale)
        let pages = adventure.intro + [adventure.ending]
        return pages.map(\.text) + adventure.chapters.map(\.description)
    }

    // Measured with liblouis 3.24: 3605 cells for 4584 characters in English (21% fewer), 3870 for
    // 5389 in French (28% fewer).
    @Test(arguments: [("en", "en-ueb-g2", 0.85), ("fr", "fr-bfu-g2", 0.8)])
    func contractedStoryTakesFewerCells(locale: String, table: String, ratio: Double) throws {
        let translator = try LouisTranslator(table: table)
        let texts = try story(locale)
        let characters = texts.map(\.count).reduce(0, +)
        let cells = texts.map { translator.translate(Array($0), style: .contracted).cells.count }.reduce(0, +)
        #expect(Double(cells) < Double(characters) * ratio, "\(cells) cells for \(characters) characters")
    }

    @Test(arguments: ["en", "fr"])
    func linesBreakOnlyAtTheStorysBlanks(locale: String) throws {
        let translator = locale == "en" ? english : french
        for page in try story(locale) {
            let text = translator.translate(Array(page), style: .contracted)
            let layout = BrailleLayout(text, width: 20, rows: 1)
            for line in layout.lines.dropFirst() where line.lowerBound > 0 {
                let blank = line.lowerBound - 1
                // A line starts after a blank cell that shows a blank of the text, or cuts a word
                // longer than the line.
                if BrailleText.isBlank(text.cells[blank]) {
                    #expect(text.source[text.sourceOfCell[blank]] == " ")
                } else {
                    let previous = layout.lines.first { $0.upperBound == line.lowerBound }
                    #expect(previous?.count == 20)
                }
            }
        }
    }

    @Test func playsInFrench() throws {
        let game = try ViewHarness(locale: "fr", translator: french)
        let position = String(french.translate(Array("1/3"), style: .contracted).cells)
        #expect(game.text.hasSuffix(" tit " + position))
    }

    // Issue 44, item 5: the role words are French, and a reader of abrégé reads each as the letters it
    // is. They go to BRLTTY's text table as letters; liblouis' fr-bfu-g2 reads those cells back. Before,
    // `btn` read back as "btenir".
    @Test func frenchRoleWordsReadBackAsThemselvesInAbrege() throws {
        let letters = try LouisTranslator(table: "fr-bfu-comp6.utb")
        let roles: [BrailleWords.Key] = [.button, .textField, .adjustable, .heading, .notEnabled, .action]
        for role in roles {
            let word = BrailleWords(.french)(role)
            let cells = letters.translate(Array(word), style: .contracted).cells
            #expect(french.backTranslate(cells) == word, "\(word): \(String(cells))")
        }
        #expect(french.backTranslate(letters.translate(Array("btn"), style: .contracted).cells) != "btn")
    }
}
#endif
