// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeTestSupport
import Foundation
import Testing

/// Issue 23, items 12 and 13: Escape, Ctrl-C and Ctrl-D at a real terminal (tmux), as a shell has them.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalKeysTests {
    @Test func escapeDoesNotSwallowTheEnterAfterIt() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.write("4")
        try terminal.press("Escape")
        try terminal.press("Enter")
        try terminal.waitFor("4 of 4: Your answer, empty, text field")
    }

    /// A key read in parts never holds the game (issue 24, one loop).
    ///
    /// Escape waits for the key it goes with, and the first byte of a character for the rest, without
    /// the loop waiting with them, so the time left is still said meanwhile. Before, libedit's reader
    /// waited inside the loop.
    @Test(arguments: [(["1b"], ["0d"], "help, ?: this list."), (["c3"], ["bf", "0d"], "Unknown command \"ÿ\".")])
    func aKeyHalfReadNeverHoldsTheGame(first: [String], rest: [String], answer: String) throws {
        // The guide's example: its last room has 75 s of torchlight, said at 60 s left.
        let file = packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path
        let adventure = try AdventureLoader.load(path: file)
        let game = try SavedGame(at: "room-wheels", of: adventure)
        let terminal = try TmuxTerminal(
            command: efbCommand("play --save '\(game.path)' --adventure '\(file)' --hint-interval 3600 --seed 1")
        )
        defer { terminal.stop() }
        try terminal.waitFor("This room is timed: 1 minute and 15 seconds.")
        if first == ["1b"] { try terminal.write("help") }
        try terminal.send(bytes: first)
        try terminal.waitFor("One minute of torchlight left.", seconds: 40)
        try terminal.send(bytes: rest)
        try terminal.waitFor(answer)
        try terminal.type("q")
        try terminal.waitFor("Goodbye.")
    }

    /// Ctrl-R does not start libedit's incremental search, which reads keys in a loop of its own (the
    /// game held meanwhile) and took minutes over a long pasted pattern: the line typed after it is the
    /// line entered.
    @Test func ctrlRStartsNoSearchThatHoldsTheGame() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.type("next")
        try terminal.waitFor("2 of 4")
        try terminal.press("C-r")
        try terminal.type("look")
        try terminal.waitFor("The Stone of Memory, 4 items:")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.")
    }

    /// Keys with Shift, Alt or Ctrl type nothing: Shift-Up typed "A", Shift-F5 "2~", Ctrl-Delete "5~".
    @Test func aModifiedKeyTypesNothing() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.write("lo")
        // Shift-Up, Shift-F5, Ctrl-Delete, Alt-PageUp and Ctrl-F12, as xterm sends them.
        for key in ["[1;2A", "[15;2~", "[3;5~", "[5;3~", "[24;5~"] {
            try terminal.send(bytes: ["1b"] + key.utf8.map { String($0, radix: 16) })
        }
        try terminal.type("ok")
        let lines = try terminal.waitFor("The Stone of Memory, 4 items:")
        #expect(!lines.contains { $0.contains("Unknown command") || $0.contains("~") }, "\(lines)")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.")
    }

    @Test func ctrlCClearsAHalfTypedLineAndQuitsOnAnEmptyOne() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.write("half typed")
        try terminal.press("C-c")
        try terminal.type("4")
        let lines = try terminal.waitFor("4 of 4: Your answer, empty, text field")
        #expect(!lines.contains { $0.contains("half typed4") || $0.contains("Goodbye.") })
        try terminal.press("C-c")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
    }

    @Test func ctrlDOnAnEmptyLineLeavesNoCaretD() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.press("C-d")
        let lines = try terminal.waitFor("Goodbye.", "[exited with status 0]")
        #expect(!lines.contains { $0.contains("^D") })
    }
}
