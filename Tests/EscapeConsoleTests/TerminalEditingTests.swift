// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// Line editing at a real terminal (tmux): libedit's keys, history, and messages that come while typing.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalEditingTests {
    private static let play = efbCommand("play --seed 1 --clock virtual --memory-save --locale en")

    @Test func theArrowsRecallTheHistoryAndCtrlAAndCtrlEGoToEitherEnd() throws {
        let terminal = try TmuxTerminal(command: Self.play)
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.type("help")
        try terminal.waitFor("q, quit: stop playing. Progress is saved each time a door opens.")
        try terminal.type("n")
        try terminal.waitFor("2 of 3: You wake on cold stone.")
        // Up twice: the line before the last one; then edit it in the middle and at both ends.
        try terminal.write("")
        try terminal.press("Up")
        try terminal.waitFor("> n")
        try terminal.press("Up")
        try terminal.waitFor("> help")
        try terminal.press("Left")
        try terminal.write("X")
        try terminal.press("C-a")
        try terminal.write("Y")
        try terminal.press("C-e")
        try terminal.write("Z")
        try terminal.waitFor("> YhelXpZ")
        try terminal.press("Enter")
        try terminal.waitFor("Unknown command \"YhelXpZ\". Type help for the commands.")
        // Down past the newest line gives an empty one back.
        try terminal.write("")
        try terminal.press("Up", "Down")
        try terminal.write("n")
        try terminal.press("Enter")
        try terminal.waitFor("3 of 3: Continue, button")
    }

    @Test func aKeysEscapeSequenceIsNeverText() throws {
        let terminal = try TmuxTerminal(command: Self.play)
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.write("")
        try terminal.press("PageUp", "F5", "Home", "Delete", "Right", "F12", "Insert")
        try terminal.write("n")
        try terminal.press("Enter")
        let answer = try terminal.waitFor("2 of 3: You wake on cold stone.")
        #expect(!answer.contains { $0.contains("Unknown command") })
        let everything = terminal.lines()
        #expect(!everything.contains { $0.contains("\u{1B}") || $0.contains("[5~") || $0.contains("^[") })
        try terminal.type("q")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
    }

    @Test func aMessageWhileTypingLeavesTheHalfTypedLineBelowIt() throws {
        // A real clock: the first hint unlocks three seconds into the level, while "hel" waits for more.
        let terminal = try TmuxTerminal(
            command: efbCommand("play --seed 1 --memory-save --locale en --hint-interval 3")
        )
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.enterTheFirstDoor()
        try terminal.write("hel")
        try terminal.waitFor("A new hint is ready. Ask for it whenever you like.")
        try terminal.waitFor("> hel")
        let screen = terminal.lines()
        let notice = try #require(screen.lastIndex { $0.hasPrefix("A new hint is ready.") })
        #expect(screen[(notice + 1)...].map { $0.trimmingCharacters(in: .whitespaces) } == ["> hel"])
        // The line is still the one being edited: finishing it runs help.
        try terminal.write("p")
        try terminal.press("Enter")
        try terminal.waitFor("q, quit: stop playing. Progress is saved each time a door opens.")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
    }
}
