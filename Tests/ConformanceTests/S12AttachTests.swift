// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// §12 Attaching: `efb play --attach` follows a served game, plays once it has control, and leaves it
/// running.
@Suite struct S12AttachTests {
    /// `efb play --attach` on `served`'s socket, past its joining state.
    private func console(on served: Served) throws -> RunningEFB {
        let console = try RunningEFB(["play", "--attach", served.socket])
        try console.waitForOutput(containing: "1 of 3: Darkness, heading")
        return console
    }

    @Test("§12 The console follows the controller's gestures, is refused while another plays, then plays")
    func theConsoleFollowsThenPlays() throws {
        let served = try Served()
        defer { served.stop() }
        let controller = try served.connect()
        _ = try controller.read { $0.type == "idle" }
        let console = try console(on: served)
        defer { console.stop() }

        controller.send(#"{"type":"next","id":1}"#)
        _ = try controller.read { $0.type == "done" }
        try console.waitForOutput(containing: "2 of 3: You wake on cold stone.")

        console.write(Array("next\n".utf8))
        try console.waitForOutput(containing: "Another player controls this game and you are following it;")
        controller.send(#"{"type":"state","id":2}"#)
        let state = try controller.read { $0.type == "done" }
        #expect(state.first { $0.type == "focus" }?.int("index") == 2, "the refused gesture changed nothing")

        controller.send(#"{"type":"hello","protocol":[1,1],"role":"observer","id":"give"}"#)
        _ = try controller.read { $0.type == "done" }
        console.write(Array("next\n".utf8))
        try console.waitForOutput(containing: "3 of 3: Continue, button")
        let taken = try controller.read { $0.type == "role" && $0["controlFree"] == .bool(false) }
        #expect(taken.last?.string("role") == "observer")
        let seen = try controller.read { $0.type == "idle" }
        #expect(seen.first { $0.type == "focus" }?.int("index") == 3, "the observer sees what the console did")

        console.finish()
        #expect(console.process.terminationStatus == 0)
        #expect(console.standardError.contains("left the game served on \(served.socket); it goes on."))
        controller.send(#"{"type":"hello","protocol":[1,1],"role":"controller","id":"take"}"#)
        let back = try controller.read { $0.type == "done" && $0["replyTo"] == .string("take") }
        #expect(back.last { $0.type == "role" }?.string("role") == "controller", "control is free once it left")
        #expect(served.process.process.isRunning)
        try served.finish([controller])
    }

    @Test("§12 The console alone controls the game; Ctrl+C leaves it and the game goes on")
    func ctrlCLeavesTheGameRunning() throws {
        let served = try Served()
        defer { served.stop() }
        let console = try console(on: served)
        defer { console.stop() }
        console.write(Array("a 3\n".utf8))
        try console.waitForOutput(containing: "1 of 3: How to play, heading")
        console.process.interrupt()
        console.process.waitUntilExit()
        #expect(console.process.terminationStatus == 0)
        #expect(console.standardError.contains("it goes on."))

        let observer = try served.connect()
        let joined = try observer.read { $0.type == "idle" }
        #expect(joined.first { $0.type == "role" }?.string("role") == "controller")
        #expect(joined.first { $0.type == "screen" }?.string("screen") != "intro-1", "the console's move stayed")
        try served.finish([observer])
    }

    @Test("§12 The game ending on the server ends the attached console with Goodbye")
    func theServerEndingTheGameEndsTheConsole() throws {
        let served = try Served()
        defer { served.stop() }
        let controller = try served.connect()
        _ = try controller.read { $0.type == "idle" }
        let console = try console(on: served)
        defer { console.stop() }
        try served.finish([controller])
        try console.waitForOutput(containing: "Goodbye.")
        console.process.waitUntilExit()
        #expect(console.process.terminationStatus == 0)
        #expect(console.standardError.isEmpty)
    }

    @Test("§12 No game at the path: one line on standard error and exit 69")
    func noServer() throws {
        let folder = try temporaryFolder("attach")
        let result = try runEFB(["play", "--attach", folder.path + "/none.sock"], input: "next\n")
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("efb: no game to join at \(folder.path)/none.sock"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
    }

    @Test("§12 Options that choose the game cannot go with --attach", arguments: ["play", "braille"])
    func gameOptionsAreRefused(command: String) throws {
        let result = try runEFB(
            [command, "--attach", "/tmp/x.sock", "--seed", "4", "--clock", "virtual", "--save", "p.json"],
            input: ""
        )
        #expect(result.status == 64)
        #expect(result.stderr.contains("--seed, --clock, --save cannot be used with it"))
    }
}
