// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import Testing

@testable import EscapeRuntime

/// Re-signed snapshots are checked as the engine's own invariants (issue 26 D): a state the engine
/// could never be in is refused, and the counters a snapshot brings back leave room to count on.
struct SnapshotInvariantTests {
    private static func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    /// Restores `path = value` into a session on the second level; the refusal, or `nil` when restored.
    private static func restore(_ path: String, _ value: JSONValue) throws -> ProtocolError? {
        let original = CraftedSnapshotTests.session()
        _ = original.start()
        let blob = try CraftedSnapshotTests.crafted(try CraftedSnapshotTests.blob(of: original), path, value)
        let session = CraftedSnapshotTests.session()
        _ = session.start()
        let events = session.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#))
        guard case .error(let error) = events.first?.event else { return nil }
        return error
    }

    /// Before: a chapter's page for the last chapter, with only the first level solved, was restored,
    /// and its `begin` entered a level 20 levels ahead.
    @Test(arguments: [1, 2, 6])
    func aChapterPageAheadOfTheProgressIsRefused(chapter: Int) throws {
        let place: JSONValue = .object(["chapter": .object(["_0": .int(chapter)])])
        let error = try #require(try Self.restore("state.state.stack.0.place", place), "chapter \(chapter) restored")
        #expect(error.code == .badSnapshot)
        #expect(error.message.contains("stack[0].place.chapter._0"), "\(error.message)")
    }

    @Test func theChapterPageOfTheProgressStillRestores() throws {
        let place: JSONValue = .object(["chapter": .object(["_0": .int(0)])])
        #expect(try Self.restore("state.state.stack.0.place", place) == nil)
    }

    /// Before: the end screen restored with levels still to play.
    @Test func theEndScreenWithLevelsLeftIsRefused() throws {
        let error = try #require(try Self.restore("state.state.stack.0.place", .object(["end": .object([:])])))
        #expect(error.code == .badSnapshot)
        #expect(error.message.contains("stack[0].place"), "\(error.message)")
    }

    /// Before: `seq` and `gen` were restored up to 2^53 − 1 and then counted past it.
    @Test(arguments: ["seq", "state.generation"], [(1 << 53) - 1, (1 << 53) - 2, (1 << 52) + 1])
    func aCounterAtTheEdgeOfWhatJSONHoldsIsRefused(path: String, value: Int) throws {
        let error = try #require(try Self.restore(path, .int(value)), "\(path) = \(value) restored")
        #expect(error.code == .badSnapshot)
        #expect(error.message.contains(path.split(separator: ".").last.map(String.init) ?? path))
    }

    @Test(arguments: ["seq", "state.generation"])
    func aCounterWithRoomToCountOnRestores(path: String) throws {
        #expect(try Self.restore(path, .int(Engine.maximumRestoredCounter)) == nil)
    }

    @Test func aCounterNeverPassesTheLargestExactInteger() {
        let safe = Int(Int64.safeInteger)
        #expect((safe - 1).countingOn == safe)
        #expect(safe.countingOn == safe)
        #expect(0.countingOn == 1)
    }
}
