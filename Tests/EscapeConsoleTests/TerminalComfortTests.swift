// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeTestSupport
import Foundation
import Testing

/// The console's comforts at a real terminal (tmux): its keys on chapter pages, `again` and `look`,
/// and doors that say what was tried.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalComfortTests {
    @Test func chapterPagesNameTheConsolesCommandsAndAgainRepeatsTheOpening() throws {
        let terminal = try TmuxTerminal(command: efbCommand("play --seed 1 --clock virtual --memory-save --locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.type("esc")
        try terminal.waitFor(
            "Your keys for this chapter: next: n, previous: p, activate: Enter or a, hint: h, level menu: m.",
            "1 of 3: Chapter 1: The Cellar of Echoes, heading"
        )
        // Nothing was said on this page yet: again gives its opening, not the last thing said elsewhere.
        try terminal.type("again")
        try terminal.waitFor("Chapter 1: The Cellar of Echoes, 3 items:", "3. Begin, button")
        try terminal.type("look")
        try terminal.waitFor(
            "Chapter 1: The Cellar of Echoes, 3 items:",
            "1 of 3: Chapter 1: The Cellar of Echoes, heading"
        )
        try terminal.type("a 3")
        try terminal.waitFor("1 of 6: The First Door, heading")
        try terminal.type("again")
        try terminal.waitFor("The First Door, 6 items:")
    }

    @Test func aTranscriptKeepsTheGameAsItWasPlayed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "efb-transcript-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("game.txt")
        let terminal = try TmuxTerminal(
            command: efbCommand(
                "play --seed 1 --clock virtual --memory-save --locale en --color --transcript '\(file.path)'"
            )
        )
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.type("n")
        try terminal.waitFor("2 of 3: You wake on cold stone.")
        try terminal.type("jump")
        try terminal.waitFor("Unknown command \"jump\".")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "Escape From Blindness")
        #expect(lines.contains("> n") && lines.contains("> jump") && lines.contains("> q"))
        #expect(lines.contains { $0.hasPrefix("2 of 3: You wake on cold stone.") })
        #expect(lines.last == "Goodbye.")
        #expect(!lines.contains { $0.contains("\u{1B}") }, "no colour in the transcript")
    }

    @Test func aTranscriptThatCannotBeWrittenIsSaid() throws {
        let terminal = try TmuxTerminal(
            command: efbCommand("play --memory-save --transcript /nonexistent/dir/game.txt")
        )
        defer { terminal.stop() }
        try terminal.waitFor("efb: cannot write the transcript /nonexistent/dir/game.txt:", "[exited with status 73]")
    }

    @Test func aTimedRoomSaysItsLimitWhatIsLeftAndCanBePlayedWithoutAClock() throws {
        let game = try SavedGame(at: "torch-frozen-door")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor(
            "This room is timed: 3 minutes. Type time to hear what is left, or clock off to play without a clock."
        )
        try terminal.type("wait 40")
        try terminal.type("time")
        try terminal.waitFor("2 minutes and 20 seconds of torchlight left.")
        try terminal.type("m")
        try terminal.waitFor("Level menu, ")
        try terminal.type("time")
        try terminal.waitFor("The clock is stopped: 2 minutes and 20 seconds of torchlight left.")
        try terminal.type("esc")
        try terminal.waitFor("1 of 5: The Frozen Door, heading")
        try terminal.type("clock off")
        try terminal.waitFor("No time pressure: the torch burns for as long as you need.")
        try terminal.type("time")
        try terminal.waitFor("No clock runs in this room.")
        try terminal.type("wait 600")
        try terminal.type("s")
        let after = try terminal.waitFor("Chapter 6, level 1.")
        #expect(!after.contains { $0.contains("torchlight left") || $0.contains("goes out") })
    }

    @Test func clockOffIsKeptForTheNextGame() throws {
        let game = try SavedGame(at: "torch-frozen-door")
        let kept = URL(fileURLWithPath: game.path).deletingLastPathComponent()
            .appendingPathComponent("console-preferences")
        do {
            let terminal = try TmuxTerminal(command: game.command("--locale en"))
            defer { terminal.stop() }
            try terminal.waitFor("This room is timed: 3 minutes.")
            try terminal.type("clock off")
            try terminal.waitFor("No time pressure: the torch burns for as long as you need.")
            try terminal.type("q")
            try terminal.waitFor("[exited with status 0]")
        }
        #expect(try String(contentsOf: kept, encoding: .utf8) == "time-pressure off\n")
        // The next game starts without a clock.
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        try terminal.waitFor("1 of 5: The Frozen Door, heading")
        try terminal.type("time")
        try terminal.waitFor("No clock runs in this room.")
        #expect(!terminal.lines().contains { $0.hasPrefix("This room is timed") })
        try terminal.type("clock on")
        try terminal.waitFor("Time pressure is back from the next room on.")
        try terminal.type("q")
        try terminal.waitFor("[exited with status 0]")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "time-pressure on\n")
    }

    /// Issue 23, item 6: each time left is a new line, and the half-typed line is drawn once below it
    /// (it used to be one line rewritten in place, the one-minute line erased by the next).
    @Test func theTimeLeftIsANewLineWhileThePlayerTypes() throws {
        // The guide's example: its last room has 75 s of torchlight, said at 60 s and 45 s left.
        let file = packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path
        let adventure = try AdventureLoader.load(path: file)
        let game = try SavedGame(at: "room-wheels", of: adventure)
        let terminal = try TmuxTerminal(
            command: efbCommand(
                "play --save '\(game.path)' --adventure '\(file)' --hint-interval 3600 --seed 1"
            )
        )
        defer { terminal.stop() }
        try terminal.waitFor("This room is timed: 1 minute and 15 seconds.")
        try terminal.write("hel")
        try terminal.waitFor("One minute of torchlight left.", seconds: 40)
        try terminal.waitFor("45 seconds of torchlight left.", seconds: 40)
        let screen = terminal.lines()
        #expect(
            Array(screen.suffix(3)) == ["One minute of torchlight left.", "45 seconds of torchlight left.", "> hel"]
        )
        #expect(screen.filter { $0.hasPrefix("> hel") }.count == 1, "no stale half-typed line")
        try terminal.write("p")
        try terminal.press("Enter")
        try terminal.waitFor("q, quit: stop playing. Progress is saved each time a door opens.")
        // After a command, the next time left is a line of its own again.
        try terminal.waitFor("30 seconds of torchlight left.", seconds: 40)
        #expect(terminal.lines().contains("help, ?: this list."))
        try terminal.type("q")
        try terminal.waitFor("Goodbye.")
    }

    @Test func aRotorDoorSaysTheCodeItWasTriedWith() throws {
        let game = try SavedGame(at: "vault-iron")
        let terminal = try TmuxTerminal(command: game.command("--locale en"))
        defer { terminal.stop() }
        let screen = try terminal.waitFor("Iron door, locked, button, with a rotor")
        let door = try #require(screen.last { $0.hasSuffix("Iron door, locked, button, with a rotor") })
        try terminal.type(String(door.prefix { $0 != "." }))
        try terminal.waitFor("Rotor Codes (1 of 2): 5 items, none chosen yet.")
        try terminal.type("down")
        try terminal.waitFor("Codes 1 of 5: 123")
        try terminal.type("a")
        try terminal.waitFor("Trying 123: wrong.")
        try terminal.type("down")
        try terminal.waitFor("Codes 2 of 5: 135")
        try terminal.type("a")
        try terminal.waitFor("Trying 135: right.", "The iron door gives way")
    }
}
