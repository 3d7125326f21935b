// SPDX-License-Identifier: Apache-2.0
/// A whole adventure in one locale: the story, its puzzles and the engine's own sentences.
///
/// Adventures are data, loaded from JSON files (see the EscapeContent module); this type is their
/// validated, in-memory form.
public struct Adventure: Sendable, Hashable, Decodable {
    /// The newest adventure file format this engine reads.
    public static let currentFormat = 1

    /// The file format version.
    public var format: Int
    /// Identifies the adventure across locales (saves remember it).
    public var id: String
    /// BCP 47 language tag of every sentence in the file (`en`, `fr`).
    public var locale: String
    /// The adventure's title.
    public var title: String
    /// The opening instructions, one page after another.
    public var intro: [Page]
    /// The chapters in playing order.
    public var chapters: [Chapter]
    /// The game-end page.
    public var ending: Page
    /// The engine's own sentences in this locale.
    public var messages: Messages
    /// What each gesture is called where the player's keys are named: ``Messages/gestureNames`` by
    /// gesture, filled in by whoever reads the file (the file spells gestures as the protocol does).
    public var gestureWords: [Gesture: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case format, id, locale, title, intro, chapters, ending, messages
    }
}

/// A page of text: an intro instruction or the ending.
public struct Page: Sendable, Hashable, Decodable {
    /// Read as the screen's heading.
    public var title: String
    /// The body.
    public var text: String
}

/// A chapter: a title page that teaches one interaction, and the levels that use it.
public struct Chapter: Sendable, Hashable, Decodable {
    /// Unique among the adventure's chapters.
    public var id: String
    /// The chapter's title.
    public var title: String
    /// Teaches the interaction the chapter's levels need.
    public var description: String
    /// The levels in playing order.
    public var levels: [Level]
    /// A sound a front end may loop while the chapter lasts (`wind-in-a-shaft`, say).
    public var ambient: Ambience?
}

/// One puzzle.
public struct Level: Sendable, Hashable, Decodable {
    /// Unique in the whole adventure; saves refer to levels by it.
    public var id: String
    /// The level's title.
    public var title: String
    /// The story that sets the scene.
    public var story: String
    /// Hints, unlocked one by one over time; may be empty.
    public var hints: [String]
    /// Said when the level is solved.
    public var solved: String
    /// The puzzle itself.
    public var puzzle: Puzzle
    /// Seconds the player has before the torch goes out and the level starts over; `nil`: no limit.
    public var timeLimit: Int?

    private enum CodingKeys: String, CodingKey {
        case id, title, story, hints, solved, kind, puzzle, timeLimit
    }

    /// Decodes a level, choosing the puzzle type from its `kind`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        story = try container.decode(String.self, forKey: .story)
        hints = try container.decodeIfPresent([String].self, forKey: .hints) ?? []
        solved = try container.decode(String.self, forKey: .solved)
        timeLimit = try container.decodeIfPresent(Int.self, forKey: .timeLimit)
        let kind = try container.decode(String.self, forKey: .kind)
        guard let type = LevelKinds.named(kind) else {
            let known = LevelKinds.all.map { kind in kind.kind }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .kind,
                in: container,
                debugDescription: "unknown level kind \"\(kind)\"; expected one of \(known)"
            )
        }
        puzzle = try type.puzzle(from: container.superDecoder(forKey: .puzzle))
    }
}

/// A question and answer buttons; exactly one is right.
public struct ClosedQuestion: Sendable, Hashable, Decodable {
    /// One answer button.
    public struct Answer: Sendable, Hashable, Decodable {
        /// Element id of the button, unique in the level.
        public var id: String
        /// The button's label.
        public var label: String
        /// Whether this is the right answer.
        public var correct: Bool?
        /// Said when this wrong answer is chosen; the puzzle's `wrong` otherwise.
        public var feedback: String?
    }

    /// The question.
    public var question: String
    /// The answers, shown in an order shuffled by the game's seeded generator.
    public var answers: [Answer]
    /// Said after a wrong answer.
    public var wrong: String
}

/// A question and a text field; any of the accepted answers is right.
public struct OpenQuestion: Sendable, Hashable, Decodable {
    /// The question.
    public var question: String
    /// The text field's label.
    public var field: String
    /// Right answers, compared ignoring case, diacritics and surrounding or repeated spaces.
    public var accepted: [String]
    /// Said after a wrong answer.
    public var wrong: String
}

/// Clues to read and a locked door whose rotor offers candidate codes.
public struct RotorPuzzle: Sendable, Hashable, Decodable {
    /// The clues, each its own element, also offered by the door's clue rotor.
    public var clues: [String]
    /// The door's label.
    public var door: String
    /// The name of the rotor of codes.
    public var rotor: String
    /// The name of the rotor that repeats the clues.
    public var clueRotor: String
    /// Candidate codes in rotor order.
    public var codes: [String]
    /// The right code; one of `codes`.
    public var answer: String
    /// Said when a wrong code is chosen.
    public var wrong: String
}

/// Objects, each offering custom actions; one action per object is right.
public struct CustomActionPuzzle: Sendable, Hashable, Decodable {
    /// One custom action.
    public struct Action: Sendable, Hashable, Decodable {
        /// The action's name, as a screen reader lists it.
        public var name: String
        /// Said when it is performed.
        public var result: String
    }

    /// One object of the puzzle.
    public struct Object: Sendable, Hashable, Decodable {
        /// Element id, unique in the level.
        public var id: String
        /// The object's label.
        public var label: String
        /// The grammatical gender of the label's noun, for the words that agree with it; `nil` is masculine.
        public var gender: Gender?
        /// Its actions.
        public var actions: [Action]
        /// The name of its right action.
        public var correct: String
    }

    /// A noun's grammatical gender, in the languages that have one.
    public enum Gender: String, Sendable, Hashable, Decodable {
        /// Masculine, or no gender: the words as ``Messages/noActionYet`` has them.
        case masculine
        /// Feminine: ``Messages/noActionYetFeminine``.
        case feminine
    }

    /// The objects in reading order.
    public var objects: [Object]
    /// Said when every object has an action and some are wrong; the choices are then reset.
    public var wrong: String
}

/// A lock of adjustable dials: turn each to its value, then try the combination.
public struct DialsPuzzle: Sendable, Hashable, Decodable {
    /// One dial.
    public struct Dial: Sendable, Hashable, Decodable {
        /// Its element id.
        public var id: String
        /// Its label.
        public var label: String
        /// The values it turns through, in order; incrementing after the last wraps to the first.
        public var values: [String]
        /// The value it starts at.
        public var start: String
    }

    /// The lock's inscription.
    public var prompt: String
    /// The dials in reading order.
    public var dials: [Dial]
    /// The right value of each dial, in the same order.
    public var combination: [String]
    /// The label of the button that tries the combination (magic tap does the same).
    public var tryButton: String
    /// Said when the combination is wrong.
    public var wrong: String
}
