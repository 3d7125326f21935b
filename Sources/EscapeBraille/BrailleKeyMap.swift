// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// What a key asks the Braille front end to do.
package enum BrailleIntent: Sendable, Hashable {
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
    /// Moves the caret to the start (`previous`) or the end (`next`) of the answer.
    case caretToEdge(Direction)
    /// The display went away.
    case offline
}

/// The key binding: which BRLTTY command does what in the game.
///
/// Navigation uses the keys every display has (line up and down, top and bottom, panning, routing);
/// the game's own gestures use BRLTTY commands a game has no other use for, so every display that
/// BRLTTY supports can play. BRLTTY's own key help (HELP), command learn mode (LEARN) and preferences
/// menu (PREFMENU) stay BRLTTY's. The table is in docs/BRAILLE.md and is sent to the engine in `hello`.
///
/// BrlAPI tells which commands a display binds but not which of its keys a command is on, so a key is
/// described by what BRLTTY's key table calls the command, in the words of BRLTTY's own key help and
/// learn mode, with the command's name: the player finds the key in BRLTTY's key help for the display.
package enum BrailleKeyMap {
    /// One line of the binding table.
    package struct Binding: Sendable, Hashable {
        /// The gesture (its key is named in the `keys` of `hello`).
        package var gesture: Gesture
        /// What the player reads in docs/BRAILLE.md.
        package var meaning: String
        /// The BRLTTY commands, main one first (previous before next for a pair).
        package var commands: [BrailleCommand]
        /// Keys that are not BRLTTY commands (routing keys, keyboard keys): the words that say them.
        package var otherKeys: BrailleWords.Key?

        /// The BRLTTY command names, then the other keys, for docs/BRAILLE.md.
        package var keys: [String] {
            commands.map(\.brlttyName) + (otherKeys.map { [BrailleWords(.english)($0)] } ?? [])
        }
    }

    /// The binding, in the order docs/BRAILLE.md lists it.
    package static let bindings: [Binding] = [
        Binding(gesture: .previous, meaning: "previous element", commands: [.lineUp], otherKeys: nil),
        Binding(gesture: .next, meaning: "next element", commands: [.lineDown], otherKeys: nil),
        Binding(gesture: .first, meaning: "first element", commands: [.top], otherKeys: nil),
        Binding(gesture: .last, meaning: "last element", commands: [.bottom], otherKeys: nil),
        Binding(
            gesture: .activate,
            meaning: "activate the element (a routing key on any of its cells)",
            commands: [],
            otherKeys: .activateKeys
        ),
        Binding(
            gesture: .pan,
            meaning: "read the rest of a long text, then its hint",
            commands: [.fullWindowLeft, .fullWindowRight],
            otherKeys: nil
        ),
        Binding(
            gesture: .rotor,
            meaning: "turn the rotor to the previous / next rotor",
            commands: [.previousParagraph, .nextParagraph],
            otherKeys: nil
        ),
        Binding(
            gesture: .rotorItem,
            meaning: "previous / next item of the rotor",
            commands: [.previousDifferentLine, .nextDifferentLine],
            otherKeys: nil
        ),
        Binding(
            gesture: .action,
            meaning: "select the previous / next custom action; activate performs it",
            commands: [.previousPrompt, .nextPrompt],
            otherKeys: nil
        ),
        Binding(
            gesture: .adjust,
            meaning: "increment / decrement an adjustable element",
            commands: [.attributeUp, .attributeDown],
            otherKeys: nil
        ),
        Binding(gesture: .magicTap, meaning: "magic tap: the screen's main action", commands: [.home], otherKeys: nil),
        Binding(gesture: .escape, meaning: "escape: back out", commands: [.back], otherKeys: nil),
        Binding(gesture: .hint, meaning: "ask for a hint", commands: [.trackCursor], otherKeys: nil),
        Binding(gesture: .menu, meaning: "the level menu", commands: [.info], otherKeys: nil),
        Binding(gesture: .repeat, meaning: "show the last announcement again", commands: [.return], otherKeys: nil),
    ]

    /// The keys by gesture, for `hello`, in English: what each key does on the player's display.
    package static var keyNames: [Gesture: String] { keyNames(in: .english) }

    /// The keys by gesture, for `hello`, described in `language`.
    ///
    /// A command is described as BRLTTY's key help and learn mode describe it, with its name: "the key
    /// for “go down one line” (LNDN)".
    package static func keyNames(in language: EngineWords.Language) -> [Gesture: String] {
        let words = BrailleWords(language)
        var names: [Gesture: String] = [:]
        for binding in bindings { names[binding.gesture] = describe(binding, in: words) }
        // The short words of the display are explained once, with the key a player learns first.
        names[.next] = words(.keyWithLegend, ["key": names[.next] ?? "", "legend": words(.legend)])
        return names
    }

    private static func describe(_ binding: Binding, in words: BrailleWords) -> String {
        if let other = binding.otherKeys { return words(other) }
        let said = BrailleCommandWords(words.language)
        let names = binding.commands.map(\.brlttyName).joined(separator: " / ")
        switch binding.commands.count {
        case 1: return words(.commandKey, ["command": said(binding.commands[0]), "name": names])
        default:
            return words(
                .commandKeyPair,
                ["first": said(binding.commands[0]), "second": said(binding.commands[1]), "names": names]
            )
        }
    }

    /// What a key does; `nil` when it does nothing in the game.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - editing: Whether the focus is in a text field (typing, arrows, Home, End and Enter then edit).
    ///   - onMenu: Whether the level menu is on show (INFO then closes it).
    /// - Returns: The intent, or `nil` for a key the game does not use.
    package static func intent(for key: BrailleKey, editing: Bool, onMenu: Bool = false) -> BrailleIntent? {
        switch key {
        // INFO opens the level menu, and on the menu closes it, as it enters and leaves BRLTTY's own
        // status display.
        case .command(.info): onMenu ? .game(.escape) : .game(.menu)
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
        case .home: editing ? .caretToEdge(.previous) : .game(.first)
        case .end: editing ? .caretToEdge(.next) : .game(.last)
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
        case .trackCursor: .game(.hint)
        case .info: .game(.menu)
        case .return: .game(.repeatAnnouncement)
        case .offline: .offline
        case .noop: nil
        }
    }
}
