// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 23, item 4: `wait` on the real clock at a real terminal (tmux) says what it does, and the next
/// key cuts it short instead of freezing the console until the time has passed.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalWaitTests {
    @Test(arguments: [
        (
            "en", "Waiting 10 minutes. Press any key to stop waiting.", "You stopped waiting.",
            "2 of 3: You wake on cold stone."
        ),
        (
            "fr", "Tu attends 10 minutes. Appuie sur une touche pour arrêter d'attendre.", "Tu as arrêté d'attendre.",
            "2 sur 3\u{00A0}: "
        ),
    ])
    func aWaitSaysWhatItDoesAndTheNextKeyCutsItShort(
        locale: String,
        waiting: String,
        stopped: String,
        next: String
    ) throws {
        // The real clock: a 10-minute wait would hold every later answer for 10 minutes.
        let terminal = try TmuxTerminal(command: efbCommand("play --seed 1 --memory-save --locale \(locale)"))
        defer { terminal.stop() }
        try terminal.waitFor("1 ")
        try terminal.type("wait 600")
        try terminal.waitFor(waiting)
        try terminal.type("n")
        try terminal.waitFor(stopped, next, seconds: 30)
    }
}
