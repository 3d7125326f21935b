// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// A session honours `ifGen` inside a batch, refuses `cancel` with nothing to cancel, and negotiates
/// the protocol version.
struct BatchIfGenAndCancelTests {
    /// What a fresh session answers `lines` with, after its opening.
    private func answers(_ lines: [String]) -> [StampedEvent] {
        let session = Support.session()
        _ = session.start()
        var framer = LineFramer()
        return framer.feed(Array(lines.map { $0 + "\n" }.joined().utf8)).flatMap { session.handle($0) }
    }

    private func errors(_ events: [StampedEvent]) -> [ProtocolError] {
        events.compactMap { if case .error(let error) = $0.event { error } else { nil } }
    }

    /// Batches are all or nothing: the stale command undoes the one before it.
    @Test func aBatchedCommandWhoseIfGenNoLongerHoldsIsStaleAndUndoesTheBatch() {
        // The opening is at generation 0; the first next moves it to 1.
        let events = answers([
            #"{"type":"batch","id":"b","commands":[{"type":"next","ifGen":0},{"type":"next","ifGen":0},{"type":"next"}]}"#
        ])
        let refusals = errors(events)
        #expect(refusals.map(\.code) == [.stale])
        #expect(refusals.first?.field == "commands[1].ifGen")
        #expect(events.map(\.event) == [.error(refusals[0]), .done])
        #expect(events.last?.generation == 0)
        #expect(events.allSatisfy { $0.replyTo == .string("b") })
    }

    @Test func aBatchedIfGenThatHoldsRunsTheCommand() {
        let events = answers([
            #"{"type":"batch","id":"b","commands":[{"type":"next","ifGen":0},{"type":"next","ifGen":1}]}"#
        ])
        #expect(errors(events).isEmpty)
        #expect(events.last?.generation == 2)
    }

    @Test func cancelWithNoPendingWaitIsNotNow() {
        let events = answers([#"{"type":"cancel","id":"c","target":"w"}"#])
        #expect(errors(events).map(\.code) == [.notNow])
        #expect(errors(events).first?.field == "target")
        #expect(events.last?.event == .done)
        #expect(events.last?.replyTo == .string("c"))
    }

    @Test(arguments: [
        #"1"#, #"[1,1]"#, #"[[2,0],[1,1]]"#, #"{"min":[1,0],"max":[3,0]}"#, #"{"min":[0,5],"max":[1,0]}"#,
    ])
    func helloFindsACommonVersion(_ versions: String) {
        let events = answers([#"{"type":"hello","id":"h","protocol":\#(versions)}"#])
        #expect(errors(events).isEmpty, "\(versions)")
    }

    @Test(arguments: [
        #"2"#, #"[1,4]"#, #"[[0,9],[2,0]]"#, #"{"min":[1,4],"max":[2,0]}"#, #"0"#, #"{"min":[1,1],"max":[1,0]}"#,
    ])
    func helloWithNoCommonVersionIsUnsupported(_ versions: String) {
        let events = answers([#"{"type":"hello","id":"h","protocol":\#(versions)}"#])
        #expect(errors(events).map(\.code) == [.unsupportedProtocol], "\(versions)")
        #expect(errors(events).first?.field == "protocol")
        #expect(events.contains { if case .hello = $0.event { true } else { false } })
    }
}
