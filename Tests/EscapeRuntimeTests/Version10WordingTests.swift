// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import Testing

/// What a session speaking a later version says beside its events for protocol 1.0 (`efb serve` words
/// them anew for a 1.0 client) tells what a session speaking 1.0 sends.
struct Version10WordingTests {
    /// A session of the example on its dials level, after a `hello` in `version` that wants valid actions.
    private static func session(version: String) -> SessionHost {
        let levels = Protocol11Tests.levels
        let save = SaveData(
            adventureID: Protocol11Tests.example.id,
            completed: Array(levels.prefix { $0 != "room-wheels" }),
            current: "room-wheels"
        )
        let session = SessionHost(
            adventure: Protocol11Tests.example,
            options: EngineOptions(hintInterval: 30_000, seed: 1),
            store: InMemorySaveStore(save),
            clock: VirtualClock()
        )
        _ = session.start()
        _ = send(session, #"{"type":"hello","id":"h","protocol":\#(version),"want":["validActions"]}"#)
        _ = send(session, #"{"type":"focus","element":"left-wheel","id":"f"}"#)
        return session
    }

    private static func send(_ session: SessionHost, _ line: String) -> [StampedEvent] {
        session.handle(.line(Array(line.utf8)))
    }

    /// The type of an event, as the wire names it.
    private static func type(_ event: Event) -> String {
        switch event {
        case .game(.focus): "focus"
        case .game(.elementChanged): "elementChanged"
        case .game(.announce): "announce"
        case .game(.sound): "sound"
        case .game: "game"
        case .validActions: "validActions"
        case .progress: "progress"
        case .done: "done"
        case .idle: "idle"
        case .hello, .error, .snapshot, .observation, .role, .bye, .ended: "other"
        }
    }

    /// Turning the focused wheel changes it and leaves the focus where it is: 1.0 says so with a second
    /// `focus`, which valid actions follow after the command's last event; 1.3 says `elementChanged`,
    /// which none follow, and carries 1.0's words beside its events.
    @Test func aChangedFocusedElementIsWordedFor10BesideA13Event() throws {
        let turn = #"{"type":"adjust","direction":"increment","id":"t"}"#
        let in10 = Self.send(Self.session(version: "1"), turn)
        let in13 = Self.send(Self.session(version: "[1,3]"), turn)
        #expect(in10.map { Self.type($0.event) }.suffix(3) == ["focus", "validActions", "done"])
        #expect(!in13.contains { Self.type($0.event) == "validActions" })
        // 1.0's words, from 1.3's events and what each carries for 1.0.
        var worded: [String] = []
        for stamped in in13 {
            switch stamped.event {
            case .game(.elementChanged):
                if let focus = stamped.in10.focus {
                    worded.append("focus")
                    #expect(in10.contains { $0.event == .game(.focus(focus)) })
                }
            case .idle:
                break
            default:
                worded.append(Self.type(stamped.event))
            }
            if let after = stamped.in10.validActionsAfter {
                worded.append(Self.type(after))
                #expect(in10.contains { $0.event == after })
            }
        }
        #expect(worded == in10.map { Self.type($0.event) })
        let carrier = try #require(in13.lastIndex { $0.in10.validActionsAfter != nil })
        #expect(in13[(carrier + 1)...].map { Self.type($0.event) } == ["done"])
    }
}
