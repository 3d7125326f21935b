// SPDX-License-Identifier: Apache-2.0
#if Louis
import EscapeBraille
import EscapeContent
import EscapeCore
import EscapeTestSupport
import Foundation
import Testing

extension RealBRLTTYTests {
    /// The whole game in contracted Braille: BRLTTY shows the dots efb sends, the test reads them
    /// back with the same table, and answers are typed as dots (PASSDOTS) that efb back-translates.
    ///
    /// Run by ``RealBRLTTYContractedGameTests``, beside the others.
    func playsTheWholeGameInContractedBraille(table: String, locale: String) throws {
        let translator = try LouisTranslator(table: table)
        let display = try VirtualDisplay()
        display.reader = try ContractedReader(translator: translator, locale: locale).read
        try display.start()
        display.strict = true
        let game = try brailleGame(
            host: display.brlapiHost,
            arguments: ["--memory-save", "--locale", locale, "--braille-table", table]
        )
        display.follow(game)
        defer {
            game.stop()
            display.stop()
        }
        do {
            try playAdventure(locale: locale, on: display, translator: translator)
        } catch {
            Issue.record("efb said on standard error (its last lines, traced): \(game.standardError(last: 60))")
            throw error
        }
        #expect(game.standardError.contains("Braille table: \(table).ctb"))
        // --trace (which every test game has) logs the keys, the messages and the frames in the order
        // they came, so a key that changed nothing can be told from one that never arrived.
        let trace = game.standardError.split(separator: "\n")
        let pressed = try #require(trace.firstIndex { $0.contains("ms: key ") && $0.contains("fullWindowRight") })
        #expect(trace[..<pressed].contains { $0.contains("ms: announce ") })
        #expect(trace[pressed...].contains { $0.contains("ms: wrote ") })
    }

    @Test func autoPicksTheGamesLanguageAndTheEnvironmentNamesATable() throws {
        let display = try VirtualDisplay()
        try display.start()
        defer { display.stop() }
        let french = try brailleGame(
            host: display.brlapiHost,
            arguments: ["--memory-save", "--locale", "fr", "--braille-table", "auto"]
        )
        defer { french.stop() }
        let abrege = try LouisTranslator(table: "fr-bfu-g2")
        let title = abrege.translate(Array("Dans le noir"), style: .contracted)
        let position = String(abrege.translate(Array("1/3"), style: .contracted).cells)
        try display.waitFor(timeout: 15, "the French title in abrégé") { _ in
            display.shown.hasPrefix(String(title.cells) + " tit " + position)
        }
        #expect(french.standardError.contains("Braille table: fr-bfu-g2.ctb"))
    }

    fileprivate func playAdventure(locale: String, on display: VirtualDisplay, translator: LouisTranslator) throws {
        let adventure = try AdventureLoader.bundled(locale: locale)
        let words = adventure.messages
        let shown = ShownWords.of(locale: locale)
        func heading(_ index: Int) -> String {
            Messages.format(words.chapterHeading, ["n": "\(index + 1)", "title": adventure.chapters[index].title])
        }
        let first = adventure.intro[0].title
        try display.waitFor(prefix: "\(first) \(shown.heading) 1/3", timeout: 15)
        // BRLTTY shows exactly the dots efb sent: the title contracted, the role and position as its
        // text table shows them (no number sign).
        let title = String(translator.translate(Array(first), style: .contracted).cells)
        try display.waitFor("the dots of the title") { _ in String(display.dots).hasPrefix(title) }
        // The position in the table's own number forms (UEB: the number sign), the role as it is.
        let position = String(translator.translate(Array("1/3"), style: .contracted).cells)
        #expect(display.shown == title + " \(shown.heading) " + position)

        // A heading too long for the display shows its start: that is what the test waits for.
        // Read back, the blank cell of a no-break space (French spacing) is a plain space.
        func header(_ title: String) -> String {
            String((title + " " + shown.heading).prefix(24).map { $0 == "\u{00A0}" || $0 == "\u{202F}" ? " " : $0 })
        }
        for index in adventure.intro.indices {
            let next = header(index + 1 < adventure.intro.count ? adventure.intro[index + 1].title : heading(0))
            try display.press("BOT") { $0.hasPrefix("\(words.continueButton) \(shown.button) 3/3") }
            try display.press("ROUTE 1") { $0.hasPrefix(next) }
        }
        for (chapterIndex, chapter) in adventure.chapters.enumerated() {
            try display.waitFor(prefix: header(heading(chapterIndex)))
            try display.press("BOT") { $0.hasPrefix("\(words.beginButton) \(shown.button) 3/3") }
            try display.press("ROUTE 1") { $0.hasPrefix(header(chapter.levels[0].title)) }
            for (levelIndex, level) in chapter.levels.enumerated() {
                let next =
                    levelIndex + 1 < chapter.levels.count
                    ? chapter.levels[levelIndex + 1].title
                    : chapterIndex + 1 < adventure.chapters.count ? heading(chapterIndex + 1) : adventure.ending.title
                try solve(level, on: display, words: shown) { answer in
                    try self.typeDots(answer, on: display, translator: translator)
                }
                try dismissMessages(display, until: header(next))
            }
        }
        try display.press("BOT") { $0.hasPrefix("\(words.replayButton) \(shown.button) 3/3") }
    }

    /// Types `answer` in contracted Braille: each cell as raw dots (PASSDOTS), as a Braille keyboard
    /// does when a contracted table is on.
    private func typeDots(_ answer: String, on display: VirtualDisplay, translator: LouisTranslator) throws {
        let cells = translator.translate(Array(answer), style: .contracted).cells
        for cell in cells {
            let bits = (cell.unicodeScalars.first?.value ?? 0x2800) - 0x2800
            let shown = display.shown
            try display.press("PASSDOTS \(bits)")
            // Generous: under AddressSanitizer, beside the whole suite on two cores, one key once took
            // more than 10 s to come back on the display (it passes alone in under two minutes).
            try display.waitFor(timeout: 30, "the dots typed") { _ in display.shown != shown }
        }
        // The field shows the dots as typed: they came as dots, not through BRLTTY's text table.
        #expect(display.shown.contains(String(cells)))
    }
}

/// Reads the display as a player would: the dots back-translated with the table.
///
/// Two things in liblouis' back-translation differ from the adventure's own spelling, and are put
/// back: its typographic apostrophe (’ for '), and the capitals of a word after an apostrophe
/// (French "L'EScalier" for "L'Escalier"), which take the spelling the adventure has.
struct ContractedReader: Sendable {
    let translator: LouisTranslator
    /// The adventure's words that have capitals, by their lowercase form.
    let spellings: [String: Set<String>]

    init(translator: LouisTranslator, locale: String) throws {
        self.translator = translator
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/EscapeContent/Adventures/\(locale).json")
        var strings: [String] = []
        func collect(_ value: Any) {
            if let string = value as? String { strings.append(string) }
            if let array = value as? [Any] { array.forEach(collect) }
            if let object = value as? [String: Any] { object.values.forEach(collect) }
        }
        collect(try JSONSerialization.jsonObject(with: Data(contentsOf: file)))
        var spellings: [String: Set<String>] = [:]
        // Only words with capitals: an odd capital is misread from one of them.
        for word in strings.flatMap({ $0.split(separator: " ") }) where word.contains(where: \.isUppercase) {
            spellings[word.lowercased(), default: []].insert(String(word))
        }
        self.spellings = spellings
    }

    func read(_ shown: String) -> String {
        let text = translator.backTranslate(Array(shown)).replacingOccurrences(of: "\u{2019}", with: "'")
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            let oddCapitals = word.dropFirst().contains(where: \.isUppercase) && word.contains(where: \.isLowercase)
            guard oddCapitals, let candidates = spellings[word.lowercased()] else { return String(word) }
            // The spelling whose capitals agree the most with what was read.
            func agreement(_ spelling: String) -> Int { zip(spelling, word).filter { $0 == $1 }.count }
            return candidates.max { (agreement($0), $1) < (agreement($1), $0) } ?? String(word)
        }.joined(separator: " ")
    }
}
#endif
