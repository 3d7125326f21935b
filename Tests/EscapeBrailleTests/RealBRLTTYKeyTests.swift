// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeTestSupport
import Foundation
import Testing

/// Keys as BRLTTY names them, through a real BRLTTY: INFO ("enter/leave status display") opens the
/// level menu and a second INFO closes it; Home and End move the caret in the answer field; Escape
/// there keeps a typed answer; moving or panning past either end of a screen says so.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYKeyTests {
    /// The Stone of Memory (an answer field), its hints taken away, on a 40-cell display.
    private func withStoneOfMemory(_ body: (VirtualDisplay, RunningEFB) throws -> Void) throws {
        let folder = try temporaryFolder("keys")
        defer { try? FileManager.default.removeItem(at: folder) }
        let adventure = try RealBRLTTYTests.trimmedAdventure(chapter: 1, level: 0, in: folder) { $0["hints"] = [] }
        let display = try VirtualDisplay()
        try display.start()
        let game = try RunningEFB([
            "braille", "--host", display.brlapiHost, "--auth", "none", "--seed", "1", "--memory-save",
            "--flash-time", "0", "--adventure", adventure, "--trace",
        ])
        display.follow(game)
        defer {
            game.stop()
            display.stop()
        }
        try RealBRLTTYTests().enterTrimmedLevel(display, levelTitle: "The Stone of Memory")
        try body(display, game)
    }

    @Test func infoOpensTheLevelMenuAndASecondInfoClosesIt() async throws {
        try await onThreadOfItsOwn {
            try withStoneOfMemory { display, game in
                // The menu opens on the level being played.
                try display.press("INFO") { $0.hasPrefix("Level 1.1: The Stone of Memory: current") }
                // Before, the second INFO was refused: "the menu is already open".
                try display.press("INFO") { $0.hasPrefix("The Stone of Memory") }
                #expect(!game.standardError.contains("already open"), "\(game.standardError(last: 20))")
            }
        }
    }

    @Test func homeAndEndMoveTheCaretInTheAnswerField() async throws {
        try await onThreadOfItsOwn {
            try withStoneOfMemory { display, _ in
                let title = display.text
                try display.press("BOT") { $0 != title }
                try waitUntil(timeout: 30, "the answer field and its cursor") {
                    display.frame.map { VirtualDisplay.cursorCells($0.dots).count == 1 } ?? false
                }
                for letter in "abc" {
                    let shown = display.text
                    try display.press("PASSCHAR 0x" + String(letter.asciiValue ?? 0x61, radix: 16)) { $0 != shown }
                }
                let label = "Your answer: ".count
                func cursor() -> Int? { display.frame.flatMap { VirtualDisplay.cursorCells($0.dots).first } }
                try waitUntil(timeout: 30, "the cursor after abc") { cursor() == label + 3 }
                // Before, Home and End did nothing in the field.
                try display.press("KEY_HOME")
                try waitUntil(timeout: 30, "the cursor on the answer's first character") { cursor() == label }
                try display.press("KEY_END")
                try waitUntil(timeout: 30, "the cursor after the answer") { cursor() == label + 3 }
            }
        }
    }

    /// Moves to the answer field and types `text` one key at a time.
    private func typeAnswer(_ text: String, on display: VirtualDisplay) throws {
        let title = display.text
        try display.press("BOT") { $0 != title }
        try waitUntil(timeout: 30, "the answer field and its cursor") {
            display.frame.map { VirtualDisplay.cursorCells($0.dots).count == 1 } ?? false
        }
        for letter in text {
            let shown = display.text
            try display.press("PASSCHAR 0x" + String(letter.asciiValue ?? 0x61, radix: 16)) { $0 != shown }
        }
    }

    @Test func escapeInAnAnswerThatHoldsTextKeepsItAndAnEmptyOneOpensTheMenu() async throws {
        try await onThreadOfItsOwn {
            try withStoneOfMemory { display, _ in
                try typeAnswer("ab", on: display)
                // Before, Escape opened the level menu and the typed answer was out of reach.
                try display.press("KEY_ESCAPE") { $0.hasPrefix("Your answer is kept. INFO opens") }
                try display.press("KEY_END") { $0.hasPrefix("Your answer: ab") }
                for _ in 0..<2 {
                    let shown = display.text
                    try display.press("KEY_BACKSPACE") { $0 != shown }
                }
                #expect(display.text.hasPrefix("Your answer:") && !display.text.contains("ab"), "\(display.text)")
                // An empty answer: Escape backs out to the level menu, as on the rest of the level.
                try display.press("KEY_ESCAPE") { $0.hasPrefix("Level 1.1: The Stone of Memory: current") }
            }
        }
    }

    @Test func movingOrPanningPastEitherEndOfAScreenSaysSo() async throws {
        try await onThreadOfItsOwn {
            try withStoneOfMemory { display, _ in
                let title = display.text
                // Before, each of these left the display as it was: nothing said the end was reached.
                try display.press("LNUP") { $0.hasPrefix("First item.") }
                try display.press("FWINLT") { $0 == title }
                try display.press("FWINLT") { $0.hasPrefix("First item.") }
                try display.press("BOT") { $0.hasPrefix("Your answer:") }
                try display.press("LNDN") { $0.hasPrefix("Last item.") }
                try display.press("FWINRT") { $0.hasPrefix("Your answer:") }
                try display.press("FWINRT") { $0.hasPrefix("Last item.") }
            }
        }
    }
}
