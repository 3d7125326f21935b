// SPDX-License-Identifier: Apache-2.0
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
    /// What a screen-wide gesture does; the raw values are the wire form (a screen's
    /// `magicTap.action` and `escape.action`).
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Turn to the next page of the introduction, or to the first chapter after the last page.
        case continueIntro = "continue"
        /// Leave the introduction for the first chapter.
        case skipIntro
        /// Start the chapter shown: its first level, or the one the player was on.
        case begin
        /// Say the next unlocked hint of the level.
        case hint
        /// Try the puzzle as it stands (a dials lock's combination).
        case tryPuzzle = "try"
        /// Open the level-select menu.
        case menu
        /// Close the menu, back to the screen under it.
        case back
        /// Start the game over.
        case replay
    }

    /// What happens.
    public var action: Action
    /// The same in the player's words.
    public var label: String

    /// Creates a gesture meaning.
    public init(action: Action, label: String) {
        self.action = action
        self.label = label
    }
}

/// A whole screen: an ordered list of elements and the meaning of the screen-wide gestures.
///
/// Its fields are kept in one box its copies share: the engine hands the screen on show to several of
/// its parts each command.
public struct Screen: Sendable, Hashable {
    private struct Fields: Sendable, Hashable {
        var id: String
        var kind: ScreenKind
        var title: String
        var elements: [Element]
        var magicTap: ScreenGesture?
        var escape: ScreenGesture?
        var hints: HintCount?
        var chapterID: String?
    }

    /// The box its copies share, never changed: changing a field makes a new one.
    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var box: Box

    /// The fields, read where they are.
    private var fields: Fields { box.fields }

    /// Changes the fields in a new box.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    /// Stable identifier (`intro-1`, `chapter-cellar`, `level-cellar-2`, `menu`, ...).
    public var id: String {
        get { fields.id }
        set { change { $0.id = newValue } }
    }
    /// What kind of screen this is.
    public var kind: ScreenKind {
        get { fields.kind }
        set { change { $0.kind = newValue } }
    }
    /// The title a screen reader announces on arrival.
    public var title: String {
        get { fields.title }
        set { change { $0.title = newValue } }
    }
    /// The elements in reading order.
    public var elements: [Element] {
        get { fields.elements }
        set { change { $0.elements = newValue } }
    }
    /// What magic tap does here, or `nil` when it does nothing.
    public var magicTap: ScreenGesture? {
        get { fields.magicTap }
        set { change { $0.magicTap = newValue } }
    }
    /// What escape does here, or `nil` when it does nothing.
    public var escape: ScreenGesture? {
        get { fields.escape }
        set { change { $0.escape = newValue } }
    }
    /// On a level: how many hints it has and how many the player has been told are unlocked.
    public var hints: HintCount? {
        get { fields.hints }
        set { change { $0.hints = newValue } }
    }
    /// On a chapter page or a level: the chapter's id (sent in protocol 1.2).
    public var chapterID: String? {
        get { fields.chapterID }
        set { change { $0.chapterID = newValue } }
    }

    /// Creates a screen.
    public init(
        id: String,
        kind: ScreenKind,
        title: String,
        elements: [Element],
        magicTap: ScreenGesture?,
        escape: ScreenGesture?,
        hints: HintCount? = nil,
        chapterID: String? = nil
    ) {
        box = Box(
            Fields(
                id: id,
                kind: kind,
                title: title,
                elements: elements,
                magicTap: magicTap,
                escape: escape,
                hints: hints,
                chapterID: chapterID
            )
        )
    }

    /// Whether the two say the same: the same box, or equal fields.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }
}

/// A level's hints: how many there are, how many are unlocked.
public struct HintCount: Sendable, Hashable {
    /// How many hints the level has.
    public var total: Int
    /// How many of them the player has been told are unlocked.
    public var unlocked: Int

    /// Creates a count.
    public init(total: Int, unlocked: Int) {
        self.total = total
        self.unlocked = unlocked
    }
}
