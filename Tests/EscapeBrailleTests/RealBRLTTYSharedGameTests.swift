// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A display attached to a shared game, through a real BRLTTY: the refusal, the farewell, the end.
extension RealBRLTTYAttachTests {
    /// Serves a game in `locale`, lets a console take control, and attaches a display to it.
    private func sharedGame(
        locale: String,
        flashTime: String = "0",
        columns: Int = 40,
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
        try display.start(columns: columns)
        defer { display.stop() }
        let braille = try brailleGame(
            host: display.brlapiHost,
            arguments: ["--attach", socket, "--flash-time", flashTime]
        )
        defer { braille.stop() }
        try body(served, console, display, braille)
    }

    // Defect 7: the refusal is a sentence for a person in the game's language, on one window; panning
    // past the start of an element is reading, not a move, so nothing is refused.
    @Test func anObserversRefusalIsWordedForAPersonInTheGamesLanguage() throws {
        try sharedGame(locale: "fr") { _, console, display, braille in
            try display.waitFor(prefix: "Dans le noir tit 1/3", timeout: 15)
            try display.press("LNDN") { $0.hasPrefix("Un autre joue ; à toi quand il a fini.") }
            #expect(display.text.count <= 40, "one window: \(display.text)")
            try display.press("FWINLT") { $0.hasPrefix("Dans le noir tit 1/3") }
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

    // Issue 44, item 2: on 20 cells the farewell is three windows; FWINRT and FWINLT read it (before, a
    // pan left at once, the message unread past "The shared game has"), and another key leaves.
    @Test func theFarewellIsPannedOnASmallDisplayAndAnotherKeyLeaves() throws {
        try sharedGame(locale: "en", columns: 20) { served, _, display, braille in
            try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
            served.stop()
            try display.waitFor(prefix: "The shared game has", timeout: 15)
            #expect(!display.text.contains("leaves"), "one window of 20 cells: \(display.text)")
            try display.press("FWINRT") { $0.hasPrefix("ended.") }
            var read = display.text
            while !read.contains("leaves.") {
                let shown = display.text
                try display.press("FWINRT") { $0 != shown }
                read += " " + display.text
            }
            #expect(braille.process.isRunning, "panning is reading, not leaving")
            let last = display.text
            try display.press("FWINLT") { $0 != last }
            #expect(braille.process.isRunning)
            try display.press("ROUTE 1")
            try waitUntil("efb braille to leave") { !braille.process.isRunning }
            #expect(braille.process.terminationStatus == 0, "\(braille.standardError)")
        }
    }

    // Defect 6, on the one loop: with no key pressed the farewell stays its time, the loop waiting on the
    // display alone (the ended game's socket is not watched, so nothing spins), then efb braille leaves.
    @Test func theSharedGamesFarewellEndsOnItsOwnWithoutSpinning() throws {
        try sharedGame(locale: "en", flashTime: "3") { served, _, display, braille in
            try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
            served.stop()
            try display.waitFor(prefix: "The shared game has ended.", timeout: 15)
            let cpu = try CPUTicks(pid: braille.process.processIdentifier)
            let shown = Date()
            // Read while it runs: the last reading before it leaves counts.
            try waitUntil(timeout: 20, "efb braille to leave") { cpu.spent >= 0 && !braille.process.isRunning }
            let waited = Date().timeIntervalSince(shown)
            #expect(waited >= 1.5, "the farewell stayed \(waited) s of its 3")
            #expect(braille.process.terminationStatus == 0, "\(braille.standardError)")
            // Spinning for three seconds would take about 300 ticks of CPU; waiting takes next to none.
            #expect(cpu.spent < 30, "\(cpu.spent) ticks while the farewell was shown")
        }
    }
}

/// The CPU time a process used since this was made, in clock ticks, read from `/proc/PID/stat`:
/// ``spent`` reads it again, or gives the last value read once the process is gone.
private final class CPUTicks {
    let pid: Int32
    let start: Int
    private var last: Int

    init(pid: Int32) throws {
        self.pid = pid
        start = try Self.read(pid)
        last = start
    }

    /// The ticks used since this was made, as far as they could still be read.
    var spent: Int {
        if let now = try? Self.read(pid) { last = now }
        return last - start
    }

    static func read(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        guard let close = stat.lastIndex(of: ")") else { throw CocoaError(.fileReadCorruptFile) }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return user + system
    }
}
