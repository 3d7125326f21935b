// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// Issue 23, items 5 and 6: the game's own text wrapped between words at a real terminal (tmux), and a
/// timed room's last ten seconds said in words, at a pace a reader can follow.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalWrapTests {
    @Test(arguments: [
        ("en", "a bucket of coal and a barrel of water", "n"),
        ("fr", "un seau de charbon et un tonneau d'eau", "s"),
    ])
    func linesAreWrappedBetweenWordsToTheTerminalsWidth(locale: String, words: String, next: String) throws {
        let game = try SavedGame(at: "workshop-forge")
        let terminal = try TmuxTerminal(command: game.command("--locale \(locale)"), width: 60, height: 20)
        defer { terminal.stop() }
        try terminal.waitFor(locale == "en" ? "1 of " : "1 sur ")
        try terminal.type("n")
        // Rows the terminal wrapped itself come joined (capture-pane -J): each row must be the game's own.
        var lines = try terminal.waitFor("2 ")
        try expectWrapped(lines, width: 60, containing: words)
        // A narrower window (SIGWINCH) is followed from the next line on.
        try terminal.resize(width: 40, height: 20)
        try terminal.type("p")
        try terminal.waitFor("1 ")
        try terminal.type("n")
        lines = try terminal.waitFor("2 ")
        try expectWrapped(lines, width: 40, containing: words)
    }

    /// A window resized while a line is typed: the line editor learns the new width at once, so Home and
    /// a key write at the right place (libedit kept the old width, and wrote over the wrong row).
    @Test func aLineBeingTypedFollowsTheWindowsNewWidth() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"), width: 60, height: 20)
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        let typed = String(repeating: "abcde", count: 10)
        try terminal.write(typed)
        try terminal.waitFor("> " + typed)
        try terminal.resize(width: 30, height: 20)
        try terminal.press("Home")
        try terminal.write("Y")
        let expected = "> Y" + typed
        let shown = poll(seconds: 10) { terminal.lines().contains { $0.contains(expected) } }
        #expect(shown, "the line is not drawn whole after Home at the new width: \(terminal.lines().suffix(4))")
        try terminal.press("C-c")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.")
    }

    private func expectWrapped(_ lines: [String], width: Int, containing words: String) throws {
        let rows = lines.filter { !$0.hasPrefix(">") }
        #expect(rows.allSatisfy { $0.count <= width }, "rows wider than \(width): \(rows)")
        // Joined again with spaces, the rows hold every word whole.
        let joined = rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains(words), "\(rows)")
    }

    @Test(arguments: [
        (
            "en",
            [
                "10 seconds of torchlight left.", "5 seconds of torchlight left.", "3 seconds of torchlight left.",
                "1 second of torchlight left.",
            ], "9 seconds of torchlight left."
        ),
        (
            "fr",
            [
                "Il reste 10 secondes de lumière à ta torche.", "Il reste 5 secondes de lumière à ta torche.",
                "Il reste 3 secondes de lumière à ta torche.", "Il reste une seconde de lumière à ta torche.",
            ],
            "Il reste 9 secondes de lumière à ta torche."
        ),
    ])
    func theLastTenSecondsAreNewLinesWithWordsAtAReadablePace(locale: String, said: [String], unsaid: String) throws {
        let game = try SavedGame(at: "torch-frozen-door")
        let terminal = try TmuxTerminal(command: game.command("--locale \(locale)"))
        defer { terminal.stop() }
        try terminal.waitFor(locale == "en" ? "This room is timed: 3 minutes." : "1 sur ")
        try terminal.type("wait 179")
        let lines = try terminal.waitFor(said[3])
        for text in said { #expect(lines.contains(text), "\(lines)") }
        #expect(!lines.contains(unsaid))
        // No bare number stands on a line of its own.
        #expect(!lines.contains { Int($0.trimmingCharacters(in: .whitespaces)) != nil }, "\(lines)")
    }
}
