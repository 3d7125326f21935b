// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `efb braille` against a BrlAPI server that lets it connect and then fails it before tty mode: the
/// game must keep waiting for BRLTTY, never crash.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait")
)
struct BrlAPIFaultTests {
    @Test(arguments: ["close", "error"])
    func aConnectionThatFailsBeforeTtyModeIsRetried(mode: String) throws {
        let number = try VirtualDisplay.freeBrlapiNumber()
        let peer = try BrlAPIFaultPeer(mode: mode, port: 4101 + number)
        defer { peer.stop() }
        let game = try brailleGame(host: "127.0.0.1:\(number)", arguments: ["--memory-save"])
        defer { game.stop() }

        // Three failed connections in a row: the game survived the first two and tried again.
        try waitUntil(timeout: 30, "three failed connections or the end of efb") {
            peer.output.contains("failed 3") || !game.process.isRunning
        }
        let ending = game.process.isRunning ? "still running" : "ended: \(game.process.terminationReason)"
        #expect(game.process.isRunning, "efb \(ending); it said: \(game.standardError)")
        #expect(game.standardError.contains("Waiting for BRLTTY"))
        #expect(!game.standardError.contains("double free"))
    }
}

/// Tests/BrlAPIPeer/brlapi_fault_peer.py: a BrlAPI server that fails every client after connecting it.
final class BrlAPIFaultPeer: @unchecked Sendable {
    private let process = Process()
    private let printed: Drained

    /// Starts the peer on the loopback `port` and waits until it listens.
    init(mode: String, port: Int) throws {
        let script = packageRoot.appendingPathComponent("Tests/BrlAPIPeer/brlapi_fault_peer.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [pythonCommand, script.path, mode, "\(port)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        printed = Pipe.drain(pipe)
        do {
            try waitUntil(timeout: 15, "the BrlAPI peer to listen") {
                output.contains("listening") || !process.isRunning
            }
            guard output.contains("listening") else { throw TestFailure("the BrlAPI peer did not start: \(output)") }
        } catch {
            stop()
            throw error
        }
    }

    /// What the peer printed so far.
    var output: String { printed.text }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
