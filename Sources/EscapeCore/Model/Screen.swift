/// The kinds of screen the game shows.
public enum ScreenKind: String, Sendable, Hashable, CaseIterable {
    /// One page of the opening instructions.
    case intro
    /// A chapter's title page, which teaches the interaction its levels need.
    case chapter
    /// A puzzle.
    case level
    /// The level-select menu.
    case menu
    /// Shown while the player's assistive technology is gone.
    case assistive
    /// The game-end screen.
    case end
}

/// What a screen-wide gesture (magic tap or escape) does on a screen.
public struct ScreenGesture: Sendable, Hashable {
    /// A stable name for what happens (`continue`, `hint`, `menu`, `back`, ...).
    public var action: String
    /// The same in the player's words.
    public var label: String

    /// Creates a gesture meaning.
    public init(action: String, label: String) {
        self.action = action
        self.label = label
    }
}

/// A whole screen: an ordered list of elements and the meaning of the screen-wide gestures.
public struct Screen: Sendable, Hashable {
    /// Stable identifier (`intro-1`, `chapter-cellar`, `level-cellar-2`, `menu`, ...).
    public var id: String
    /// What kind of screen this is.
    public var kind: ScreenKind
    /// The title a screen reader announces on arrival.
    public var title: String
    /// The elements in reading order.
    public var elements: [Element]
    /// What magic tap does here, or `nil` when it does nothing.
    public var magicTap: ScreenGesture?
    /// What escape does here, or `nil` when it does nothing.
    public var escape: ScreenGesture?

    /// Creates a screen.
    public init(
        id: String,
        kind: ScreenKind,
        title: String,
        elements: [Element],
        magicTap: ScreenGesture?,
        escape: ScreenGesture?
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.elements = elements
        self.magicTap = magicTap
        self.escape = escape
    }
}
