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
