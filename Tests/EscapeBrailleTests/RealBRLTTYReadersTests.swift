// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeTestSupport
import Foundation
import Testing

/// Issue 44, items 4 and 5, through a real BRLTTY: French readers get French role words, spacing and
/// terminal lines; typographer's characters show as cells BRLTTY's text table has; the level menu on
/// 20 cells reads the titles; a chosen custom action waits for the player.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYReadersTests {
    /// The cells of the display that show `word` (a word of the text BRLTTY was given, as it is), once
    /// BRLTTY has sent the dots of the frame that holds it.
    private func cells(of word: String, on display: VirtualDisplay) throws -> [Character] {
        let wanted = Array(" " + word + " ")
        func start(_ text: [Character]) -> Int? {
            text.indices.first { $0 + wanted.count <= text.count && Array(text[$0..<$0 + wanted.count]) == wanted }
        }
        try waitUntil(timeout: 30, "the dots of \(word)") { display.frame.flatMap { start($0.text) } != nil }
        let frame = try #require(display.frame)
        let index = try #require(start(frame.text))
        return Array(frame.dots[(index + 1)..<(index + 1 + word.count)])
    }

    /// The cells of the display with dot 8.
    ///
    /// Dot 8 is in BRLTTY's fallback for a character its text table lacks (⢎ ⢞ ⢺ for curly quotes and
    /// dashes); its capitals have dot 7 alone. No cursor is shown here.
    private func fallbackCells(_ display: VirtualDisplay) -> [Character] {
        (display.frame?.dots ?? []).filter { ($0.unicodeScalars.first.map { $0.value - 0x2800 } ?? 0) & 0x80 != 0 }
    }

    // Before: "btn" and "hdr" in French, "btn" reading back as "btenir" in abrégé; the terminal lines
    // BRLTTY shows before and beside the game in English.
    @Test func frenchReadersGetFrenchRoleWordsAndTerminalLines() async throws {
        try await onThreadOfItsOwn {
            let display = try VirtualDisplay()
            let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save", "--locale", "fr"])
            defer {
                game.stop()
                display.stop()
            }
            try waitUntil("the French waiting lines") { game.standardError.contains("En attente de BRLTTY") }
            #expect(game.standardError.contains("Le jeu démarre tout seul dès que BRLTTY répond\u{202F}; Ctrl+C"))
            try display.start()
            try display.waitFor(prefix: "Dans le noir tit 1/3", timeout: 15)
            try waitUntil("the connected line") { game.standardError.contains("Connecté à BRLTTY (40 cellules)") }
            try display.press("BOT") { $0.hasPrefix("Continuer bout 3/3") }
            #if Louis
            let abrege = try LouisTranslator(table: "fr-bfu-g2")
            #expect(abrege.backTranslate(try cells(of: "bout", on: display)) == "bout")
            #endif
        }
    }

    // Before: "No hint yet — wait a little." showed its dash as ⢤-like fallback cells (dot 8).
    @Test(arguments: [("en", "No hint yet - wait a little."), ("fr", "Pas encore d'indice - patiente un peu.")])
    func aDashShowsAsACellTheTextTableHas(locale: String, message: String) async throws {
        try await onThreadOfItsOwn {
            let display = try VirtualDisplay()
            try display.start(columns: 80)
            let game = try brailleGame(
                host: display.brlapiHost,
                arguments: ["--memory-save", "--locale", locale, "--hint-interval", "3600"]
            )
            defer {
                game.stop()
                display.stop()
            }
            let words = ShownWords.of(locale: locale)
            try display.waitFor(prefix: locale == "fr" ? "Dans le noir" : "Darkness", timeout: 15)
            // The three pages of the introduction, then the chapter's page.
            for _ in 0..<4 {
                try display.press("BOT") { $0.contains(" \(words.button) 3/3") }
                let shown = display.text
                try display.press("ROUTE 1") { $0 != shown }
            }
            try display.press("CSRTRK") { $0.hasPrefix(message) }
            // The dots BRLTTY sent for the message itself (they come after its text).
            try waitUntil(timeout: 30, "the dots of the message") {
                display.frame.map { String($0.text).hasPrefix(message) } ?? false
            }
            #expect(fallbackCells(display).isEmpty, "\(String(display.dots))")
        }
    }

    // Before: at 20 cells every level of the menu read "Level 1.1: The" and a locked one "locked btn dim".
    @Test func theLevelMenuOnTwentyCellsReadsTheTitles() async throws {
        try await onThreadOfItsOwn {
            let display = try VirtualDisplay()
            try display.start(columns: 20)
            let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
            defer {
                game.stop()
                display.stop()
            }
            try display.waitFor(prefix: "Darkness", timeout: 15)
            // The menu opens on the level being played.
            try display.press("INFO") { $0.hasPrefix("The First Door,") }
            try display.press("FWINRT") { $0.hasPrefix("Level 1.1") }
            try display.press("LNDN") { !$0.hasPrefix("Level") && !$0.hasPrefix("The First Door") }
            var windows: [String] = [display.text]
            while !windows.joined(separator: " ").contains("btn") {
                let shown = display.text
                try display.press("FWINRT") { $0 != shown }
                windows.append(display.text)
            }
            let item = windows.joined(separator: " ")
            #expect(item.contains("locked btn") && !item.contains("dim"), "\(windows)")
        }
    }

    // Before: the action chosen with NXPROMPT was gone once the focus left the object and came back.
    @Test func aChosenActionWaitsOnItsObjectWhileThePlayerLooksAround() async throws {
        try await onThreadOfItsOwn {
            let folder = try temporaryFolder("kept-action")
            defer { try? FileManager.default.removeItem(at: folder) }
            let adventure = try RealBRLTTYTests.trimmedAdventure(chapter: 3, level: 0, in: folder)
            let display = try VirtualDisplay()
            try display.start(columns: 80)
            let game = try brailleGame(
                host: display.brlapiHost,
                arguments: ["--memory-save", "--adventure", adventure]
            )
            display.follow(game)
            defer {
                game.stop()
                display.stop()
            }
            try RealBRLTTYTests().enterTrimmedLevel(display, levelTitle: "The Cold Forge")
            try RealBRLTTYTests().focus(display, startingWith: "Bellows")
            try display.press("NXPROMPT") { $0.hasPrefix("Bellows: not handled yet; Pump act 1/2") }
            try display.press("LNDN") { !$0.hasPrefix("Bellows") }
            try display.press("LNUP") { $0.hasPrefix("Bellows") }
            #expect(display.text.hasPrefix("Bellows: not handled yet; Pump act 1/2"), "\(display.text)")
        }
    }
}
