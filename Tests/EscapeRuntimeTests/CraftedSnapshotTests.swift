// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeSaves
import EscapeTestSupport
import Testing

@testable import EscapeRuntime

/// Snapshots are untrusted input: crafted blobs are refused by field, never a trap.
///
/// The checksum is no signature, so anyone can change a blob and sign it again. Every such blob is refused with `bad_snapshot` naming the field, or restored to a state
/// the engine can play on; it never traps or hangs.
struct CraftedSnapshotTests {
    private static func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    /// A session on the second level, or on the timed level `torch-oil`, with everything before it solved.
    static func session(timed: Bool = false) -> SessionHost {
        let current = timed ? "torch-oil" : "cellar-water"
        let levels = Support.adventure.chapters.flatMap(\.levels).map(\.id)
        let index = levels.firstIndex(of: current) ?? 0
        let save = SaveData(adventureID: Support.adventure.id, completed: Array(levels[..<index]), current: current)
        return Support.session(store: InMemorySaveStore(save))
    }

    /// A blob of `session`'s game.
    static func blob(of session: SessionHost) throws -> String {
        let events = session.handle(line(#"{"type":"snapshot"}"#))
        guard case .snapshot(let blob) = events.first?.event else { throw TestFailure("no snapshot") }
        return blob
    }

    /// `blob` with the payload's field at `path` (dots between keys, numbers for array items) set to
    /// `value`, signed again.
    static func crafted(_ blob: String, _ path: String, _ value: JSONValue) throws -> String {
        var payload = try JSONReader.read(try #require(SnapshotCodec.payload(of: blob)))
        try set(&payload, path.split(separator: ".").map(String.init)[...], to: value)
        var bytes: [UInt8] = []
        JSONWriter.write(payload, into: &bytes, style: .jsonEncoder)
        return SnapshotCodec.sign(bytes)
    }

    private static func set(_ node: inout JSONValue, _ path: ArraySlice<String>, to value: JSONValue) throws {
        guard let key = path.first else {
            node = value
            return
        }
        switch node {
        case .object(var object):
            var child = object[key] ?? .null
            try set(&child, path.dropFirst(), to: value)
            object[key] = child
            node = .object(object)
        case .array(var array):
            let index = try #require(Int(key))
            if index == array.count { array.append(.null) }
            try set(&array[index], path.dropFirst(), to: value)
            node = .array(array)
        case .null, .bool, .int, .uint, .double, .string:
            throw TestFailure("no \(key) in the payload")
        }
    }

    static let level = "state.state.stack.0.place.level._1"

    /// Each crafted field, its value, and what is sent after the restore.
    static let cases: [(path: String, value: JSONValue, timed: Bool, then: [String])] = [
        ("state.generation", .int(.max), false, [#"{"type":"next"}"#]),
        ("state.generation", .int(-1), false, [#"{"type":"next"}"#]),
        ("seq", .int(.min), false, [#"{"type":"ping"}"#]),
        ("seq", .int(.max), false, [#"{"type":"ping"}"#]),
        ("state.state.visits", .int(.max), false, [#"{"type":"menu"}"#]),
        ("state.state.stack.0.focus", .int(.max), false, [#"{"type":"next"}"#]),
        ("state.state.stack.0.focus", .int(100), false, [#"{"type":"next"}"#]),
        (level + ".hintsHeard", .int(-3), false, [#"{"type":"wait","ms":31000}"#, #"{"type":"hint"}"#]),
        (level + ".hintsHeard", .int(3), false, [#"{"type":"wait","ms":61000}"#, #"{"type":"hint"}"#]),
        (level + ".hintsNoticed", .int(.max), false, [#"{"type":"wait","ms":31000}"#, #"{"type":"hint"}"#]),
        (level + ".hintsNoticed", .int(.min), false, [#"{"type":"wait","ms":31000}"#, #"{"type":"hint"}"#]),
        (level + ".enteredAt", .int(.max), false, [#"{"type":"wait","ms":31000}"#, #"{"type":"hint"}"#]),
        (level + ".enteredAt", .int(.min), false, [#"{"type":"wait","ms":31000}"#, #"{"type":"hint"}"#]),
        (level + ".enteredAt", .int(.min), true, [#"{"type":"wait","ms":31000}"#, #"{"type":"state"}"#]),
        (level + ".enteredAt", .int(-10_000_000_000_000), true, [#"{"type":"wait","ms":1000}"#]),
        (level + ".timeAnnounced", .int(-1), true, [#"{"type":"wait","ms":1000}"#]),
        (level + ".timeAnnounced", .int(1000), true, [#"{"type":"wait","ms":1000}"#]),
        (level + ".timed", .bool(true), false, [#"{"type":"wait","ms":1000}"#]),
        ("state.state.pausedAt", .int(.min), false, [#"{"type":"menu"}"#, #"{"type":"escape"}"#]),
        ("state.state.pausedAt", .int(.max), false, [#"{"type":"menu"}"#, #"{"type":"escape"}"#]),
        ("clock", .int(.max), false, [#"{"type":"wait","ms":86400000}"#]),
        ("clock", .int(.min), false, [#"{"type":"wait","ms":86400000}"#]),
        (
            "state.state.progress.current", .object(["chapter": .int(6), "level": .int(4)]), false,
            [#"{"type":"menu"}"#]
        ),
        (
            "state.state.stack.0.place", .object(["menu": .object([:])]), false, [#"{"type":"escape"}"#]
        ),
        (
            "state.state.stack.1", .object(["focus": .int(0), "place": .object(["end": .object([:])])]), false,
            [#"{"type":"escape"}"#]
        ),
        (
            "state.state.stack.0.place.level._0", .object(["chapter": .int(6), "level": .int(4)]), false,
            [#"{"type":"state"}"#]
        ),
        ("saved", .object(["completed": .array([.string("nope")]), "current": .null]), false, [#"{"type":"state"}"#]),
    ]

    @Test(arguments: cases.indices)
    func aCraftedFieldIsRefusedByName(index: Int) throws {
        let (path, value, timed, then) = Self.cases[index]
        let original = Self.session(timed: timed)
        _ = original.start()
        let blob = try Self.crafted(try Self.blob(of: original), path, value)
        let session = Self.session(timed: timed)
        _ = session.start()
        let generation = session.engine.generation
        let events = session.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#))
        guard case .error(let error) = events.first?.event else {
            Issue.record("\(path) = \(value) was restored")
            return
        }
        #expect(error.code == .badSnapshot)
        #expect(error.field == "blob")
        let field = path.split(separator: ".").last.map(String.init) ?? path
        #expect(error.message.contains(field), "\(error.message)")
        #expect(session.engine.generation == generation)
        for command in then {
            let answer = session.handle(Self.line(command))
            #expect(answer.last?.event == .done)
        }
    }

    @Test func anUntouchedBlobStillRestores() throws {
        for timed in [false, true] {
            let original = Self.session(timed: timed)
            _ = original.start()
            let blob = try Self.blob(of: original)
            let session = Self.session(timed: timed)
            _ = session.start()
            #expect(session.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#)).map(\.event) == [.done])
        }
    }

    @Test func progressSavedTellsWhatThisSessionStoredNotWhatTheBlobSays() throws {
        let original = Self.session(timed: true)
        _ = original.start()
        let blob = try Self.blob(of: original)
        // A fresh session with nothing stored: the blob's `saved` cannot make `progress.saved` true.
        let session = Support.session()
        _ = session.start()
        _ = session.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#))
        let state = session.handle(Self.line(#"{"type":"state"}"#))
        let saved = state.compactMap { event -> Bool? in
            if case .progress(_, let saved) = event.event { return saved }
            return nil
        }
        #expect(saved == [false])
    }

    @Test func aBlobOfAnotherFormatSaysSoNotThatTheEnginesDiffer() throws {
        let original = Self.session()
        _ = original.start()
        let blob = try Self.crafted(try Self.blob(of: original), "format", .int(2))
        let events = original.handle(Self.line(#"{"type":"restore","blob":"\#(blob)"}"#))
        guard case .error(let error) = events.first?.event else {
            Issue.record("restored")
            return
        }
        #expect(error.message == "the snapshot cannot be restored: it has format 2; this engine reads format 1")
    }
}
