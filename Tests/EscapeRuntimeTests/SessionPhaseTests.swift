// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// The session's phases on the real clock, stepped input by input with the time given: not started,
/// playing, waiting out a `wait` (what arrives is kept), catching up with what the wait kept, finished.
struct SessionPhaseTests {
    /// A session on the real clock, opened at time 0.
    private static func opened() -> Session {
        var session = Session(
            adventure: Support.adventure,
            options: EngineOptions(hintInterval: 600_000, seed: 1),
            clock: .real,
            now: 0
        )
        _ = session.handle(.start, now: 0)
        return session
    }

    /// A protocol line from `client` (`nil`: the one input there is).
    private static func line(_ text: String, from client: Int? = nil) -> SessionInput {
        .frame(.line(Array(text.utf8)), from: client.map { Origin(client: $0) })
    }

    /// The events of `actions`, in order.
    private static func events(_ actions: [SessionAction]) -> [StampedEvent] {
        actions.flatMap { action -> [StampedEvent] in
            if case .send(let events) = action { events } else { [] }
        }
    }

    /// The events of `actions` as their types and the ids they answer: `done w`, `ended`.
    private static func said(_ actions: [SessionAction]) -> [String] {
        events(actions).map { stamped in
            let type: String
            switch stamped.event {
            case .done: type = "done"
            case .error(let error): type = "error \(error.code.rawValue)"
            case .ended(let reason, _): type = "ended \(reason.rawValue)"
            case .bye: type = "bye"
            case .idle: type = "idle"
            case .game, .hello, .progress, .validActions, .snapshot, .observation, .role: type = "other"
            }
            switch stamped.replyTo {
            case .string(let id): return type + " " + id
            case .int(let id): return type + " \(id)"
            case nil: return type
            }
        }
    }

    @Test(arguments: [
        SessionInput.start, .time, .stop, .endOfInput, .inputEnds(), .request(Request(command: .ping)),
        line(#"{"type":"ping","id":1}"#),
    ])
    func anInputAfterTheSessionFinishedYieldsNoAction(_ input: SessionInput) {
        var session = Self.opened()
        let quit = session.handle(Self.line(#"{"type":"quit","id":"q"}"#), now: 10)
        #expect(quit.last == .finish)
        #expect(session.isFinished)
        #expect(session.handle(input, now: 20).isEmpty)
        #expect(session.nextDeadline == nil)
    }

    @Test func aCancelFromAnotherClientDuringAWaitIsRefusedAndTheWaitGoesOn() {
        var session = Self.opened()
        let wait = session.handle(Self.line(#"{"type":"wait","ms":600000,"id":"w"}"#, from: 1), now: 0)
        #expect(Self.said(wait).isEmpty)
        #expect(wait.last == .wake(at: 600_000))
        let other = session.handle(Self.line(#"{"type":"cancel","target":"w","id":"c"}"#, from: 2), now: 5)
        #expect(Self.said(other) == ["error not_now c", "done c"])
        #expect(Self.events(other).allSatisfy { $0.origin?.client == 2 })
        #expect(other.last == .wake(at: 600_000), "the wait goes on")
        let own = session.handle(Self.line(#"{"type":"cancel","target":"w","id":"c"}"#, from: 1), now: 10)
        #expect(Self.said(own).suffix(2) == ["done w", "done c"])
    }

    @Test func aStopDuringAWaitAnswersTheWaitThenEndsWithoutWhatItKept() {
        var session = Self.opened()
        _ = session.handle(Self.line(#"{"type":"wait","ms":600000,"id":"w"}"#), now: 0)
        let kept = session.handle(Self.line(#"{"type":"ping","id":"p"}"#), now: 1)
        #expect(kept == [.wake(at: 600_000)])
        #expect(session.queuedInputs == 1)
        let stop = session.handle(.stop, now: 2)
        #expect(Self.said(stop).filter { $0 != "other" } == ["done w", "ended quit", "bye"])
        #expect(stop.last == .finish)
        #expect(session.queuedInputs == 0)
    }

    /// The end of the input cuts the wait short and answers what it kept; a `quit` among those lines
    /// ends the game, and the end of the input says nothing more.
    @Test func theEndOfTheInputDuringAWaitWithAQuitKeptEndsTheGameOnce() {
        var session = Self.opened()
        _ = session.handle(Self.line(#"{"type":"wait","ms":600000,"id":"w"}"#), now: 0)
        _ = session.handle(Self.line(#"{"type":"quit","id":"q"}"#), now: 1)
        let end = session.handle(.endOfInput, now: 2)
        #expect(Self.said(end).filter { $0 != "other" } == ["done w", "ended quit q", "done q", "bye q"])
        #expect(end.last == .finish)
    }

    /// A line kept behind a `wait` that starts another `wait` once carried out: what was kept after it
    /// waits for that one in turn.
    @Test func whatAWaitKeptWaitsForTheNextWaitAmongIt() {
        var session = Self.opened()
        _ = session.handle(Self.line(#"{"type":"wait","ms":1000,"id":"a"}"#), now: 0)
        _ = session.handle(Self.line(#"{"type":"wait","ms":1000,"id":"b"}"#), now: 1)
        _ = session.handle(Self.line(#"{"type":"ping","id":"p"}"#), now: 2)
        #expect(session.queuedInputs == 2)
        let first = session.handle(.time, now: 1000)
        #expect(Self.said(first).filter { $0 != "other" } == ["done a"])
        #expect(first.last == .wake(at: 2000))
        #expect(session.queuedInputs == 1)
        let second = session.handle(.time, now: 2000)
        #expect(Self.said(second).filter { $0 != "other" } == ["done b", "done p"])
        #expect(session.queuedInputs == 0)
    }

    /// A front end's run of requests whose first waits: the rest is kept, and answered after it.
    @Test func aRunOfRequestsWhoseFirstWaitsKeepsTheRest() {
        var session = Self.opened()
        let run = session.handle(
            .requests([
                Request(id: .string("w"), command: .wait(milliseconds: 1000)),
                Request(id: .string("p"), command: .ping),
            ]),
            now: 0
        )
        #expect(Self.said(run).isEmpty)
        #expect(session.queuedInputs == 1)
        let time = session.handle(.time, now: 1000)
        #expect(Self.said(time).filter { $0 != "other" } == ["done w", "done p"])
    }

    @Test func theInputOfAnotherClientEndingLeavesTheWaitPending() {
        var session = Self.opened()
        _ = session.handle(Self.line(#"{"type":"wait","ms":600000,"id":"w"}"#, from: 1), now: 0)
        let other = session.handle(.inputEnds(from: Origin(client: 2)), now: 1)
        #expect(other == [.wake(at: 600_000)])
        let own = session.handle(.inputEnds(from: Origin(client: 1)), now: 2)
        #expect(Self.said(own).filter { $0 != "other" } == ["done w"])
    }

    /// An observer's question during a `wait` is answered at once, as the game stands, and the wait
    /// goes on.
    @Test func aQuestionDuringAWaitIsAnsweredAtOnce() {
        var session = Self.opened()
        _ = session.handle(Self.line(#"{"type":"wait","ms":600000,"id":"w"}"#, from: 1), now: 0)
        let question = session.handle(
            .question(Request(id: .string("s"), command: .ping, origin: Origin(client: 2))),
            now: 5
        )
        #expect(Self.said(question) == ["done s"])
        #expect(question.last == .wake(at: 600_000))
        #expect(session.queuedInputs == 0)
    }
}
