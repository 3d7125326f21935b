// SPDX-License-Identifier: Apache-2.0
/// How urgently an announcement should be spoken.
public enum Priority: String, Sendable, Hashable, CaseIterable, Codable {
    /// After whatever is being said.
    case polite
    /// Interrupting whatever is being said.
    case assertive
}

/// What an announcement is, so a front end may style or filter it.
public enum AnnouncementCategory: String, Sendable, Hashable, CaseIterable, Codable {
    /// Story and descriptions.
    case narrative
    /// The game's response to what the player did.
    case feedback
    /// A hint, or news about hints.
    case hint
    /// Something went wrong.
    case error
    /// The player's own input, repeated back.
    case echo
    /// The time left on a timed level.
    case time
}

/// Something said to the player.
public struct Announcement: Sendable, Hashable, Codable {
    /// What to say.
    public var text: String
    /// How urgently.
    public var priority: Priority
    /// What kind of message it is.
    public var category: AnnouncementCategory

    /// Creates an announcement.
    public init(_ text: String, priority: Priority = .polite, category: AnnouncementCategory) {
        self.text = text
        self.priority = priority
        self.category = category
    }
}

/// The focused element and where it is on its screen.
public struct FocusState: Sendable, Hashable {
    /// The screen it belongs to.
    public var screen: String
    /// The element.
    public var element: Element
    /// Its 1-based position.
    public var index: Int
    /// How many elements the screen has.
    public var count: Int

    /// Creates a focus state.
    public init(screen: String, element: Element, index: Int, count: Int) {
        self.screen = screen
        self.element = element
        self.index = index
        self.count = count
    }
}

/// The rotor of the focused element: which one is current and which item it points at.
public struct RotorState: Sendable, Hashable {
    /// The element the rotor belongs to.
    public var element: String
    /// The current rotor's name.
    public var rotor: String
    /// Its 1-based position among the element's rotors.
    public var rotorIndex: Int
    /// How many rotors the element has.
    public var rotorCount: Int
    /// The current item, or `nil` before the first step.
    public var item: String?
    /// The current item's 1-based position, or `nil` before the first step.
    public var itemIndex: Int?
    /// How many items the rotor has.
    public var itemCount: Int

    /// Creates a rotor state.
    public init(
        element: String,
        rotor: String,
        rotorIndex: Int,
        rotorCount: Int,
        item: String?,
        itemIndex: Int?,
        itemCount: Int
    ) {
        self.element = element
        self.rotor = rotor
        self.rotorIndex = rotorIndex
        self.rotorCount = rotorCount
        self.item = item
        self.itemIndex = itemIndex
        self.itemCount = itemCount
    }
}

/// The custom actions of the focused element.
public struct ActionList: Sendable, Hashable {
    /// The element.
    public var element: String
    /// Its actions' names; their 1-based positions are the indices `action` takes.
    public var actions: [String]

    /// Creates a list.
    public init(element: String, actions: [String]) {
        self.element = element
        self.actions = actions
    }
}

/// How an answer was judged.
public enum Outcome: String, Sendable, Hashable, CaseIterable {
    /// The level is solved.
    case correct
    /// Wrong; the player stays on the level.
    case wrong
    /// Not an answer at all (an empty field, no code chosen).
    case malformed
}

/// The verdict on an answer.
public struct AnswerResult: Sendable, Hashable {
    /// The verdict.
    public var outcome: Outcome
    /// The level it is about.
    public var level: String

    /// Creates a verdict.
    public init(outcome: Outcome, level: String) {
        self.outcome = outcome
        self.level = level
    }
}

/// Where the player stands in the game.
public struct ProgressSummary: Sendable, Hashable {
    /// 1-based chapter of the current level, or `nil` once the game is finished.
    public var chapter: Int?
    /// 1-based level of the current level within its chapter, or `nil` once the game is finished.
    public var level: Int?
    /// Ids of the solved levels, in playing order.
    public var completed: [String]
    /// How many levels the adventure has.
    public var total: Int
    /// The level on show (under the menu or the assistive screen too), 1-based; `nil` elsewhere.
    public var onScreen: LevelNumber?
    /// The id of the current level's chapter, or `nil` once the game is finished (protocol 1.2).
    public var chapterID: String?
    /// Every chapter in order, with how many of its levels are solved (protocol 1.2).
    public var chapters: [ChapterProgress]

    /// Creates a summary.
    public init(
        chapter: Int?,
        level: Int?,
        completed: [String],
        total: Int,
        onScreen: LevelNumber?,
        chapterID: String? = nil,
        chapters: [ChapterProgress] = []
    ) {
        self.chapter = chapter
        self.level = level
        self.completed = completed
        self.total = total
        self.onScreen = onScreen
        self.chapterID = chapterID
        self.chapters = chapters
    }
}

/// One chapter's progress: its id, how many levels it has and how many of them are solved.
public struct ChapterProgress: Sendable, Hashable {
    /// The chapter's id, as in its `chapter-ID` screen.
    public var id: String
    /// How many of its levels are solved.
    public var completed: Int
    /// How many levels it has.
    public var total: Int

    /// Creates a chapter's progress.
    public init(id: String, completed: Int, total: Int) {
        self.id = id
        self.completed = completed
        self.total = total
    }
}

/// A level's place in the adventure, 1-based, as players count.
public struct LevelNumber: Sendable, Hashable {
    /// The chapter, from 1.
    public var chapter: Int
    /// The level within its chapter, from 1.
    public var level: Int

    /// Creates a level number.
    public init(chapter: Int, level: Int) {
        self.chapter = chapter
        self.level = level
    }
}

/// The torch's clock on a timed level, as the player would see it on a watch.
public struct TimerState: Sendable, Hashable {
    /// The level's time limit, in milliseconds.
    public var limitMs: Int64
    /// The time left, in milliseconds.
    public var remainingMs: Int64
    /// Whether the clock stands still (the menu or the assistive screen is over the level).
    public var paused: Bool

    /// Creates a timer state.
    public init(limitMs: Int64, remainingMs: Int64, paused: Bool) {
        self.limitMs = limitMs
        self.remainingMs = remainingMs
        self.paused = paused
    }
}

/// How a game ended.
public enum EndReason: String, Sendable, Hashable, CaseIterable {
    /// The player solved the last level.
    case escaped
    /// The front end asked to quit, or the process was asked to stop (SIGINT, SIGTERM).
    case quit
    /// The front end's input ended.
    case eof
}

/// What the game tells its front end, in order.
///
/// The session adds the protocol's own events.
public enum GameEvent: Sendable, Hashable {
    /// A new screen, whole.
    case screen(Screen)
    /// The focused element.
    case focus(FocusState)
    /// Something to say.
    case announce(Announcement)
    /// The current rotor and item. (Out of line: the largest of the payloads and one of the rarer, and
    /// every event is as large as its largest case.)
    indirect case rotor(RotorState)
    /// The custom actions of the focused element.
    case actions(ActionList)
    /// The verdict on an answer.
    case result(AnswerResult)
    /// A short sound cue.
    case sound(SoundCue)
    /// The game reached its end.
    case ended(EndReason)
    /// An element of the screen on show changed (its label, value or state) while the focus stayed.
    case elementChanged(Element)
    /// A timed level's clock started, stopped for a pause, or went on.
    case timer(TimerState)
    /// A chapter's ambient sound, for a front end to loop until the next one.
    case ambient(Ambience)
}

/// What the engine asks its owner to do: tell the front end something, or save progress.
public enum Effect: Sendable, Hashable {
    /// Send an event to the front end.
    case event(GameEvent)
    /// Write progress to the save, then report it with a `progress` event.
    case save(Progress)
}

/// Why a command was refused.
///
/// The game's state is unchanged when one is thrown.
public struct CommandRefusal: Error, Sendable, Hashable {
    /// Why, in a word.
    public enum Code: String, Sendable, Hashable {
        /// The command makes no sense on this screen or element.
        case notNow = "not_now"
        /// A parameter is out of range or names nothing.
        case invalidParams = "invalid_params"
        /// The level asked for is not unlocked yet.
        case locked
    }

    /// Why, in a word.
    public var code: Code
    /// Why, as a sentence of the engine's words and its values.
    public var reason: EngineWords.Phrase
    /// The language ``message`` is in: English until an engine refuses, then its adventure's.
    public var words: EngineWords
    /// The offending parameter, if one is to blame.
    public var field: String?

    /// Why, in a sentence for developers and logs, in the language of ``words``.
    public var message: String { words.text(reason) }

    /// Creates a refusal.
    ///
    /// - Parameters:
    ///   - code: Why, in a word.
    ///   - key: The sentence that says why.
    ///   - values: The values of its placeholders.
    ///   - field: The offending parameter, if one is to blame.
    public init(
        _ code: Code,
        _ key: EngineWords.Key,
        _ values: KeyValuePairs<String, String> = [:],
        field: String? = nil
    ) {
        self.code = code
        self.reason = EngineWords.Phrase(key, values)
        self.words = .english
        self.field = field
    }
}
