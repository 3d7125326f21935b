// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeSaves
import Glibc
import Testing

@testable import EscapeRuntime

/// A line's work grows linearly with what it asks (issue 26 C).
///
/// The lines kept during a real-clock `wait` are bounded and answered in linear time (B). Compared by
/// scaling, never by a time limit, and in the processor time of the thread doing the work: a wall
/// clock also counts the time other programs took the processor, which on a loaded machine (CI's two
/// lanes compile beside the suites) can swamp the work measured.
struct LinearWorkTests {
    private static func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    /// The processor time `work` took on this thread, in nanoseconds (the work is synchronous, so it
    /// runs on the calling thread from start to end).
    private static func processorTime(_ work: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
        }
        let start = now()
        work()
        return now() - start
    }

    /// The least processor time of three runs of `work`, in nanoseconds.
    private static func fastest(_ work: () -> Void) -> Double {
        (0..<3).map { _ in processorTime(work) }.min() ?? 0
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
            var answered = 0
            let nanoseconds = Self.processorTime { answered = session.tick().filter { $0.event == .done }.count }
            return (nanoseconds, acceptedAfterBound, answered)
        }
        // The fastest of three runs of each, taken in turn: even in processor time, a run whose caches
        // another thread emptied says little of the work (linear: about 4 times; quadratic: 16).
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
