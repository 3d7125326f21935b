// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import Testing

@testable import EscapeRuntime

/// A snapshot on the real clock holds times of the process that made it: restored elsewhere, what had
/// elapsed has elapsed, whatever the new process's clock reads.
struct RealClockSnapshotTests {
    private static func line(_ text: String) -> SessionInput { .frame(.line(Array(text.utf8))) }

    /// A real-clock session on `cellar-water`, made at `now`.
    private static func session(now: Int64) -> Session {
        let progress = Progress(completed: ["cellar-door"], current: LevelPosition(chapter: 0, level: 1))
        var session = Session(
            adventure: Support.adventure,
            options: EngineOptions(hintInterval: 30_000, seed: 1),
            startup: SaveStartup(progress: progress),
            clock: .real,
            now: now
        )
        _ = session.handle(.start, now: now)
        return session
    }

    private static func blob(_ actions: [SessionAction]) -> String? {
        for case .send(let events) in actions {
            for event in events { if case .snapshot(let blob) = event.event { return blob } }
        }
        return nil
    }

    @Test(arguments: [Int64(50), 9_000_000_000])
    func elapsedTimeCarriesOverToAnotherProcessesClock(restoredAt: Int64) throws {
        // Played for 5 s in a process whose clock read 1,000,000 when the level began.
        var original = Self.session(now: 1_000_000)
        let blob = try #require(Self.blob(original.handle(Self.line(#"{"type":"snapshot"}"#), now: 1_005_000)))
        #expect(original.engine.nextDeadline == 1_030_000)

        var restored = Self.session(now: restoredAt)
        let answer = restored.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#), now: restoredAt)
        var events: [Event] = []
        for case .send(let sent) in answer { events += sent.map(\.event) }
        #expect(events == [.done])
        // 25 s are left before the first hint, counted from the restore.
        #expect(restored.engine.nextDeadline == restoredAt + 25_000)
    }

    @Test func aVirtualClockSnapshotRestoredOnTheRealClockKeepsItsElapsedTime() throws {
        var original = Session(
            adventure: Support.adventure,
            options: EngineOptions(hintInterval: 30_000, seed: 1),
            startup: SaveStartup(
                progress: Progress(completed: ["cellar-door"], current: LevelPosition(chapter: 0, level: 1))
            ),
            clock: .virtual(start: 0)
        )
        _ = original.handle(.start, now: 0)
        _ = original.handle(Self.line(#"{"type":"wait","ms":10000}"#), now: 0)
        let blob = try #require(Self.blob(original.handle(Self.line(#"{"type":"snapshot"}"#), now: 0)))
        var restored = Self.session(now: 7_000_000)
        _ = restored.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#), now: 7_000_000)
        #expect(restored.engine.nextDeadline == 7_020_000)
    }

    /// The snapshot kept as a value and the events of `actions`.
    private static func kept(_ actions: [SessionAction]) -> (KeptSnapshot?, [StampedEvent]) {
        var kept: KeptSnapshot?
        var events: [StampedEvent] = []
        for action in actions {
            switch action {
            case .kept(let snapshot, _): kept = snapshot
            case .send(let sent): events += sent
            case .save, .wake, .finish: break
            }
        }
        return (kept, events)
    }

    /// A snapshot kept as a value (the console's `undo`) comes back as its blob does: the same events but
    /// for their numbers, and the time played before it given back.
    @Test func aKeptSnapshotComesBackAsItsBlobDoes() throws {
        var byValue = Self.session(now: 1_000_000)
        var byBlob = Self.session(now: 1_000_000)
        let (value, sent) = Self.kept(byValue.handle(.keepingSnapshot(for: .int(1), then: []), now: 1_005_000))
        let kept = try #require(value)
        #expect(sent.isEmpty)
        let blob = try #require(Self.blob(byBlob.handle(Self.line(#"{"type":"snapshot","id":1}"#), now: 1_005_000)))
        // What the blob holds, but for the number its own done took.
        var decoded = try SnapshotCodec.decode(blob, engineVersion: Session.engineVersion)
        decoded.seq = kept.payload.seq
        #expect(decoded == kept.payload)
        let redraw = Request(id: .int(3), command: .state)
        let fromValue = Self.kept(byValue.handle(.restoring(kept, as: .int(2), then: [redraw]), now: 1_020_000)).1
        let restore = Request(id: .int(2), command: .restore(blob: blob))
        let fromBlob = Self.kept(byBlob.handle(.requests([restore, redraw]), now: 1_020_000)).1
        #expect(fromValue.map(\.event) == fromBlob.map(\.event))
        #expect(fromValue.map(\.replyTo) == fromBlob.map(\.replyTo))
        #expect(byValue.engine.nextDeadline == 1_045_000)
        #expect(byBlob.engine.nextDeadline == 1_045_000)
    }

    /// Behind a pending real-clock `wait`, a snapshot kept as a value is taken in its turn, once the
    /// `wait` is answered, as a `snapshot` request would be.
    @Test func aKeptSnapshotWaitsItsTurnBehindAWait() throws {
        var session = Self.session(now: 1_000_000)
        _ = session.handle(Self.line(#"{"type":"wait","ms":10000,"id":1}"#), now: 1_000_000)
        let queued = Self.kept(session.handle(.keepingSnapshot(for: .int(2), then: []), now: 1_001_000))
        #expect(queued.0 == nil)
        let answered = Self.kept(session.handle(.time, now: 1_010_000))
        let kept = try #require(answered.0)
        #expect(answered.1.last?.event == .done)
        #expect(answered.1.last?.replyTo == .int(1))
        // Restored 15 s later, the 10 s played before it are given back: 20 s to the first hint.
        _ = session.handle(.restoring(kept, as: .int(3), then: []), now: 1_025_000)
        #expect(session.engine.nextDeadline == 1_045_000)
    }
}
