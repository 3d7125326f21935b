// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Protocol 1.1, rule by rule (Protocol/README.md §3, §4.3, §4.19, §4.20, §5), on sessions that
/// agreed on 1.1 in `hello`, against the same commands in 1.0.
@Suite struct Protocol11Tests {
    static let example: Adventure = {
        do {
            return try AdventureLoader.load(
                path: packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path
            )
        } catch {
            fatalError("the example adventure must load: \(error)")
        }
    }()

    static let levels = ["room-latch", "room-word", "room-dial", "room-shelf", "room-wheels"]

    /// A session of the example on `level` (every level before it solved), in `version`.
    private func session(on level: String, version: String, timePressure: Bool = true) -> SessionHost {
        let save = SaveData(
            adventureID: Self.example.id,
            completed: Array(Self.levels.prefix { $0 != level }),
            current: level
        )
        let session = SessionHost(
            adventure: Self.example,
            options: EngineOptions(hintInterval: 30_000, seed: 1, timePressure: timePressure),
            store: InMemorySaveStore(save),
            clock: VirtualClock()
        )
        _ = session.start()
        _ = send(session, #"{"type":"hello","id":"h","protocol":\#(version)}"#)
        return session
    }

    private func send(_ session: SessionHost, _ line: String) -> [StampedEvent] {
        session.handle(.line(Array(line.utf8)))
    }

    private func json(_ events: [StampedEvent]) -> [[String: JSONValue]] {
        events.compactMap { if case .object(let object) = EventEncoder.json($0) { object } else { nil } }
    }

    private func types(_ events: [StampedEvent]) -> [String] {
        json(events).compactMap { if case .string(let type) = $0["type"] { type } else { nil } }
    }

    // MARK: §4.3 hello negotiates

    @Test func helloAgreesOnTheHighestCommonVersionAndSaysWhatIsGranted() throws {
        let session = SessionHost(
            adventure: Self.example,
            options: EngineOptions(seed: 1),
            store: InMemorySaveStore(),
            clock: VirtualClock()
        )
        let opening = json(session.start())
        #expect(opening.first?["version"] == [1, 0])
        #expect(opening.first?["versions"] == [[1, 0], [1, 1], [1, 2], [1, 3]])
        #expect(opening.first?["want"] == nil)
        let reply = json(
            send(session, #"{"type":"hello","id":1,"protocol":{"min":[1,0],"max":[1,9]},"want":["validActions","x"]}"#)
        )
        let hello = try #require(reply.first { $0["type"] == "hello" })
        #expect(hello["version"] == [1, 3])
        #expect(hello["want"] == ["validActions"])
        let capabilities = try #require(hello["capabilities"]?.arrayValue)
        #expect(["elementChanged", "idle", "timer", "cancel"].allSatisfy { capabilities.contains(.string($0)) })
        #expect(session.session.dialect == .v13)
        // protocol 1 keeps 1.0 behaviour.
        _ = send(session, #"{"type":"hello","id":2,"protocol":1}"#)
        #expect(session.session.dialect == .v10)
    }

    // MARK: §3 every event carries gen (1.1)

    @Test func inOnePointOneEveryEventCarriesItsGen() {
        let wrong = #"{"type":"input","element":"answer","text":"a candle"}"#
        let events = json(send(session(on: "room-word", version: "[1,1]"), wrong))
        #expect(events.contains { $0["type"] == "announce" })
        #expect(events.allSatisfy { $0["gen"] != nil })
        let legacy = json(send(session(on: "room-word", version: "1"), wrong))
        #expect(legacy.contains { $0["type"] == "announce" && $0["gen"] == nil })
    }

    // MARK: §5.17 elementChanged

    /// §3: a gesture aimed at an element is one command, all or nothing: its `focus` carries the `gen`
    /// after the whole gesture, as its `elementChanged` and `done` do (the spec said, before, the value
    /// once the focusing alone was applied, a state no client could act on).
    @Test func anAimedGesturesEventsAllCarryTheGenAfterIt() {
        let session = session(on: "room-wheels", version: "[1,1]", timePressure: false)
        let before = session.engine.generation
        let turned = send(session, #"{"type":"adjust","id":"a","element":"right-wheel","direction":"increment"}"#)
        #expect(types(turned).first == "focus")
        #expect(types(turned).contains("elementChanged"))
        let after = session.engine.generation
        #expect(after > before + 1, "the focusing and the turn each changed the state")
        #expect(turned.allSatisfy { $0.generation == after })
        // The next command's ifGen takes the focus's gen as well as the done's.
        let next = send(session, #"{"type":"next","id":"n","ifGen":\#(after)}"#)
        #expect(!types(next).contains("error"))
    }

    @Test func aDialTurnedIsAnElementChangedNotASecondFocus() {
        let modern = session(on: "room-wheels", version: "[1,1]", timePressure: false)
        _ = send(modern, #"{"type":"focus","element":"left-wheel"}"#)
        let turned = send(modern, #"{"type":"adjust","direction":"increment"}"#)
        #expect(types(turned).contains("elementChanged"))
        #expect(!types(turned).contains("focus"))
        let changed = json(turned).first { $0["type"] == "elementChanged" }
        #expect(changed?["element"]?["value"] == "1")

        let legacy = session(on: "room-wheels", version: "1", timePressure: false)
        _ = send(legacy, #"{"type":"focus","element":"left-wheel"}"#)
        let old = send(legacy, #"{"type":"adjust","direction":"increment"}"#)
        #expect(types(old).contains("focus"))
        #expect(!types(old).contains("elementChanged"))
    }

    @Test func aWrongSetOfActionsTellsOfEveryObjectItResets() {
        let modern = session(on: "room-shelf", version: "[1,1]")
        _ = send(modern, #"{"type":"action","element":"candle","name":"Break it"}"#)
        let reset = json(send(modern, #"{"type":"action","element":"key","name":"Drop it"}"#))
        // The key was never handled before, so only the candle, not focused, changed back.
        let changed = reset.filter { $0["type"] == "elementChanged" }.compactMap { $0["element"]?["id"] }
        #expect(changed == ["candle"])
    }

    // MARK: §5.18 timer and the time category

    @Test func aTimedLevelSaysItsClockOnArrivalPauseAndResume() throws {
        let modern = session(on: "room-wheels", version: "[1,1]")
        _ = send(modern, #"{"type":"wait","ms":10000}"#)
        let menu = json(send(modern, #"{"type":"menu"}"#))
        let paused = try #require(menu.first { $0["type"] == "timer" })
        #expect(paused["paused"] == true)
        #expect(paused["limitMs"] == 75_000)
        #expect(paused["remainingMs"] == 65_000)
        _ = send(modern, #"{"type":"wait","ms":300000}"#)
        let back = json(send(modern, #"{"type":"escape"}"#))
        let resumed = try #require(back.first { $0["type"] == "timer" })
        #expect(resumed["paused"] == false)
        #expect(resumed["remainingMs"] == 65_000)
        let said = json(send(modern, #"{"type":"wait","ms":5000}"#)).filter { $0["type"] == "announce" }
        #expect(said.map { $0["category"] } == ["time"])
    }

    @Test func theLevelScreenSaysItsHintsAndProgressItsLevelOnScreen() throws {
        let modern = session(on: "room-wheels", version: "[1,1]")
        let state = json(send(modern, #"{"type":"state"}"#))
        let screen = try #require(state.first { $0["type"] == "screen" })
        #expect(screen["hints"] == ["total": 2, "unlocked": 0])
        let progress = try #require(state.first { $0["type"] == "progress" })
        #expect(progress["onScreen"] == ["chapter": 1, "level": 5])
    }

    // MARK: §3 gen means the screen

    @Test func hintNoticesAndTimeMarksLeaveGenAlone() throws {
        let modern = session(on: "room-wheels", version: "[1,1]")
        let before = try #require(json(send(modern, #"{"type":"ping"}"#)).last?["gen"])
        // 30 s: a hint notice and time announcements fall due.
        let later = json(send(modern, #"{"type":"wait","ms":30000}"#))
        #expect(later.contains { $0["type"] == "announce" && $0["category"] == "hint" })
        #expect(later.allSatisfy { $0["gen"] == before })
        let acted = json(send(modern, #"{"type":"next","ifGen":\#(before.intValue ?? -1)}"#))
        #expect(!acted.contains { $0["type"] == "error" })
    }

    // MARK: §4.19 batch is atomic

    @Test func aBatchWithARefusedCommandLeavesStateGenAndSeqAsBefore() throws {
        let modern = session(on: "room-latch", version: "[1,1]")
        let ping = try #require(send(modern, #"{"type":"ping"}"#).last)
        let focus = modern.engine.focus
        let refused = send(
            modern,
            #"{"type":"batch","id":"b","commands":[{"type":"next"},{"type":"next"},{"type":"focus","element":"nope"}]}"#
        )
        #expect(refused.map(\.seq) == [ping.seq + 1, ping.seq + 2])
        let error = try #require(json(refused).first)
        #expect(error["code"] == "invalid_params")
        #expect(error["field"] == "commands[2].element")
        #expect(refused.last?.generation == ping.generation)
        #expect(modern.engine.focus == focus)
    }

    @Test func aBatchThatWouldSaveSavesNothingWhenRefused() throws {
        let store = InMemorySaveStore(
            SaveData(adventureID: Self.example.id, completed: [], current: "room-latch")
        )
        let session = SessionHost(
            adventure: Self.example,
            options: EngineOptions(seed: 1),
            store: store,
            clock: VirtualClock()
        )
        _ = session.start()
        let saves = store.saveCount
        let refused = send(
            session,
            #"{"type":"batch","commands":[{"type":"activate","element":"warm-handle"},{"type":"focus","element":"nope"}]}"#
        )
        #expect(types(refused) == ["error", "done"])
        #expect(store.saveCount == saves)
        #expect(session.engine.progress.completed.isEmpty)
    }
}

extension JSONValue {
    fileprivate var arrayValue: [JSONValue]? { if case .array(let array) = self { array } else { nil } }
    fileprivate var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    fileprivate subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }
}
