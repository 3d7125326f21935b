// SPDX-License-Identifier: Apache-2.0
/// One kind of level: its content as the adventure file gives it, the player's state on it, the
/// elements it puts on screen, and what gestures do to it.
///
/// This is the one extension point for level kinds: a new kind is a type conforming to this
/// protocol, in its own file, added to ``LevelKinds/all``. The flow (screens, hints, menu, saves)
/// and the front ends never look inside a kind.
public protocol LevelKind: Sendable, Hashable, Decodable {
    /// What the player has done so far on a level of this kind.
    associatedtype State: Sendable, Hashable, Codable

    /// The `kind` that names it in adventure files.
    static var kind: String { get }
    /// The gestures its chapter's teaching text names keys for (``Gesture/next``, ``Gesture/activate``,
    /// ...), in that order; every one is a level gesture (``Gesture/isLevelGesture``).
    static var gestures: [Gesture] { get }
    /// Whether magic tap tries the puzzle (a dials lock); otherwise it asks for a hint.
    static var magicTapTries: Bool { get }

    /// The state when the player arrives; `random` is the game's seeded generator.
    func start(using random: inout SeededGenerator) -> State
    /// The part of a fresh state that chance decided, as the ids it put in order (the answers'
    /// order on screen), kept in the save so a resumed level looks as it did; `nil` when chance
    /// decides nothing.
    func layout(of state: State) -> [String]?
    /// The fresh state `layout` describes, or `nil` when it is not a layout of this content.
    func start(from layout: [String]) -> State?
    /// The elements after the level's title and story.
    func elements(_ state: State, messages: Messages) -> [Element]
    /// Carries out a gesture aimed at the kind.
    ///
    /// - Throws: ``CommandRefusal`` when the gesture makes no sense here; the state is then unchanged.
    func respond(
        to gesture: PuzzleGesture,
        state: inout State,
        messages: Messages
    ) throws(CommandRefusal)
        -> PuzzleResponse
    /// The rotor of `element`, when it has one.
    func rotor(_ state: State, element: String) -> RotorState?
    /// What is wrong with this content beyond its shape, each with its path below the puzzle.
    func problems() -> [KindProblem]
    /// The counts the adventure limits bound, each with its path below the puzzle.
    func sizes() -> [KindSize]
    /// Whether a restored state fits this content.
    func fits(_ state: State) -> Bool
    /// Decodes a puzzle of this kind.
    static func puzzle(from decoder: any Decoder) throws -> Puzzle
}

extension LevelKind {
    /// Most kinds leave magic tap to hints.
    public static var magicTapTries: Bool { false }

    /// Most kinds have no rotor.
    public func rotor(_ state: State, element: String) -> RotorState? { nil }

    /// Most kinds leave nothing to chance.
    public func layout(of state: State) -> [String]? { nil }

    /// Most kinds leave nothing to chance, so have no layout to start from.
    public func start(from layout: [String]) -> State? { nil }

    /// Decodes the content and wraps it.
    public static func puzzle(from decoder: any Decoder) throws -> Puzzle {
        Puzzle(try Self(from: decoder))
    }
}

/// A gesture on a level, as the engine hands it to the level's kind; `element` is the focused one.
public enum PuzzleGesture: Sendable, Hashable {
    /// Activate (double tap).
    case activate(element: String)
    /// Set a text field's text.
    case input(text: String, element: String)
    /// Turn the rotor.
    case rotor(Direction, element: String)
    /// Step through the rotor's items.
    case rotorItem(Direction, element: String)
    /// Perform a custom action.
    case action(ActionSelector, element: String)
    /// Adjust an adjustable element.
    case adjust(AdjustDirection, element: String)
    /// The magic tap, for kinds whose magic tap tries the puzzle.
    case magicTap
}

/// What a kind says a gesture did.
public enum PuzzleResponse: Sendable, Hashable {
    /// The level is solved; `said` comes first (an action's result, say).
    case solved(said: [Announcement] = [])
    /// A wrong answer: the feedback is said after `said`; the player stays.
    case wrong(feedback: String, said: [Announcement] = [])
    /// Not an answer at all (an empty field, no code chosen): this is said.
    case malformed(String)
    /// The state changed: these sounds play, then these are said.
    case changed(sounds: [SoundCue] = [], said: [Announcement])
    /// Nothing happens.
    case nothing
}

/// A problem in a kind's content: where below `puzzle`, and what.
public struct KindProblem: Sendable, Hashable {
    /// The path below the puzzle (`.answers[1].id`), or empty for the puzzle itself.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }
}

/// A count the adventure limits bound.
public struct KindSize: Sendable, Hashable {
    /// The path below the puzzle.
    public var path: String
    /// How many there are.
    public var count: Int
    /// What they are, in the message ("answers", "codes").
    public var what: String
    /// The most there may be (one of ``AdventureLimits``).
    public var limit: Int

    /// Creates a size.
    public init(_ path: String, _ count: Int, _ what: String, limit: Int) {
        self.path = path
        self.count = count
        self.what = what
        self.limit = limit
    }
}

/// The level kinds the engine knows.
public enum LevelKinds {
    /// Every kind, by the name adventure files use.
    ///
    /// A new kind is added here, and nowhere else.
    public static let all: [any LevelKind.Type] = [
        ClosedQuestion.self, OpenQuestion.self, RotorPuzzle.self, CustomActionPuzzle.self, DialsPuzzle.self,
    ]

    /// The kind named `name`, if there is one.
    public static func named(_ name: String) -> (any LevelKind.Type)? {
        all.first { $0.kind == name }
    }

    /// Element ids the engine puts on level screens itself; a kind's own ids must differ.
    public static let reservedIDs: Set<String> = [
        Engine.titleID, Engine.storyID, Engine.questionID, Engine.answerFieldID, Engine.doorID, Engine.promptID,
        Engine.tryID,
    ]

    /// Problems with a list of element ids: empty, reserved or repeated.
    public static func idProblems(_ ids: [String], at path: String) -> [KindProblem] {
        var seen: Set<String> = []
        var problems: [KindProblem] = []
        for (index, id) in ids.enumerated() {
            if id.isEmpty || reservedIDs.contains(id) || id.hasPrefix("clue-") {
                problems.append(KindProblem("\(path)[\(index)].id", "\"\(id)\" is empty or reserved by the engine"))
            }
            if !seen.insert(id).inserted {
                problems.append(KindProblem("\(path)[\(index)].id", "duplicate id \"\(id)\""))
            }
        }
        return problems
    }
}

/// A level's puzzle: the content of one of the ``LevelKinds``.
public struct Puzzle: Sendable, Hashable {
    /// The content.
    public let content: any LevelKind

    /// Wraps a kind's content.
    public init(_ content: some LevelKind) {
        self.content = content
    }

    /// The kind's name.
    public var kind: String { type(of: content).kind }

    /// Whether `layout` describes a fresh state of this puzzle (see ``LevelKind/start(from:)``).
    public func accepts(layout: [String]) -> Bool {
        accepts(content, layout)
    }

    private func accepts<Kind: LevelKind>(_ content: Kind, _ layout: [String]) -> Bool {
        content.start(from: layout) != nil
    }

    /// Compares the contents.
    public static func == (lhs: Puzzle, rhs: Puzzle) -> Bool {
        AnyHashable(lhs.content) == AnyHashable(rhs.content)
    }

    /// Hashes the content.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(content))
    }
}

/// The player's state on a level's puzzle, whatever its kind; stored with its kind's name.
///
/// The two live in one immutable box: the engine copies and compares the state of the level on show
/// several times a command (before and after it, frame by frame), and a copy is then one reference
/// count rather than a copy of an existential value; two states sharing a box are equal at once,
/// which is what they are unless the command changed the puzzle (a new state, a new box).
struct PuzzleState: Sendable, Hashable, Codable {
    private final class Box: Sendable {
        let kind: String
        let value: any Sendable & Hashable & Codable

        init(kind: String, value: any Sendable & Hashable & Codable) {
            self.kind = kind
            self.value = value
        }
    }

    private let box: Box

    /// The kind's name.
    var kind: String { box.kind }
    /// The kind's own state.
    var value: any Sendable & Hashable & Codable { box.value }

    init(kind: String, value: any Sendable & Hashable & Codable) {
        box = Box(kind: kind, value: value)
    }

    /// Equal kinds with equal values; the values are compared as their own type, without boxing
    /// both in `AnyHashable` (which settling every command used to spend a tenth of its time on).
    static func == (lhs: PuzzleState, rhs: PuzzleState) -> Bool {
        if lhs.box === rhs.box { return true }
        return lhs.kind == rhs.kind && Self.equal(lhs.box.value, rhs.box.value)
    }

    /// Opens `rhs` too and compares the two types before the values, rather than casting `rhs` to
    /// `lhs`'s type (a dynamic cast, every time the engine asks whether a command changed anything).
    private static func equal<Value: Hashable>(_ lhs: Value, _ rhs: any Sendable & Hashable & Codable) -> Bool {
        func sameType<Other: Hashable>(_ other: Other) -> Bool {
            guard Other.self == Value.self else { return false }
            // The same type, so the same value reinterpreted as itself.
            return lhs == unsafeBitCast(other, to: Value.self)
        }
        return sameType(rhs)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        value.hash(into: &hasher)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, state
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        guard let type = LevelKinds.named(kind) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind")
        }
        box = Box(kind: kind, value: try Self.decodeState(of: type, from: container))
    }

    private static func decodeState<Kind: LevelKind>(
        of type: Kind.Type,
        from container: KeyedDecodingContainer<CodingKeys>
    ) throws -> any Sendable & Hashable & Codable {
        try container.decode(Kind.State.self, forKey: .state)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(value, forKey: .state)
    }
}
