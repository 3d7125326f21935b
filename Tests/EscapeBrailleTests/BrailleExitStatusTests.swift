// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What `efb braille` tells a script or a service manager when it ends.
@Suite(.enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"))
struct BrailleExitStatusTests {
    /// Before: given up with Ctrl+C while waiting for BRLTTY, it ended with status 0, as after a game.
    @Test func stoppedBeforeBRLTTYAnswersItEndsWithAFailureAndSaysWhy() throws {
        // A BRLTTY that is never started: its address answers nothing.
        let display = try VirtualDisplay()
        let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        defer {
            game.stop()
            display.stop()
        }
        try waitUntil(timeout: 10, "the waiting message") { game.standardError.contains("Waiting for BRLTTY") }
        // Ctrl+C at the terminal.
        kill(game.process.processIdentifier, SIGINT)
        // Its last line is read before it is looked for (the suite failed once on a loaded machine: the
        // status was 69 but the line not read yet).
        try game.waitForExit(timeout: 10)
        #expect(game.process.terminationReason == .exit, "\(game.standardError(last: 5))")
        #expect(game.process.terminationStatus == 69, "\(game.standardError(last: 5))")
        #expect(
            game.standardError.contains("stopped before BRLTTY answered: no game was played."),
            "\(game.standardError(last: 5))"
        )
    }
}
