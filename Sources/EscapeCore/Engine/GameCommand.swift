// SPDX-License-Identifier: Apache-2.0
/// A direction for the rotor and for element navigation.
public enum Direction: String, Sendable, Hashable, CaseIterable {
    /// Forwards.
    case next
    /// Backwards.
    case previous
}

/// A direction for adjustable elements.
public enum AdjustDirection: String, Sendable, Hashable, CaseIterable {
    /// Up by one step.
    case increment
    /// Down by one step.
    case decrement
    /// To the first value (protocol 1.3).
    case first
    /// To the last value (protocol 1.3).
    case last

    /// The directions that go one step: what every protocol version takes, and what valid actions list.
    public static let steps: [AdjustDirection] = [.increment, .decrement]

    /// Whether it goes one step, rather than to an end.
    public var isStep: Bool { self == .increment || self == .decrement }
}

/// Picks a custom action of the focused element.
public enum ActionSelector: Sendable, Hashable {
    /// By its name.
    case name(String)
    /// By its 1-based position in the element's list.
    case index(Int)
}

/// What a front end asks of the game: the screen-reader gestures and the game's own requests.
///
/// Session-level requests (the handshake, pings, waiting, quitting) are not here: they never change
/// the game.
public enum GameCommand: Sendable, Hashable {
    /// Move focus to the next element (swipe right).
    case next
    /// Move focus to the previous element (swipe left).
    case previous
    /// Move focus to the first element.
    case first
    /// Move focus to the last element.
    case last
    /// Move focus to the element with this id.
    case focus(element: String)
    /// Activate the focused element (double tap), or first focus the one named.
    case activate(element: String?)
    /// Turn the rotor to the next or previous of the focused element's rotors.
    case rotor(Direction)
    /// Step through the current rotor's items (swipe down or up).
    case rotorItem(Direction)
    /// Perform a custom action of the focused element.
    case action(ActionSelector)
    /// Change the focused adjustable element's value.
    case adjust(AdjustDirection)
    /// Set the text of the focused text field, or of the one named.
    case input(text: String, element: String?)
    /// The two-finger double tap: the screen's main action.
    case magicTap
    /// The two-finger scrub: back out of where you are.
    case escape
    /// Ask for a hint.
    case hint
    /// Open the level-select menu.
    case menu
    /// Go to a level by its 1-based chapter and level numbers; unlocked levels only.
    case goto(chapter: Int, level: Int)
    /// Start the game over.
    case replay
    /// The front end's assistive output went away (`false`) or came back (`true`).
    case assistive(active: Bool)
    /// Say the last announcement again.
    case repeatAnnouncement
}
