// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// The defects of issue 14, each at a real terminal (tmux), as a player met it.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalDefectTests {
    @Test func theListingShowsWhatAnActionDid() throws {
        let game = try SavedGame(at: "workshop-forge")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("3. Bellows, not handled yet, button, with actions", "1 of 5: The Cold Forge, heading")
        try terminal.type("3")
        try terminal.waitFor("3 of 5: Bellows, not handled yet, button")
        try terminal.type("action 1")
        try terminal.waitFor("Air rushes into the forge.")
        try terminal.type("list")
        try terminal.waitFor("3. Bellows, Pump, button, with actions", "3 of 5: Bellows, Pump, button")
    }

    @Test func theListingShowsWhereADialWasTurned() throws {
        let game = try SavedGame(at: "locks-bell")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("4. Left wheel, 0, adjustable")
        try terminal.type("4")
        try terminal.waitFor("4 of 6: Left wheel, 0, adjustable")
        try terminal.type("+")
        try terminal.type("+")
        try terminal.waitFor("2")
        try terminal.type("list")
        try terminal.waitFor("4. Left wheel, 2, adjustable", "4 of 6: Left wheel, 2, adjustable")
    }

    @Test func theListingShowsTheFieldAfterAWrongAnswer() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("4. Your answer, empty, text field")
        try terminal.type("4")
        try terminal.waitFor("4 of 4: Your answer, empty, text field")
        try terminal.type("sand")
        try terminal.waitFor("Wrong.")
        try terminal.type("list")
        let listed = try terminal.waitFor("4. Your answer, ")
        let item = listed.last { $0.hasPrefix("4. Your answer, ") } ?? ""
        let focus = listed.last { $0.hasPrefix("4 of 4: Your answer, ") } ?? ""
        #expect(item.dropFirst("4. ".count) == focus.dropFirst("4 of 4: ".count).prefix(item.count - "4. ".count))
    }

    @Test func replayAsksBeforeErasingProgress() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.type("replay")
        try terminal.waitFor(
            "Starting over erases your progress. Type yes to start over, or anything else to keep playing."
        )
        try terminal.type("no")
        try terminal.waitFor("Your progress is kept.")
        try terminal.type("s")
        try terminal.waitFor("Chapter 2, level 1. 4 of 25 levels solved.")
        try terminal.type("replay")
        try terminal.waitFor("Starting over erases your progress.")
        try terminal.type("yes")
        try terminal.waitFor("A new game begins. Your earlier progress has been cleared.", "1 of 3: Darkness, heading")
    }

    @Test func playAgainAsksBeforeErasingAFinishedGame() throws {
        let game = try SavedGame(at: nil)
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        let screen = try terminal.waitFor("The Open Sky, ")
        let button = try #require(screen.last { $0.hasSuffix(". Play again, button") })
        try terminal.type("a \(button.prefix { $0 != "." })")
        try terminal.waitFor("Starting over erases your progress.")
        try terminal.type("n")
        try terminal.waitFor("Your progress is kept.")
        try terminal.type("magic")
        try terminal.waitFor("Starting over erases your progress.")
        try terminal.type("")
        try terminal.waitFor("Your progress is kept.")
        try terminal.type("s")
        try terminal.waitFor("25 of 25 levels solved.")
    }

    @Test func undoTakesBackTheLastMovesOfALevel() throws {
        let game = try SavedGame(at: "locks-bell")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("4. Left wheel, 0, adjustable")
        try terminal.type("undo")
        try terminal.waitFor("There is nothing to undo on this level.")
        try terminal.type("4")
        try terminal.type("+")
        try terminal.type("+")
        try terminal.type("list")
        try terminal.waitFor("4. Left wheel, 2, adjustable")
        try terminal.type("u")
        try terminal.waitFor("Undone: +.", "4 of 6: Left wheel, 1, adjustable")
        try terminal.type("undo")
        try terminal.waitFor("Undone: +.", "4 of 6: Left wheel, 0, adjustable")
        try terminal.type("u")
        try terminal.waitFor("There is nothing to undo on this level.")
        try terminal.type("list")
        try terminal.waitFor("4. Left wheel, 0, adjustable")
    }

    @Test func anUnknownLocaleIsSaidWithTheOnesThereAre() throws {
        let terminal = try TmuxTerminal(command: efbCommand("play --memory-save --clock virtual --locale de"))
        defer { terminal.stop() }
        try terminal.waitFor(
            "efb: there is no adventure in \"de\"; playing in English. Available: en, fr.",
            "1 of 3: Darkness, heading"
        )
        try terminal.type("q")
        try terminal.waitFor("[exited with status 0]")
        #expect(terminal.lines().filter { $0.contains("there is no adventure") }.count == 1)
    }
}

/// The command line of `efb` with `arguments`, every path quoted for `sh`.
func efbCommand(_ arguments: String) -> String {
    "'\(efbExecutable.path.replacingOccurrences(of: "'", with: #"'\''"#))' \(arguments)"
}

/// A save file on one level of the shipped adventure, every level before it solved; removed with the value.
final class SavedGame {
    let path: String
    private let folder: URL

    /// Writes a save whose current level is `level` of `adventure`; `nil` for a finished game.
    init(at level: String?, of adventure: Adventure = Support.adventure) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("progress.json").path
        let ids = adventure.chapters.flatMap(\.levels).map(\.id)
        let solved = Array(ids.prefix { $0 != level })
        let data = SaveData(adventureID: adventure.id, completed: solved, current: level)
        try Data(data.encoded()).write(to: URL(fileURLWithPath: path))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `efb play` on this save, with a virtual clock and `arguments`.
    func command(_ arguments: String) -> String {
        efbCommand("play --clock virtual --save '\(path)' \(arguments)")
    }
}
