// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeSaves
import Testing

@testable import EscapeRuntime

/// A line's work grows linearly with what it asks (issue 26 C).
///
/// The lines kept during a real-clock `wait` are bounded and answered in linear time (B). Compared by
/// scaling, never by a time limit.
struct LinearWorkTests {
    private static func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    /// The fastest of three runs of `work`, in nanoseconds.
    private static func fastest(_ work: () -> Void) -> Double {
        var best = Duration.seconds(1_000_000)
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            work()
            best = min(best, clock.now - start)
        }
        return Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
    }

    private static func batch(of count: Int) -> LineFramer.Frame {
        let commands = Array(repeating: #"{"type":"state"}"#, count: count).joined(separator: ",")
        return line(#"{"type":"batch","id":1,"commands":[\#(commands)]}"#)
    }

    /// Before: every event was appended by copying the line's events so far, so a batch of 1,000
    /// `state` cost 13 times a batch of 200 (0.5 s against 0.03 s for the same as lines).
    @Test func aBatchCostsLinearTimeInItsLength() {
        let session = Support.session()
        _ = session.start()
        let small = Self.batch(of: 200)
        let large = Self.batch(of: 1000)
        #expect(session.handle(large).count > 2500)
        let smallTime = Self.fastest { _ = session.handle(small) }
        let largeTime = Self.fastest { _ = session.handle(large) }
        // Five times the commands. Linear: about 5 (4.7 measured through efb pipe); before: 12.9 through
        // efb pipe (quadratic alone would be 25).
        #expect(largeTime / smallTime < 10, "200: \(smallTime) ns, 1000: \(largeTime) ns")
    }

    /// A clock the test moves, on the real-clock path.
    final class ManualClock: GameClock {
        var time: Int64 = 0
        func now() -> Int64 { time }
        var isVirtual: Bool { false }
    }

    private static func realSession(_ clock: ManualClock) -> SessionHost {
        SessionHost(
            adventure: Support.adventure,
            options: EngineOptions(hintInterval: 30_000, seed: 1),
            store: InMemorySaveStore(),
            clock: clock
        )
    }

    /// Before: the kept lines were taken with `removeFirst` on an array, so answering them cost
    /// quadratic time (53,000 pings: 64 s; 102,000: 195 s), and nothing told the owner to stop reading.
    @Test func linesKeptDuringAWaitAreBoundedAndAnsweredInLinearTime() {
        func drain(_ count: Int) -> (nanoseconds: Double, acceptedAfterBound: Bool, answered: Int) {
            let clock = ManualClock()
            let session = Self.realSession(clock)
            _ = session.start()
            _ = session.handle(Self.line(#"{"type":"wait","id":"w","ms":1000}"#))
            var acceptedAfterBound = false
            for index in 0..<count {
                if index >= Session.maximumQueuedLines, session.acceptsInput { acceptedAfterBound = true }
                _ = session.handle(Self.line(#"{"type":"ping","id":\#(index)}"#))
            }
            clock.time = 1000
            let start = ContinuousClock.now
            let answered = session.tick().filter { $0.event == .done }.count
            let elapsed = ContinuousClock.now - start
            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            return (nanoseconds, acceptedAfterBound, answered)
        }
        // The fastest of three runs of each, taken in turn: the suites run in parallel on two cores, and a
        // run another test's burst slowed says nothing of the work (linear: about 4 times; quadratic: 16).
        var small = drain(5_000)
        var large = drain(20_000)
        for _ in 0..<2 {
            let nextSmall = drain(5_000)
            let nextLarge = drain(20_000)
            if nextSmall.nanoseconds < small.nanoseconds { small = nextSmall }
            if nextLarge.nanoseconds < large.nanoseconds { large = nextLarge }
        }
        #expect(!small.acceptedAfterBound && !large.acceptedAfterBound)
        #expect(small.answered == 5_001 && large.answered == 20_001)
        #expect(large.nanoseconds / small.nanoseconds < 8, "5k: \(small.nanoseconds) ns, 20k: \(large.nanoseconds) ns")
    }

    @Test func theBoundCountsBytesToo() {
        let clock = ManualClock()
        let session = Self.realSession(clock)
        _ = session.start()
        _ = session.handle(Self.line(#"{"type":"wait","id":"w","ms":1000}"#))
        let padding = String(repeating: " ", count: 300_000)
        var lines = 0
        while session.acceptsInput {
            _ = session.handle(Self.line(#"{"type":"ping"\#(padding)}"#))
            lines += 1
        }
        #expect(lines == 4)
        #expect(session.session.queuedInputs == 4)
        clock.time = 1000
        #expect(session.tick().filter { $0.event == .done }.count == 5)
        #expect(session.acceptsInput)
    }
}
