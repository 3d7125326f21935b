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
}
