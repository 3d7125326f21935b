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
