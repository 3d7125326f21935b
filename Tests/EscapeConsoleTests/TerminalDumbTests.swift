// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// A terminal that says it moves no cursor (`TERM=dumb`: Emacs's shell, a serial console, some
/// screen-reader set-ups) is sent plain lines: no escape code, even when a message comes while the
/// player is typing.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps --test"))
struct TerminalDumbTests {
    @Test func aMessageWhileTypingOnADumbTerminalIsPlainLines() throws {
        let folder = try temporaryFolder("dumb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = folder.appendingPathComponent("sent").path
        // A real clock: the first hint unlocks three seconds into the level, while "hel" waits for more.
        let terminal = try TmuxTerminal(
            command: "TERM=dumb " + efbCommand("play --seed 1 --memory-save --locale en --hint-interval 3")
        )
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.record(to: recorded)
        try terminal.enterTheFirstDoor()
        try terminal.write("hel")
        try terminal.waitFor("A new hint is ready. Ask for it whenever you like.")
        // The half-typed line is still the one being edited: finishing it runs help.
        try terminal.write("p")
        try terminal.press("Enter")
        try terminal.waitFor("q, quit: stop playing. Progress is saved each time a door opens.")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.", "[exited with status 0]")
        let sent = try Data(contentsOf: URL(fileURLWithPath: recorded))
        let escapes = sent.indices.filter { sent[$0] == 0x1B }.map { index in
            String(decoding: sent[index..<min(index + 6, sent.endIndex)], as: UTF8.self).debugDescription
        }
        #expect(escapes.isEmpty, "escape codes sent to a dumb terminal: \(escapes.prefix(10))")
        #expect(String(decoding: sent, as: UTF8.self).contains("A new hint is ready."))
    }
}
