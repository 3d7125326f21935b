// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeSaves
import Testing

@testable import EscapeRuntime

/// One line's work is bounded: a long wait says what happened in a summary, and a batch may neither
/// simulate more than a day nor produce more than ``Session/maximumEventsPerLine`` events.
struct WorkPerLineTests {
    private static func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    /// A session on the timed level `torch-oil` (120 s), everything before it solved.
    private static func timedSession() -> SessionHost { CraftedSnapshotTests.session(timed: true) }

    @Test func aOneDayWaitOnATimedLevelSaysTheTorchWentOutOnce() {
        let session = Self.timedSession()
        _ = session.start()
        let events = session.handle(Self.line(#"{"type":"wait","ms":86400000}"#))
        let torchOuts = events.filter { $0.event == .game(.sound(.torchOut)) }.count
        #expect(torchOuts == 1)
        // Before: 11,048 events. Now the first minutes, one torch-out, the last minutes.
        #expect(events.count < 100, "\(events.count) events")
        #expect(events.last?.event == .done)
        // The torch was relit at the last time it went out, so its clock is where a played day leaves it.
        let remaining: Int64 = 120_000 - 86_400_000 % 120_000
        #expect(session.engine.timer(now: 86_400_000)?.remainingMs == remaining)
    }

    @Test func aBatchWhoseWaitsAddUpToMoreThanADayIsRefusedBeforeItRuns() {
        let session = Self.timedSession()
        _ = session.start()
        let generation = session.engine.generation
        let waits = Array(repeating: #"{"type":"wait","ms":86400000}"#, count: 1000).joined(separator: ",")
        let events = session.handle(Self.line(#"{"type":"batch","id":1,"commands":[\#(waits)]}"#))
        guard case .error(let error) = events.first?.event else {
            Issue.record("the batch ran: \(events.count) events")
            return
        }
        #expect(error.code == .invalidParams)
        #expect(error.field == "commands[1].ms")
        #expect(events.map(\.event) == [.error(error), .done])
        #expect(session.engine.generation == generation)
    }

    @Test func aBatchPastTheEventLimitIsRefusedAndChangesNothing() {
        let session = Self.timedSession()
        _ = session.start()
        let generation = session.engine.generation
        // A day in 1000 steps on a 120 s level: about 15 events a step.
        let waits = Array(repeating: #"{"type":"wait","ms":86400}"#, count: 1000).joined(separator: ",")
        let events = session.handle(Self.line(#"{"type":"batch","id":1,"commands":[\#(waits)]}"#))
        guard case .error(let error) = events.first?.event else {
            Issue.record("the batch ran: \(events.count) events")
            return
        }
        #expect(error.code == .tooManyEvents)
        #expect(events.count == 2)
        #expect(session.engine.generation == generation)
        #expect(session.handle(Self.line(#"{"type":"ping"}"#)).map(\.event) == [.done])
    }
}
