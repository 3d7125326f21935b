// SPDX-License-Identifier: Apache-2.0
/// A gesture a player makes: one of the screen reader's gestures, or one of the game's own requests
/// that a front end puts on a key.
///
/// Gestures are what front ends put on keys and what teaching texts name keys for. The cases are in
/// the order the adventure's closing text lists the player's keys. A gesture has no name here: how
/// the protocol, adventure files and snapshots spell it is the wire adapter's business
/// (`Gesture.wireName` in EscapeProtocol).
public enum Gesture: CaseIterable, Sendable, Hashable {
    /// Move focus to the next element (swipe right).
    case next
    /// Move focus to the previous element (swipe left).
    case previous
    /// Move focus to the first element.
    case first
    /// Move focus to the last element.
    case last
    /// Activate the focused element (double tap).
    case activate
    /// Read on in a long text: a front end's own gesture (a Braille display pans), never sent.
    case pan
    /// Turn the rotor.
    case rotor
    /// Step through the rotor's items (swipe down or up).
    case rotorItem
    /// Perform a custom action of the focused element.
    case action
    /// Change the focused adjustable element's value.
    case adjust
    /// The two-finger double tap: the screen's main action.
    case magicTap
    /// The two-finger scrub: back out of where you are.
    case escape
    /// Ask for a hint.
    case hint
    /// Open the level-select menu.
    case menu
    /// Say the last announcement again.
    case `repeat`

    /// Whether making the gesture may change the game: `false` for the ones that only read.
    public var changesGame: Bool {
        switch self {
        case .next, .previous, .first, .last, .activate, .rotor, .rotorItem, .action, .adjust, .magicTap, .escape,
            .hint, .menu:
            true
        case .pan, .repeat:
            false
        }
    }

    /// Whether a level kind may need it: the gestures a chapter's teaching text names keys for (see
    /// ``LevelKind/gestures``), besides ``hint`` and ``menu``, which every chapter names.
    public var isLevelGesture: Bool {
        switch self {
        case .next, .previous, .activate, .rotor, .rotorItem, .action, .adjust, .magicTap: true
        case .first, .last, .pan, .escape, .hint, .menu, .repeat: false
        }
    }
}

extension GameCommand {
    /// The gesture the command is, or `nil` for the game's requests that no key stands for (focusing an
    /// element by id, typing a text, going to a level, replaying, the assistive switch).
    public var gesture: Gesture? {
        switch self {
        case .next: .next
        case .previous: .previous
        case .first: .first
        case .last: .last
        case .activate: .activate
        case .rotor: .rotor
        case .rotorItem: .rotorItem
        case .action: .action
        case .adjust: .adjust
        case .magicTap: .magicTap
        case .escape: .escape
        case .hint: .hint
        case .menu: .menu
        case .repeatAnnouncement: .repeat
        case .focus, .input, .goto, .replay, .assistive: nil
        }
    }

    /// Whether the command may change the game: every one but those whose gesture only reads
    /// (``Gesture/changesGame``).
    public var changesGame: Bool { gesture?.changesGame ?? true }
}
