// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// `efb play` at a real terminal (tmux), typed at and read as a person would.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalPlayTests {
    /// The command line, every path quoted for `sh`.
    private static func efb(_ arguments: String) -> String {
        "'\(efbExecutable.path.replacingOccurrences(of: "'", with: #"'\''"#))' \(arguments)"
    }

    /// The number the listing gives the button labelled `label`.
    private static func number(of label: String, in lines: [String]) throws -> Int {
        let suffix = ". \(label), button"
        guard let line = lines.last(where: { $0.hasSuffix(suffix) }),
            let number = Int(line.dropLast(suffix.count))
        else { throw TmuxTerminal.Failure(description: "no button \"\(label)\" in:\n\(lines.joined(separator: "\n"))") }
        return number
    }

    @Test func theIntroAndTheWholeFirstChapter() throws {
        let terminal = try TmuxTerminal(command: Self.efb("play --seed 1 --clock virtual --memory-save --locale en"))
        defer { terminal.stop() }

        // The opening: the game's name, how to get help, the first screen listed and the focus.
        try terminal.waitFor(
            "Escape From Blindness",
            "Type help for the commands, or q to quit.",
            "Darkness, 3 items:",
            "3. Continue, button",
            "1 of 3: Darkness, heading"
        )
        try terminal.type("help")
        try terminal.waitFor(
            "n, next: move to the next item.",
            "magic: the magic tap. Here: Continue.",
            "esc, escape: the escape gesture. Here: Skip the introduction."
        )
        try terminal.type("jump")
        try terminal.waitFor("Unknown command \"jump\". Type help for the commands.")
        try terminal.type("nxt")
        try terminal.waitFor("Did you mean next?")

        // The introduction: read on, turn a page with the magic tap, skip the rest with escape.
        try terminal.type("n")
        try terminal.waitFor("2 of 3: You wake on cold stone.")
        try terminal.type("magic")
        try terminal.waitFor("How to play, 3 items:", "1 of 3: How to play, heading")
        try terminal.type("esc")
        try terminal.waitFor("Chapter 1: The Cellar of Echoes, 3 items:", "3. Begin, button")
        try terminal.type("l")
        try terminal.waitFor("3 of 3: Begin, button")
        try terminal.type("")

        // The First Door: a wrong answer picked by its number, then the right one found by stepping through.
        var screen = try terminal.waitFor("The First Door, 6 items:", "1 of 6: The First Door, heading")
        let moon = try Self.number(of: "The light of the moon", in: screen)
        try terminal.type("\(moon)")
        try terminal.waitFor("\(moon) of 6: The light of the moon, button")
        try terminal.type("a")
        try terminal.waitFor("Wrong.", "No moonlight reaches this deep. The door stays shut.")
        try terminal.type("f")
        try terminal.waitFor("1 of 6: The First Door, heading")
        var focus = ""
        for _ in 1..<6 where !focus.hasSuffix(": My other senses, button") {
            try terminal.type("n")
            focus = try terminal.waitFor(" of 6: ").last { $0.contains(" of 6: ") } ?? ""
        }
        #expect(focus.hasSuffix(": My other senses, button"))
        try terminal.type("")
        try terminal.waitFor(
            "Correct.",
            "The door swings open with a long, dry creak.",
            "Progress: 1 of 25 levels solved.",
            "The Singing Wall, 6 items:"
        )

        // The other three rooms, answered by number.
        screen = try terminal.waitFor("1 of 6: The Singing Wall, heading")
        try terminal.type("a \(try Self.number(of: "Running water", in: screen))")
        screen = try terminal.waitFor("Correct.", "You follow the sound of the water", "The Three Jars, 6 items:")
        try terminal.type("\(try Self.number(of: "The jar that smells of lamp oil", in: screen))")
        try terminal.waitFor(": The jar that smells of lamp oil, button")
        try terminal.type("activate")
        screen = try terminal.waitFor("The lamp catches with a soft pop.", "The Stair of Notes, 7 items:")
        try terminal.type("a \(try Self.number(of: "Lower than the third", in: screen))")
        try terminal.waitFor(
            "The fourth step hums a deep note, and a trapdoor above you lifts. The cellar lets you go.",
            "Progress: 4 of 25 levels solved.",
            "Chapter 2: The Hall of Speaking Stones, 3 items:"
        )

        // Chapter 2's first room: an answer typed straight into the text field, wrong then right.
        try terminal.type("magic")
        try terminal.waitFor("The Stone of Memory, 4 items:", "4. Your answer, empty, text field")
        try terminal.type("4")
        try terminal.waitFor("4 of 4: Your answer, empty, text field. Type your answer and press Enter.")
        try terminal.type("sand")
        try terminal.waitFor("Wrong.", "The stone stays silent.")
        try terminal.type("the glass")
        try terminal.waitFor("Correct.", "The stone sighs, satisfied, and rolls aside.", "The Counting Stone, 4 items:")

        try terminal.type("q")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
        let everything = terminal.lines().joined(separator: "\n")
        #expect(!everything.contains("{\""), "no protocol JSON on the screen")
        #expect(!everything.contains("\u{1B}"), "no escape codes on the screen")
    }

    @Test func plainEfbAtATerminalPlays() throws {
        let terminal = try TmuxTerminal(command: Self.efb("--memory-save --locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("Type help for the commands, or q to quit.", "1 of 3: Darkness, heading")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
    }
}
