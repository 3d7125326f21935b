import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 22, defects 6 and 7: a display attached to a shared game, through a real BRLTTY.
extension RealBRLTTYAttachTests {
    /// Serves a game in `locale`, lets a console take control, and attaches a display to it.
    private func sharedGame(
        locale: String,
        _ body: (_ served: RunningEFB, _ console: RunningEFB, _ display: VirtualDisplay, _ braille: RunningEFB) throws
            -> Void
    ) throws {
        let folder = try temporaryFolder("attach-braille-22")
        chmod(folder.path, 0o700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.path + "/game.sock"
        let served = try RunningEFB([
            "serve", "--socket", socket, "--seed", "1", "--clock", "virtual", "--memory-save", "--locale", locale,
        ])
        defer { served.stop() }
        try waitUntil("efb serve to listen") { served.standardError.contains("the game is served on") }
        let console = try RunningEFB(["play", "--attach", socket])
        defer { console.stop() }
        try console.waitForOutput(containing: "1 ")
        let display = try VirtualDisplay()
        try display.start()
        defer { display.stop() }
        let braille = try brailleGame(host: display.brlapiHost, arguments: ["--attach", socket])
        defer { braille.stop() }
        try body(served, console, display, braille)
    }

    // Defect 7: the refusal is a sentence for a person in the game's language, on one window; panning
    // past the start of an element is reading, not a move, so nothing is refused.
    @Test func anObserversRefusalIsWordedForAPersonInTheGamesLanguage() throws {
        try sharedGame(locale: "fr") { _, console, display, braille in
            try display.waitFor(prefix: "Dans le noir hdr 1/3", timeout: 15)
            try display.press("LNDN") { $0.hasPrefix("Un autre joueur joue ; tu regardes.") }
            #expect(display.text.count <= 40, "one window: \(display.text)")
            try display.press("FWINLT") { $0.hasPrefix("Dans le noir hdr 1/3") }
            let panned = display.history.count
            try display.press("FWINLT")
            console.write(Array("next\n".utf8))
            try display.waitFor(prefix: "Tu te réveilles")
            let since = Array(display.history[panned...])
            #expect(!since.contains { $0.hasPrefix("Un autre joueur") }, "panning is not a move: \(since)")
            #expect(braille.process.isRunning)
        }
    }

    // Defect 6: when the shared game ends, the display says so, and efb braille leaves cleanly on a key.
    @Test func theDisplaySaysTheSharedGameEndedThenLeaves() throws {
        try sharedGame(locale: "en") { served, _, display, braille in
            try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
            served.stop()
            try display.waitFor(prefix: "The shared game has ended.", timeout: 15)
            try display.press("ROUTE 1")
            try waitUntil("efb braille to leave") { !braille.process.isRunning }
            #expect(braille.process.terminationStatus == 0, "\(braille.standardError)")
        }
    }
}
