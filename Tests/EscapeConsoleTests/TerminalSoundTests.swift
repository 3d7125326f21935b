// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// A sound player that cannot play, at a real terminal: its one line comes like the game's own,
/// wrapped to the window, and the half-typed line is drawn again below it.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps --test"))
struct TerminalSoundTests {
    /// pw-play on the search path but no PipeWire.
    ///
    /// A stand-in waits for ever, as pw-play waiting for its server; it used to be stopped after each
    /// sound without a word.
    @Test func aPlayerThatNeverFinishesIsToldInWrappedLinesAboveTheHalfTypedOne() throws {
        let folder = try temporaryFolder("stuck-player")
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = folder.appendingPathComponent("pw-play")
        try "#!/bin/sh\nexec sleep 60\n".write(to: player, atomically: true, encoding: .utf8)
        chmod(player.path, 0o755)
        let terminal = try TmuxTerminal(
            command: "PATH='\(folder.path)':/usr/bin:/bin "
                + efbCommand("play --seed 1 --memory-save --locale en --hint-interval 3600 --sound"),
            width: 40,
            height: 20
        )
        defer { terminal.stop() }
        try terminal.waitFor("1 of 3: Darkness, heading")
        try terminal.enterTheFirstDoor()
        try terminal.write("hel")
        try terminal.waitFor("efb: sound: pw-play did not finish a", seconds: 30)
        try terminal.waitFor("> hel")
        let screen = terminal.lines()
        let told = try #require(screen.lastIndex { $0.hasPrefix("efb: sound: pw-play") })
        #expect(screen.last?.trimmingCharacters(in: .whitespaces) == "> hel", "\(screen.suffix(8))")
        #expect(screen[told...].allSatisfy { $0.count <= 40 }, "\(screen[told...])")
        #expect(!screen[told...].contains { $0.hasPrefix("> hel") && $0.contains("efb:") })
        try terminal.press("C-c")
        try terminal.type("q")
        try terminal.waitFor("Goodbye.")
    }
}
