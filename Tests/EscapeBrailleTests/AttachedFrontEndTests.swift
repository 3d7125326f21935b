// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeRuntime
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The Braille front end in this process over a ``RemoteHost``, on a game a real `efb serve` shares,
/// with a display of our own: what `efb braille --attach` does, without BRLTTY.
@Suite struct AttachedFrontEndTests {
    private let fast = BrailleFrontEnd.Options(
        view: .init(flashMilliseconds: 0),
        reconnectInitial: 1,
        reconnectMaximum: 2,
        sizeCheckInterval: 3
    )

    /// Runs the front end until `done` holds; the loop wakes every few milliseconds (the size checks),
    /// and gives up after many turns.
    private func run(_ frontEnd: BrailleFrontEnd, on host: RemoteHost, until done: @escaping () -> Bool) {
        var turns = 0
        frontEnd.run(host: host) {
            turns += 1
            return done() || host.isFinished || turns > 10_000
        }
    }

    @Test func playsAServedGameThenLeavesItRunningForTheOthers() throws {
        let folder = try temporaryFolder("attach-braille")
        chmod(folder.path, 0o700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.path + "/game.sock"
        let served = try RunningEFB(["serve", "--socket", socket, "--seed", "1", "--clock", "virtual", "--memory-save"])
        defer { served.stop() }
        try waitUntil("efb serve to listen") { served.standardError.contains("the game is served on") }

        let clock = MonotonicClock()
        let logged = Locked<[String]>([])
        let host = try RemoteHost(connectingTo: socket, clock: clock) { line in logged.withLock { $0.append(line) } }
        let display = FakeDisplay()
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: clock,
            options: fast,
            log: { _ in }
        )
        run(frontEnd, on: host) { display.text == "Darkness hdr 1/3" }
        #expect(display.text == "Darkness hdr 1/3")
        #expect(host.isController, "the first client to join plays")

        display.keys = [.command(.lineDown)]
        run(frontEnd, on: host) { display.text.hasPrefix("You wake") }
        #expect(display.text.hasPrefix("You wake on cold stone."))

        // A console joining sees where the display's player is, and follows.
        let console = try RunningEFB(["play", "--attach", socket])
        defer { console.stop() }
        try console.waitForOutput(containing: "2 of 3: You wake on cold stone.")
        display.keys = [.command(.lineDown)]
        run(frontEnd, on: host) { display.text.hasPrefix("Continue btn 3/3") }
        // Patient: on loaded cores (the whole suite in parallel) this once took longer than 20 s.
        try console.waitForOutput(containing: "3 of 3: Continue, button", timeout: 60)

        // The display's player leaves (Ctrl+C): the game goes on, and the console plays it.
        _ = host.handle(.stop)
        #expect(host.ending == .detached)
        // The console is told nobody plays once the server has seen the display's player go; a move
        // typed before that is refused (it was the console's to watch), which once made this test flaky.
        try console.waitForOutput(containing: "Control is free: your next move plays the game.", timeout: 60)
        console.write(Array("previous\n".utf8))
        try console.waitForOutput(containing: "You have control of the game now.\n2 of 3: You wake", timeout: 60)
        #expect(served.process.isRunning)
        #expect(logged.withLock { $0 }.isEmpty, "every line the server sent was an event")
    }
}
