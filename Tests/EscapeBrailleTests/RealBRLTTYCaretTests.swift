// SPDX-License-Identifier: Apache-2.0
#if Louis
import EscapeBraille
import EscapeTestSupport
import Foundation
import Testing

/// The answer field through a real BRLTTY, as a Braille reader types: after every key, BRLTTY's cursor
/// (dots 7-8) is on the display with the last typed characters right before it, and a field that fits
/// the display is shown whole.
///
/// Every frame efb writes is checked, key by key: a-z typed one key at a time and erased with Backspace,
/// on 12, 20 and 40 cells, with BRLTTY's text table and contracted (en-ueb-g2, where a contracted word
/// is typed as its cells too).
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps"),
    .enabled(if: longDisplayTests, "the long display tests run with EFB_LONG_BRAILLE_TESTS=1 (scripts/test does)")
)
struct RealBRLTTYCaretTests {
    /// The dots of the letters a-z, as a Braille keyboard types them (PASSDOTS bits: dot n is bit n-1).
    static let letterDots: [Int] = [
        "1", "12", "14", "145", "15", "124", "1245", "125", "24", "245", "13", "123", "134", "1345", "135", "1234",
        "12345", "1235", "234", "2345", "136", "1236", "2456", "1346", "13456", "1356",
    ].map { $0.reduce(0) { $0 | 1 << (($1.wholeNumberValue ?? 1) - 1) } }

    @Test(arguments: [12, 20, 40], ["brltty", "en-ueb-g2"])
    func theCaretAndTheTextBeforeItShowAfterEveryKey(columns: Int, table: String) async throws {
        try await onThreadOfItsOwn { try typeAndErase(columns: columns, table: table) }
    }

    private func typeAndErase(columns: Int, table: String) throws {
        let folder = try temporaryFolder("caret")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The Stone of Memory, its hints taken away: no "A new hint is ready." comes over the field.
        let adventure = try RealBRLTTYTests.trimmedAdventure(chapter: 1, level: 0, in: folder) { $0["hints"] = [] }
        let translator = table == "brltty" ? nil : try LouisTranslator(table: table)
        let display = try VirtualDisplay()
        if let translator { display.reader = try ContractedReader(translator: translator, locale: "en").read }
        try display.start(columns: columns)
        let game = try RunningEFB([
            "braille", "--host", display.brlapiHost, "--auth", "none", "--seed", "1", "--memory-save",
            "--flash-time", "0", "--adventure", adventure, "--braille-table", table, "--trace",
        ])
        display.follow(game)
        defer {
            game.stop()
            display.stop()
        }
        try RealBRLTTYTests().enterTrimmedLevel(display, levelTitle: "The Stone of Memory")
        let title = display.text
        try display.press("BOT") { $0 != title }
        // The field is reached once BRLTTY shows its cursor: with a contracted table the text read back
        // can change before that (CI once checked a frame of the title, which has no cursor).
        try waitUntil(timeout: 30, "the answer field and its cursor") {
            display.frame.map { VirtualDisplay.cursorCells($0.dots).count == 1 } ?? false
        }

        // What the field's text is in cells: its label (contracted with a contracted table), then what
        // was typed, one cell a character.
        let label: [Character] =
            translator.map { $0.translate(Array("Your answer: "), style: .contracted).cells }
            ?? Array("Your answer: ")
        var keys: [(key: String, cell: Character?)]
        if let translator {
            let word = translator.translate(Array("thunderstorm"), style: .contracted).cells
            let letters = Self.letterDots.map { Character(Unicode.Scalar(0x2800 + UInt32($0)) ?? "\u{2800}") }
            keys = letters.map { (Self.passDots($0), $0) } + letters.map { _ in ("KEY_BACKSPACE", nil) }
            keys += word.map { (Self.passDots($0), $0) } + word.map { _ in ("KEY_BACKSPACE", nil) }
        } else {
            let letters = "abcdefghijklmnopqrstuvwxyz"
            keys = letters.map { ("PASSCHAR 0x" + String($0.asciiValue ?? 0x61, radix: 16), $0) }
            keys += letters.map { _ in ("KEY_BACKSPACE", nil) }
        }
        var typed: [Character] = []
        var blind: [String] = []
        _ = try check(display, game: game, label: label, typed: typed, columns: columns, blind: &blind)
        for (key, cell) in keys {
            if let cell { typed.append(cell) } else { typed.removeLast() }
            try press(key, on: display, game: game)
            _ = try check(display, game: game, label: label, typed: typed, columns: columns, blind: &blind)
        }
        let summary = "\(blind.count) blind keystrokes of \(keys.count) at \(columns) cells with \(table)"
        FileHandle.standardError.write(Data("RealBRLTTYCaretTests: \(summary)\n".utf8))
        #expect(blind.isEmpty, "\(summary): \(blind)")
    }

    static func passDots(_ cell: Character) -> String {
        "PASSDOTS \((cell.unicodeScalars.first?.value ?? 0x2800) - 0x2800)"
    }

    /// Presses `key` and waits until efb has read it and the display shows the frame it wrote for it
    /// (none when the key changed nothing on the display).
    private func press(_ key: String, on display: VirtualDisplay, game: RunningEFB) throws {
        let keys = game.standardError.components(separatedBy: " ms: key ").count
        let updates = display.frameCount
        let read = { game.standardError.components(separatedBy: " ms: key ").count > keys }
        try display.press(key)
        do {
            try waitUntil(timeout: 30, "efb to read \(key)", read)
        } catch {
            // A key BRLTTY lost on its way to efb (its trace shows no key; seen in a CI run on a loaded
            // machine) is pressed once more, as VirtualDisplay.press(_:until:) does; a second loss fails.
            FileHandle.standardError.write(Data("RealBRLTTYCaretTests: \(key) never reached efb: pressed again\n".utf8))
            try display.press(key)
            try waitUntil(timeout: 30, "efb to read \(key), pressed again", read)
        }
        // The frames efb wrote since it read the key; a key that changes nothing writes none. The display
        // must come to show the last of them: a key on a message ("Welcome back." after BRLTTY dropped the
        // connection on a loaded machine) takes it away and then does its own job, two frames, and CI once
        // waited 30 s for the first while the display rightly showed the second.
        let lastWritten = { () -> String? in
            let after = game.standardError.components(separatedBy: " ms: key ").last ?? ""
            return after.components(separatedBy: " ms: wrote ").dropFirst().last?
                .split(separator: "\n", maxSplits: 1).first.map(String.init)
        }
        guard poll(seconds: 1, until: { lastWritten() != nil }), let first = lastWritten() else { return }
        try waitUntil(timeout: 30, "the display to show what efb last wrote after \(key) (first: \"\(first)\")") {
            guard display.frameCount > updates, let frame = display.frame, let written = lastWritten() else {
                return false
            }
            return Self.trimmed(frame.text) == Self.trimmed(Array(written))
        }
    }

    private static func trimmed(_ cells: [Character]) -> [Character] {
        var cells = cells.map { $0 == "\u{2800}" ? " " : $0 }
        while cells.last == " " { cells.removeLast() }
        return cells
    }

    /// Checks the display after a key; returns the frame, as text with `|` for the cursor.
    ///
    /// BRLTTY's cursor on one cell, the last typed character right before it (a blind keystroke
    /// otherwise), what is before it the end of the field's text, and the field whole when it fits.
    private func check(
        _ display: VirtualDisplay,
        game: RunningEFB,
        label: [Character],
        typed: [Character],
        columns: Int,
        blind: inout [String]
    ) throws -> String {
        let frame = try #require(display.frame)
        let cursor = VirtualDisplay.cursorCells(frame.dots)
        var shown = frame.text
        if let first = cursor.first, first <= shown.count { shown.insert("|", at: first) }
        let picture = String(shown)
        let field = (label + typed).map { $0 == "\u{2800}" ? " " : $0 }
        guard cursor.count == 1, let at = cursor.first else {
            blind.append("after \(String(typed)): no cursor on \"\(picture)\"")
            return picture
        }
        let before = frame.text.prefix(at).map { $0 == "\u{2800}" ? " " : $0 }
        if let last = typed.last, before.last != last {
            blind.append("after \(String(typed)): \"\(picture)\"")
            return picture
        }
        #expect(field.suffix(before.count).elementsEqual(before), "not the field's end before the cursor: \(picture)")
        if field.count < columns {
            #expect(before.elementsEqual(field), "the field fits \(columns) cells but shows \"\(picture)\"")
        }
        // The window follows the caret with what was typed before it: the whole word, or as much of a
        // longer one as fits beside the cursor (before, a word longer than the display kept its fixed
        // break, and only 1-5 of its characters showed before the cursor).
        let wanted = min(typed.count, columns - 1)
        if !before.suffix(wanted).elementsEqual(typed.suffix(wanted).map { $0 == "\u{2800}" ? " " : $0 }) {
            blind.append("after \(String(typed)): \(wanted) typed cells wanted before the cursor: \"\(picture)\"")
        }
        return picture
    }
}
#endif
