// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A Braille display and a console following one game that `efb serve` shares, the display driven
/// through a real BRLTTY.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYAttachTests {
    @Test func theDisplayFollowsTheConsoleThenPlaysOnceTheConsoleLeaves() throws {
        let folder = try temporaryFolder("attach-braille")
        chmod(folder.path, 0o700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.path + "/game.sock"
        let served = try RunningEFB(["serve", "--socket", socket, "--seed", "1", "--clock", "virtual", "--memory-save"])
        defer { served.stop() }
        try waitUntil("efb serve to listen") { served.standardError.contains("the game is served on") }

        // The console joins first: it controls the game.
        let console = try RunningEFB(["play", "--attach", socket])
        defer { console.stop() }
        try console.waitForOutput(containing: "1 of 3: Darkness, heading")

        // The Braille front end joins before BRLTTY runs; the game goes on meanwhile, and the display
        // shows where it is once BRLTTY answers.
        let display = try VirtualDisplay()
        defer { display.stop() }
        let braille = try brailleGame(host: display.brlapiHost, arguments: ["--attach", socket])
        defer { braille.stop() }
        try waitUntil("the waiting message") { braille.standardError.contains("Waiting for BRLTTY") }
        console.write(Array("next\n".utf8))
        try console.waitForOutput(containing: "2 of 3: You wake on cold stone.")
        try display.start()
        try display.waitFor(prefix: "You wake on cold stone.", timeout: 15)

        // What the console does shows on the display.
        console.write(Array("previous\n".utf8))
        try display.waitFor(prefix: "Darkness hdr 1/3")
        console.write(Array("next\n".utf8))
        try display.waitFor(prefix: "You wake on cold stone.")

        // The display's key is refused while the console plays: the display says why.
        try display.press("LNDN") { $0.hasPrefix("Another player plays; yours when done.") }
        try display.press("FWINRT") { $0.hasPrefix("You wake on cold stone.") }

        // The console leaves; the game goes on, and the display's next key takes control and plays.
        console.finish()
        #expect(console.standardError.contains("it goes on."))
        try display.press("LNDN") { $0.hasPrefix("Continue btn 3/3") }
        try display.press("ROUTE 1") { $0.hasPrefix("How to play hdr 1/3") }
        #expect(served.process.isRunning)

        // Ending the shared game ends the Braille front end too.
        served.stop()
        try waitUntil("efb braille to end with the game") { !braille.process.isRunning }
        #expect(braille.process.terminationStatus == 0, "\(braille.standardError)")
    }
}
