public import EscapeCore

/// What a key asks the Braille front end to do.
public enum BrailleIntent: Sendable, Hashable {
    /// A gesture the engine carries out as it is.
    case game(GameCommand)
    /// Activate the focused element (or perform its selected custom action).
    case activate
    /// A routing key on a cell: activate, move the caret, or dismiss a message.
    case route(cell: Int)
    /// Show the previous or next part of a text longer than the display.
    case pan(Direction)
    /// Select the focused element's previous or next custom action.
    case selectAction(Direction)
    /// Type a character into the answer field.
    case type(Character)
    /// Delete the character before the caret.
    case deleteBackward
    /// Delete the character at the caret.
    case deleteForward
    /// Move the caret.
    case moveCaret(Direction)
    /// The display went away.
    case offline
}

/// The key binding: which BRLTTY command does what in the game.
///
/// Navigation uses the keys every display has (line up and down, top and bottom, panning, routing);
/// the game's own gestures use BRLTTY commands a game has no other use for, so every display that
/// BRLTTY supports can play. The table is in the README and is sent to the engine in `hello`.
public enum BrailleKeyMap {
    /// One line of the binding table.
    public struct Binding: Sendable, Hashable {
        /// The command name the engine knows the gesture by (the `keys` of `hello`).
        public var gesture: String
        /// What the player reads in the README.
        public var meaning: String
        /// The BRLTTY command names, main one first.
        public var keys: [String]
    }

    /// The binding, in the order the README lists it.
    public static let bindings: [Binding] = [
        Binding(gesture: "previous", meaning: "previous element", keys: ["LNUP", "up arrow"]),
        Binding(gesture: "next", meaning: "next element", keys: ["LNDN", "down arrow"]),
        Binding(gesture: "first", meaning: "first element", keys: ["TOP", "TOP_LEFT"]),
        Binding(gesture: "last", meaning: "last element", keys: ["BOT", "BOT_LEFT"]),
        Binding(
            gesture: "activate",
            meaning: "activate the element (a routing key on any of its cells)",
            keys: ["ROUTE", "Enter"]
        ),
        Binding(gesture: "pan", meaning: "read the rest of a long text, then its hint", keys: ["FWINLT", "FWINRT"]),
        Binding(
            gesture: "rotor",
            meaning: "turn the rotor to the previous / next rotor",
            keys: ["PRPGRPH", "NXPGRPH"]
        ),
        Binding(gesture: "rotorItem", meaning: "previous / next item of the rotor", keys: ["PRDIFLN", "NXDIFLN"]),
        Binding(
            gesture: "action",
            meaning: "select the previous / next custom action; activate performs it",
            keys: ["PRPROMPT", "NXPROMPT"]
        ),
        Binding(gesture: "adjust", meaning: "increment / decrement an adjustable element", keys: ["ATTRUP", "ATTRDN"]),
        Binding(gesture: "magicTap", meaning: "magic tap: the screen's main action", keys: ["HOME"]),
        Binding(gesture: "escape", meaning: "escape: back out", keys: ["BACK", "Escape"]),
        Binding(gesture: "hint", meaning: "hear a hint", keys: ["HELP"]),
        Binding(gesture: "menu", meaning: "the level menu", keys: ["INFO"]),
        Binding(gesture: "repeat", meaning: "repeat the last announcement", keys: ["RETURN"]),
    ]

    /// The key names by gesture, for `hello`.
    public static var keyNames: [String: String] {
        var names: [String: String] = [:]
        for binding in bindings { names[binding.gesture] = binding.keys.prefix(2).joined(separator: " / ") }
        return names
    }

    /// What a key does; `nil` when it does nothing in the game.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - editing: Whether the focus is in a text field (typing, arrows and Enter then edit).
    /// - Returns: The intent, or `nil` for a key the game does not use.
    public static func intent(for key: BrailleKey, editing: Bool) -> BrailleIntent? {
        switch key {
        case .command(let command): intent(for: command)
        case .route(let cell): .route(cell: cell)
        case .character(let character): editing ? .type(character) : nil
        case .dots(let dots): editing ? .type(Character(Unicode.Scalar(0x2800 + UInt32(dots)) ?? "\u{2800}")) : nil
        case .enter: .activate
        case .backspace: editing ? .deleteBackward : nil
        case .delete: editing ? .deleteForward : nil
        case .escape: .game(.escape)
        case .arrow(.up): .game(.previous)
        case .arrow(.down): .game(.next)
        case .arrow(.left): editing ? .moveCaret(.previous) : .pan(.previous)
        case .arrow(.right): editing ? .moveCaret(.next) : .pan(.next)
        case .other: nil
        }
    }

    private static func intent(for command: BrailleCommand) -> BrailleIntent? {
        switch command {
        case .lineUp: .game(.previous)
        case .lineDown: .game(.next)
        case .top, .topLeft: .game(.first)
        case .bottom, .bottomLeft: .game(.last)
        case .fullWindowLeft: .pan(.previous)
        case .fullWindowRight: .pan(.next)
        case .previousParagraph: .game(.rotor(.previous))
        case .nextParagraph: .game(.rotor(.next))
        case .previousDifferentLine: .game(.rotorItem(.previous))
        case .nextDifferentLine: .game(.rotorItem(.next))
        case .previousPrompt: .selectAction(.previous)
        case .nextPrompt: .selectAction(.next)
        case .attributeUp: .game(.adjust(.increment))
        case .attributeDown: .game(.adjust(.decrement))
        case .home: .game(.magicTap)
        case .back: .game(.escape)
        case .help: .game(.hint)
        case .info: .game(.menu)
        case .return: .game(.repeatAnnouncement)
        case .offline: .offline
        }
    }
}
