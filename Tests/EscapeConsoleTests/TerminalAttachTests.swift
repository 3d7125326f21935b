// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `efb play --attach` at a real terminal (tmux), beside another attached console.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalAttachTests {
    @Test func playsAServedGameAndCtrlCLeavesItToTheOtherConsole() throws {
        let folder = try temporaryFolder("attach-terminal")
        chmod(folder.path, 0o700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.path + "/game.sock"
        let served = try RunningEFB(["serve", "--socket", socket, "--seed", "1", "--clock", "virtual", "--memory-save"])
        defer { served.stop() }
        try waitUntil("efb serve to listen") { served.standardError.contains("the game is served on") }

        let quoted = { (path: String) in "'\(path.replacingOccurrences(of: "'", with: #"'\''"#))'" }
        // Ctrl+C reaches the whole foreground group; the shell around efb goes on to say how efb ended.
        let command = "trap : INT; \(quoted(efbExecutable.path)) play --attach \(quoted(socket))"
        let terminal = try TmuxTerminal(command: command)
        defer { terminal.stop() }
        try terminal.waitFor("Escape From Blindness", "1 of 3: Darkness, heading")
        let other = try RunningEFB(["play", "--attach", socket])
        defer { other.stop() }
        try other.waitForOutput(containing: "1 of 3: Darkness, heading")

        // The terminal joined first and plays; the other console follows, and may not play meanwhile.
        try terminal.type("n")
        try terminal.waitFor("2 of 3: You wake on cold stone.")
        try other.waitForOutput(containing: "2 of 3: You wake on cold stone.")
        other.write(Array("n\n".utf8))
        try other.waitForOutput(containing: "Another player controls this game and you are following it;")

        // Ctrl+C at the terminal leaves the game; the other console plays on.
        try terminal.press("C-c")
        try terminal.waitFor("efb: left the game served on \(socket); it goes on.", "[exited with status 0]")
        // The server may read this console's `n` before it has seen the terminal's connection close:
        // then it is refused once more, and played again until control is free.
        var sent = 0
        try waitUntil(timeout: 30, "the other console to take the control the terminal left") {
            let text = other.output.text
            if text.contains("3 of 3: Continue, button") { return true }
            if text.components(separatedBy: "Another player controls").count - 1 > sent {
                sent += 1
                other.write(Array("n\n".utf8))
            }
            return false
        }
        #expect(served.process.isRunning)
    }
}
