// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 23, item 1: long lines pasted at the prompt of a real terminal (tmux).
///
/// The libedit boundary's reproduction. libedit's readline emulation wrote through a stale pointer once a line passed 1,024
/// bytes: a segmentation fault for 1,000 × `é`, `malloc(): invalid next size` past ~5,150 ASCII bytes,
/// a game no longer answering for 3,000 mixed characters. Under AddressSanitizer in scripts/test too.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalLongLineTests {
    /// A pasted line, and what the game must answer to it.
    struct Paste: CustomStringConvertible, Sendable {
        let text: String
        let answer: String
        var description: String { "\(text.unicodeScalars.count) characters, \(text.utf8.count) bytes" }
    }

    static let pastes = [
        // 2,000 bytes: under the limit, an unknown command (named, not echoed in full).
        Paste(text: String(repeating: "é", count: 1000), answer: "Unknown command"),
        Paste(text: String(repeating: "a", count: 5200), answer: "That line is 5200 bytes long"),
        Paste(text: String(repeating: "çà€😀", count: 750), answer: "That line is 8250 bytes long"),
        Paste(text: String(repeating: "b", count: 9000), answer: "That line is 9000 bytes long"),
    ]

    @Test(arguments: pastes)
    func aLongLineIsAnsweredAndTheGameGoesOn(paste: Paste) throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"), width: 100, height: 40)
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.type(paste.text)
        try terminal.waitFor(paste.answer, seconds: 60)
        try terminal.type("look")
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        // A second long line, then the same again from the history: libedit's buffers were reused.
        try terminal.type(paste.text)
        try terminal.waitFor(paste.answer, seconds: 60)
        try terminal.type("quit")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
    }

    @Test func aLongLineAtANarrowTerminalLeavesTheGameAnswering() throws {
        let game = try SavedGame(at: "stones-memory")
        let terminal = try TmuxTerminal(command: game.command("--locale en"), width: 60, height: 20)
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.type(String(repeating: "é", count: 3000))
        try terminal.waitFor("That line is 6000 bytes long", seconds: 60)
        try terminal.type("4")
        try terminal.waitFor("4 of 4: Your answer, empty, text field")
    }
}
