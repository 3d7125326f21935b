// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

/// §12 In a shared game, observers' questions never wait behind the controller's real-clock `wait`
/// (issue 26 E).
@Suite struct ServeWaitTests {
    /// Before: while the controller waited on the real clock, observers' `state` and `ping` were held
    /// until the wait ended (up to a day).
    @Test("§12 An observer's state and ping are answered during the controller's real-clock wait")
    func observersAreAnsweredDuringAWait() throws {
        let served = try Served(["--memory-save", "--clock", "real"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(#"{"type":"wait","ms":600000,"id":"w"}"#)
        observer.send(#"{"type":"state","id":"s"}"#, #"{"type":"ping","id":"p"}"#)
        let answers = try observer.read { $0.type == "done" && $0["replyTo"] == .string("p") }
        let state = answers.filter { $0["replyTo"] == .string("s") }.compactMap(\.type)
        #expect(state == ["screen", "focus", "progress", "validActions", "done"])
        #expect(!controller.events.contains { $0["replyTo"] == .string("w") }, "the wait ended early")
        controller.send(#"{"type":"cancel","id":"c","target":"w"}"#)
        _ = try controller.read { $0.type == "done" && $0["replyTo"] == .string("c") }
        try served.finish([controller, observer])
    }
}

extension ServeWaitTests {
    /// An observer's bad lines are answered at once too, during the wait, and never fill the game's queue.
    @Test("§12 An observer's bad lines are answered during the controller's real-clock wait")
    func observersBadLinesAreAnsweredDuringAWait() throws {
        let served = try Served(["--memory-save", "--clock", "real"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(#"{"type":"wait","ms":600000,"id":"w"}"#)
        let bad = Array(repeating: #"{"type":"ping","id":"x"#, count: 2000)
        observer.send(bad + [#"{"type":"ping","id":"p"}"#])
        let answers = try observer.read { $0.type == "done" && $0["replyTo"] == .string("p") }
        #expect(answers.filter { $0.string("code") == "malformed_json" }.count == 2000)
        controller.send(#"{"type":"cancel","id":"c","target":"w"}"#)
        _ = try controller.read { $0.type == "done" && $0["replyTo"] == .string("c") }
        try served.finish([controller, observer])
    }
}

extension ServeWaitTests {
    /// Before (issue 24, origin tokens): the controller's lines that the session could not read were
    /// routed by a side channel set only while the line was first submitted; kept behind a real-clock
    /// `wait`, their answers came when it was unset, so one with an id lost its `error` and `done`, and
    /// one without went to every client.
    @Test("§12 The controller's bad lines sent during its real-clock wait are answered to it alone, after it")
    func theControllersBadLinesAreAnsweredAfterItsWait() throws {
        let served = try Served(["--memory-save", "--clock", "real"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(
            #"{"type":"wait","ms":600000,"id":"w"}"#,
            #"{"type":"jump","id":"b"}"#,
            #"{"type":"ping","#,
            #"{"type":"ping","id":"p"}"#
        )
        controller.send(#"{"type":"cancel","id":"c","target":"w"}"#)
        let answers = try controller.read { $0.type == "done" && $0["replyTo"] == .string("p") }
        let afterWait = answers.drop { !($0.type == "done" && $0["replyTo"] == .string("w")) }
        #expect(afterWait.first { $0["replyTo"] == .string("b") }?.string("code") == "unknown_command")
        #expect(afterWait.contains { $0.type == "done" && $0["replyTo"] == .string("b") })
        #expect(afterWait.contains { $0.string("code") == "malformed_json" && $0["replyTo"] == nil })
        observer.send(#"{"type":"ping","id":"o"}"#)
        let seen = try observer.read { $0.type == "done" && $0["replyTo"] == .string("o") }
        #expect(!seen.contains { $0.type == "error" }, "an observer was told of the controller's errors")
        try served.finish([controller, observer])
    }
}

extension ServeWaitTests {
    /// Before: a controller that closed its connection during its own real-clock `wait` kept control
    /// until the wait's deadline (claims refused with `controlled`).
    ///
    /// Now its wait ends as it leaves, as the pipe's at the end of input: control comes free at once,
    /// whether its lines fit behind the wait or fill what the wait keeps.
    @Test(
        "§12 A controller that leaves during its real-clock wait gives control up at once",
        arguments: [0, 1100]
    )
    func aControllerLeavingDuringItsWaitGivesControlUp(pings: Int) throws {
        let served = try Served(["--memory-save", "--clock", "real"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(
            [#"{"type":"wait","ms":86400000,"id":"w"}"#] + (0..<pings).map { #"{"type":"ping","id":\#($0)}"# }
        )
        controller.close()
        let freed = try observer.read { $0.type == "role" && $0["controlFree"] == .bool(true) }
        #expect(freed.last?.string("role") == "observer")
        observer.send(#"{"type":"hello","protocol":[1,1],"role":"controller","id":"take"}"#)
        let taken = try observer.read { $0.type == "done" && $0["replyTo"] == .string("take") }
        #expect(!taken.contains { $0.string("code") == "controlled" })
        #expect(taken.first { $0.type == "role" }?.string("role") == "controller")
        try served.finish([observer])
    }
}
