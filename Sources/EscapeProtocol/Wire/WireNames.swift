// SPDX-License-Identifier: Apache-2.0
public import EscapeCore

// The one place where gestures and commands get their wire names: the `type` of a command, the keys of
// `hello`'s `keys`. Adventure files (`messages.gestureNames`) and snapshots spell gestures the same way.

extension Gesture {
    /// The gesture's name on the wire: its command's `type`, its key in `hello`'s `keys`.
    public var wireName: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .first: "first"
        case .last: "last"
        case .activate: "activate"
        case .pan: "pan"
        case .rotor: "rotor"
        case .rotorItem: "rotorItem"
        case .action: "action"
        case .adjust: "adjust"
        case .magicTap: "magicTap"
        case .escape: "escape"
        case .hint: "hint"
        case .menu: "menu"
        case .repeat: "repeat"
        }
    }

    /// The gesture the wire calls `wireName`; `nil` for any other name.
    public init?(wireName: String) {
        guard let gesture = Self.byWireName[wireName] else { return nil }
        self = gesture
    }

    private static let byWireName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.wireName, $0) })

    /// `names` with the gestures spelled as on the wire.
    public static func wireNamed(_ names: [Gesture: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: names.map { ($0.key.wireName, $0.value) })
    }

    /// The entries of `names` whose keys are gestures' wire names, by gesture; other names are left out.
    public static func fromWireNamed(_ names: [String: String]) -> [Gesture: String] {
        var gestures: [Gesture: String] = [:]
        for (name, value) in names {
            if let gesture = Gesture(wireName: name) { gestures[gesture] = value }
        }
        return gestures
    }
}

/// What a command object's `type` says it is, without its fields.
enum CommandType: CaseIterable, Sendable, Hashable {
    case hello
    case next
    case previous
    case first
    case last
    case focus
    case activate
    case rotor
    case rotorItem
    case action
    case adjust
    case input
    case magicTap
    case escape
    case hint
    case menu
    case goto
    case replay
    case assistive
    case `repeat`
    case state
    case ping
    case wait
    case quit
    case validActions
    case observe
    case snapshot
    case restore
    case batch
    case cancel

    /// The `type` on the wire; a gesture's is the gesture's wire name.
    var wireName: String {
        switch self {
        case .next: Gesture.next.wireName
        case .previous: Gesture.previous.wireName
        case .first: Gesture.first.wireName
        case .last: Gesture.last.wireName
        case .activate: Gesture.activate.wireName
        case .rotor: Gesture.rotor.wireName
        case .rotorItem: Gesture.rotorItem.wireName
        case .action: Gesture.action.wireName
        case .adjust: Gesture.adjust.wireName
        case .magicTap: Gesture.magicTap.wireName
        case .escape: Gesture.escape.wireName
        case .hint: Gesture.hint.wireName
        case .menu: Gesture.menu.wireName
        case .repeat: Gesture.repeat.wireName
        case .hello: "hello"
        case .focus: "focus"
        case .input: "input"
        case .goto: "goto"
        case .replay: "replay"
        case .assistive: "assistive"
        case .state: "state"
        case .ping: "ping"
        case .wait: "wait"
        case .quit: "quit"
        case .validActions: "validActions"
        case .observe: "observe"
        case .snapshot: "snapshot"
        case .restore: "restore"
        case .batch: "batch"
        case .cancel: "cancel"
        }
    }

    /// The command type the wire calls `wireName`; `nil` for an unknown command.
    init?(wireName: String) {
        guard let type = Self.byWireName[wireName] else { return nil }
        self = type
    }

    private static let byWireName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.wireName, $0) })
}

extension GameCommand {
    /// The command's `type` on the wire.
    var type: CommandType {
        switch self {
        case .next: .next
        case .previous: .previous
        case .first: .first
        case .last: .last
        case .focus: .focus
        case .activate: .activate
        case .rotor: .rotor
        case .rotorItem: .rotorItem
        case .action: .action
        case .adjust: .adjust
        case .input: .input
        case .magicTap: .magicTap
        case .escape: .escape
        case .hint: .hint
        case .menu: .menu
        case .goto: .goto
        case .replay: .replay
        case .assistive: .assistive
        case .repeatAnnouncement: .repeat
        }
    }

    /// The command's name on the wire, its `type`: `activate`, `goto`, ...
    public var wireName: String { type.wireName }
}

extension Command {
    /// The command's `type` on the wire; a gesture aimed at an element has the gesture's.
    var type: CommandType {
        switch self {
        case .hello: .hello
        case .game(let command), .onElement(_, let command): command.type
        case .state: .state
        case .ping: .ping
        case .wait: .wait
        case .quit: .quit
        case .validActions: .validActions
        case .observe: .observe
        case .snapshot: .snapshot
        case .restore: .restore
        case .batch: .batch
        case .cancel: .cancel
        }
    }

    /// The command's name on the wire, its `type`: `hello`, `activate`, `batch`, ...
    public var wireName: String { type.wireName }
}
