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
/// A value whose fields live in one box, copied on write: the engine hands the screen on show to
/// several of its parts each command, and a copy is then one reference count rather than one for each
/// of its texts and lists; two screens sharing a box are equal at once.
public struct Screen: Sendable, Hashable {
    /// The fields.
    ///
    /// Changed only through ``Screen``'s accessors, and only when this box is the screen's alone (a
    /// shared box is copied first), so no two threads ever change or read one being changed.
    private final class Fields: @unchecked Sendable {
        var id: String
        var kind: ScreenKind
        var title: String
        var elements: [Element]
        var magicTap: ScreenGesture?
        var escape: ScreenGesture?
        var hints: HintCount?
        var chapterID: String?

        init(
            id: String,
            kind: ScreenKind,
            title: String,
            elements: [Element],
            magicTap: ScreenGesture?,
            escape: ScreenGesture?,
            hints: HintCount?,
            chapterID: String?
        ) {
            self.id = id
            self.kind = kind
            self.title = title
            self.elements = elements
            self.magicTap = magicTap
            self.escape = escape
            self.hints = hints
            self.chapterID = chapterID
        }

        func copy() -> Fields {
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
        }
    }

    private var fields: Fields

    /// The box, this screen's alone, to change.
    private var unique: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
            return fields
        }
    }

    /// Stable identifier (`intro-1`, `chapter-cellar`, `level-cellar-2`, `menu`, ...).
    public var id: String {
        get { fields.id }
        set { unique.id = newValue }
    }
    /// What kind of screen this is.
    public var kind: ScreenKind {
        get { fields.kind }
        set { unique.kind = newValue }
    }
    /// The title a screen reader announces on arrival.
    public var title: String {
        get { fields.title }
        set { unique.title = newValue }
    }
    /// The elements in reading order.
    public var elements: [Element] {
        get { fields.elements }
        _modify { yield &unique.elements }
    }
    /// What magic tap does here, or `nil` when it does nothing.
    public var magicTap: ScreenGesture? {
        get { fields.magicTap }
        set { unique.magicTap = newValue }
    }
    /// What escape does here, or `nil` when it does nothing.
    public var escape: ScreenGesture? {
        get { fields.escape }
        set { unique.escape = newValue }
    }
    /// On a level: how many hints it has and how many the player has been told are unlocked.
    public var hints: HintCount? {
        get { fields.hints }
        set { unique.hints = newValue }
    }
    /// On a chapter page or a level: the chapter's id (sent in protocol 1.2).
    public var chapterID: String? {
        get { fields.chapterID }
        set { unique.chapterID = newValue }
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
        fields = Fields(
            id: id,
            kind: kind,
            title: title,
            elements: elements,
            magicTap: magicTap,
            escape: escape,
            hints: hints,
            chapterID: chapterID
        )
    }

    /// Whether the two say the same: the same box, or the same fields.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        if lhs.fields === rhs.fields { return true }
        let left = lhs.fields
        let right = rhs.fields
        return left.id == right.id && left.kind == right.kind && left.title == right.title
            && left.elements == right.elements && left.magicTap == right.magicTap && left.escape == right.escape
            && left.hints == right.hints && left.chapterID == right.chapterID
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.id)
        hasher.combine(fields.kind)
        hasher.combine(fields.title)
        hasher.combine(fields.elements)
        hasher.combine(fields.magicTap)
        hasher.combine(fields.escape)
        hasher.combine(fields.hints)
        hasher.combine(fields.chapterID)
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
