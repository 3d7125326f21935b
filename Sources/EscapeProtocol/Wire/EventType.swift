// SPDX-License-Identifier: Apache-2.0
public import EscapeCore

/// What an event's `type` says it is, without its members: the one place where events get their wire names.
public enum EventType: CaseIterable, Sendable, Hashable {
    /// `hello`: the engine introduces itself.
    case hello
    /// `done`: a command is settled.
    case done
    /// `error`: a command or line was refused.
    case error
    /// `bye`: the session is over.
    case bye
    /// `ended`: how the game ended.
    case ended
    /// `sound`: a cue, or a chapter's ambience.
    case sound
    /// `result`: the verdict on an answer.
    case result
    /// `announce`: something to say.
    case announce
    /// `screen`: a new screen, whole.
    case screen
    /// `focus`: the focused element.
    case focus
    /// `elementChanged`: an element of the screen on show changed while the focus stayed.
    case elementChanged
    /// `rotor`: the current rotor and item.
    case rotor
    /// `actions`: the custom actions of the focused element.
    case actions
    /// `timer`: a timed level's clock.
    case timer
    /// `progress`: the levels completed, and whether they are saved.
    case progress
    /// `idle`: the end of a burst of events the engine sent on its own.
    case idle
    /// `validActions`: what can be done now.
    case validActions
    /// `observation`: the game as one plain text.
    case observation
    /// `snapshot`: the whole state as an opaque blob.
    case snapshot
    /// `role`: a client's part in a shared game.
    case role

    /// The event's `type` on the wire, as the writer copies it (no name needs an escape).
    var staticWireName: StaticString {
        switch self {
        case .hello: "hello"
        case .done: "done"
        case .error: "error"
        case .bye: "bye"
        case .ended: "ended"
        case .sound: "sound"
        case .result: "result"
        case .announce: "announce"
        case .screen: "screen"
        case .focus: "focus"
        case .elementChanged: "elementChanged"
        case .rotor: "rotor"
        case .actions: "actions"
        case .timer: "timer"
        case .progress: "progress"
        case .idle: "idle"
        case .validActions: "validActions"
        case .observation: "observation"
        case .snapshot: "snapshot"
        case .role: "role"
        }
    }

    /// The event's `type` on the wire: `hello`, `screen`, `validActions`...
    public var wireName: String { staticWireName.description }

    /// The event type the wire calls `wireName`; `nil` for a name that names no event.
    public init?(wireName: String) {
        guard let type = Self.byWireName[wireName] else { return nil }
        self = type
    }

    private static let byWireName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.wireName, $0) })

    /// Whether events of this type carry `gen` in protocol 1.0 too (from 1.1, every event carries it).
    var carriesGenerationInEveryVersion: Bool {
        switch self {
        case .hello, .done, .screen, .focus, .elementChanged, .idle, .validActions, .observation, .snapshot, .role:
            true
        case .error, .bye, .ended, .sound, .result, .announce, .rotor, .actions, .timer, .progress:
            false
        }
    }
}

extension Event {
    /// The event's `type` on the wire.
    public var type: EventType {
        switch self {
        case .hello: .hello
        case .game(let event): event.type
        case .progress: .progress
        case .error: .error
        case .done: .done
        case .bye: .bye
        case .ended: .ended
        case .validActions: .validActions
        case .observation: .observation
        case .snapshot: .snapshot
        case .idle: .idle
        case .role: .role
        }
    }
}

extension GameEvent {
    /// The event's `type` on the wire: a chapter's ambience is a `sound`, the game's end an `ended`.
    public var type: EventType {
        switch self {
        case .screen: .screen
        case .focus: .focus
        case .announce: .announce
        case .rotor: .rotor
        case .actions: .actions
        case .result: .result
        case .sound, .ambient: .sound
        case .ended: .ended
        case .elementChanged: .elementChanged
        case .timer: .timer
        }
    }
}
