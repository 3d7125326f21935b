// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Settings of a game that are not part of the story.
public struct EngineOptions: Sendable, Hashable {
    /// Milliseconds between two hints unlocking.
    public var hintInterval: Int64
    /// Unlock every hint as soon as a level starts.
    public var hintsAtOnce: Bool
    /// Timed levels run their clock; `false` plays them without time pressure.
    public var timePressure: Bool
    /// Seed of the generator that shuffles answers.
    public var seed: UInt64

    /// Creates options; the defaults are the game's defaults.
    public init(hintInterval: Int64 = 30_000, hintsAtOnce: Bool = false, seed: UInt64 = 0, timePressure: Bool = true) {
        self.hintInterval = hintInterval
        self.hintsAtOnce = hintsAtOnce
        self.timePressure = timePressure
        self.seed = seed
    }
}

/// The game as a pure state machine: commands and the time in, effects out.
///
/// The engine does no I/O and reads no clock: its owner passes the time (milliseconds on any
/// monotonic scale) with every call, performs the effects it returns, and saves progress when asked.
/// A command it refuses throws a ``CommandRefusal`` and leaves the state exactly as it was.
public struct Engine: Sendable {
    /// The adventure being played.
    public let adventure: Adventure
    /// The game's settings.
    public let options: EngineOptions
    /// The engine's own words in the adventure's language: gesture labels and refusals.
    public let words: EngineWords
    var state: GameState {
        didSet { screenCache = ScreenCache() }
    }
    /// Grows by one with every change of state a front end could notice.
    public internal(set) var generation = 0
    /// The last thing said (not counting echoes), for `repeatAnnouncement`.
    public internal(set) var lastAnnouncement: Announcement?
    /// Whether timed levels run their clock (the option, or the front end's `hello` preference).
    public internal(set) var timePressure = true
    /// What the front end's keys are called, by gesture (``Gesture/next``: "LNDN", say), from its `hello`.
    public internal(set) var keyNames: [Gesture: String] = [:] {
        didSet { screenCache = ScreenCache() }
    }
    /// The screen on show, built once for the state it was built from: any change of the state or of
    /// the key names replaces the cache, so copies of the engine share it only while they agree.
    private var screenCache = ScreenCache()

    /// Everything a command can change, to put back when a run of commands is refused part way:
    /// cheaper to keep than a copy of the whole engine, whose adventure never changes.
    public struct Checkpoint: Sendable {
        fileprivate let state: GameState
        fileprivate let generation: Int
        fileprivate let lastAnnouncement: Announcement?
        fileprivate let timePressure: Bool
        fileprivate let keyNames: [Gesture: String]
        fileprivate let screenCache: ScreenCache
    }

    /// The engine as it stands, for ``restore(_:)``.
    public var checkpoint: Checkpoint {
        Checkpoint(
            state: state,
            generation: generation,
            lastAnnouncement: lastAnnouncement,
            timePressure: timePressure,
            keyNames: keyNames,
            screenCache: screenCache
        )
    }

    /// Puts the engine back as it stood at `checkpoint`, taken from this engine.
    public mutating func restore(_ checkpoint: Checkpoint) {
        state = checkpoint.state
        generation = checkpoint.generation
        lastAnnouncement = checkpoint.lastAnnouncement
        timePressure = checkpoint.timePressure
        keyNames = checkpoint.keyNames
        // Last: setting the state and the key names replaced the cache.
        screenCache = checkpoint.screenCache
    }
    /// The level menu's labels of every chapter and level, which depend on the adventure alone: made
    /// once, not each time the menu is shown (every focus move on it builds it anew).
    let menuLabels: MenuLabels
    /// Each level's screen as ``levelScreens(_:)`` makes it, once: a level's screen is built anew
    /// after most commands played on it.
    let levelScreens: [[Screen]]

    /// Starts a game.
    ///
    /// - Parameters:
    ///   - adventure: The validated adventure.
    ///   - options: Hint timing and the seed.
    ///   - progress: What a save restored, or ``Progress/fresh``.
    ///   - now: The current time in milliseconds.
    public init(adventure: Adventure, options: EngineOptions = EngineOptions(), progress: Progress, now: Int64) {
        self.adventure = adventure
        self.options = options
        words = EngineWords(locale: adventure.locale)
        menuLabels = MenuLabels(adventure)
        levelScreens = Self.levelScreens(adventure)
        timePressure = options.timePressure
        let progress = Self.sanitized(progress, for: adventure)
        state = GameState(rng: SeededGenerator(seed: options.seed), progress: progress, stack: [], visits: 0)
        if progress.completed.isEmpty && progress.current == LevelPosition(chapter: 0, level: 0) {
            state.stack = [Frame(place: .intro(page: 0))]
        } else if let current = progress.current {
            state.stack = [Frame(place: .level(current, makeLevelState(at: current, now: now)))]
        } else {
            state.stack = [Frame(place: .end)]
        }
    }

    /// What a front end needs to show the game as it starts: a welcome back, the screen and the focus.
    public func opening() -> [Effect] {
        var effects: [Effect] = []
        if case .level(let position, _) = top.place {
            let title = level(at: position).title
            effects.append(
                .event(
                    .announce(
                        Announcement(
                            Messages.format(adventure.messages.welcomeBack, ["title": title]),
                            category: .narrative
                        )
                    )
                )
            )
        }
        effects += arrivalEffects()
        if case .level(_, let levelState) = top.place { effects += timerEffects(now: levelState.enteredAt) }
        return effects
    }

    /// Applies a command.
    ///
    /// - Parameters:
    ///   - command: What the front end asks.
    ///   - now: The current time in milliseconds.
    /// - Returns: What to tell the front end and what to save, in order.
    /// - Throws: ``CommandRefusal`` when the command makes no sense now; nothing changes then.
    public mutating func apply(_ command: GameCommand, now: Int64) throws(CommandRefusal) -> [Effect] {
        // A command that names its element moves focus first, so the focus is told before the outcome.
        let aimed: (element: String, gesture: GameCommand)?
        switch command {
        case .activate(.some(let id)): aimed = (id, .activate(element: nil))
        case .input(let text, .some(let id)): aimed = (id, .input(text: text, element: nil))
        case .activate(nil), .input(_, nil), .next, .previous, .first, .last, .focus, .rotor, .rotorItem, .action,
            .adjust, .magicTap, .escape, .hint, .menu, .goto, .replay, .assistive, .repeatAnnouncement:
            aimed = nil
        }
        if let aimed {
            // Both halves or neither: a refused gesture puts back the focus the first half moved.
            let checkpoint = checkpoint
            do {
                return try apply(.focus(element: aimed.element), now: now) + apply(aimed.gesture, now: now)
            } catch {
                restore(checkpoint)
                throw error
            }
        }
        let before = state
        let screenBefore = screen
        let cacheBefore = screenCache
        let focusBefore = focus(on: screenBefore)
        var effects: [Effect]
        do {
            effects = try perform(command, now: now)
        } catch {
            state = before
            // The screen on show is the one it was: the next command need not build it again.
            screenCache = cacheBefore
            var refusal = error
            refusal.words = words
            throw refusal
        }
        settle(after: before, screenBefore: screenBefore, focusBefore: focusBefore, now: now, into: &effects)
        for case .event(.announce(let announcement)) in effects where announcement.category != .echo {
            lastAnnouncement = announcement
        }
        return effects
    }

    /// Lets time pass: announces hints that unlocked and, on a timed level, the time left, in the
    /// order they fell due; when time runs out the level starts over.
    ///
    /// A long wait is told in a summary: when the torch would go out several times before `now`, it
    /// goes out once, at the last of those times, and what the skipped runs would have said is not
    /// said. So whatever `now` is, the work and the effects are bounded (the first run's marks and
    /// hints, one torch-out, the last run's marks and hints).
    ///
    /// - Parameter now: The current time in milliseconds.
    /// - Returns: What to tell the front end.
    public mutating func advanceTime(to now: Int64) -> [Effect] {
        var effects: [Effect] = []
        while true {
            let hint = hintDeadline.flatMap { $0 <= now ? $0 : nil }
            let time = timeDeadline.flatMap { $0 <= now ? $0 : nil }
            if let time, hint.map({ time <= $0 }) ?? true {
                effects += announceTime(at: time, until: now)
            } else if hint != nil {
                effects += noticeHints(now: now)
            } else {
                return effects
            }
        }
    }

    private mutating func noticeHints(now: Int64) -> [Effect] {
        guard case .level(let position, var levelState) = top.place else { return [] }
        // Each notice moves on by at least one hint, so time advancing always ends (a forged state or a
        // tiny interval cannot make it notice the same hint for ever).
        let count = level(at: position).hints.count
        let unlocked = unlockedHints(levelState, at: position, now: now)
        levelState.hintsNoticed = min(count, max(levelState.hintsNoticed + 1, unlocked))
        replaceTop(.level(position, levelState))
        // News about hints changes nothing a gesture acts on: the generation stays.
        let announcement = Announcement(adventure.messages.hintReady, category: .hint)
        lastAnnouncement = announcement
        return [.event(.sound(.hint)), .event(.announce(announcement))]
    }

    /// When ``advanceTime(to:)`` next has something to say, in the same milliseconds as `now`.
    public var nextDeadline: Int64? {
        [hintDeadline, timeDeadline].compactMap { $0 }.min()
    }

    /// When the next hint unlocks, if one is waiting.
    var hintDeadline: Int64? {
        guard !options.hintsAtOnce, case .level(let position, let levelState) = top.place else { return nil }
        let count = adventure.chapters[position.chapter].levels[position.level].hints.count
        guard levelState.hintsNoticed < count else { return nil }
        let earned = levelState.hintsNoticed + 1 - (levelState.hintsKept ?? 0)
        return levelState.enteredAt.adding(
            saturating: Int64(max(1, earned)).multiplied(saturating: max(1, options.hintInterval))
        )
    }

    /// What the player has earned.
    public var progress: Progress { state.progress }

    /// The screen on show.
    public var screen: Screen {
        screenCache.screen { makeScreen(for: top) }
    }

    /// Whether the screen on show is an introduction's page: its ``screen``'s kind is
    /// ``ScreenKind/intro``, known without building the screen.
    public var showsIntro: Bool {
        if case .intro = top.place { true } else { false }
    }

    /// The focused element.
    public var focus: FocusState { focus(on: screen) }

    /// The focused element of `screen`, the screen on show (built once by the caller).
    func focus(on screen: Screen) -> FocusState {
        let index = min(top.focus, screen.elements.count - 1)
        return FocusState(
            screen: screen.id,
            element: screen.elements[index],
            index: index + 1,
            count: screen.elements.count
        )
    }

    /// The rotor of the focused element, if it has one.
    public var rotor: RotorState? { kindRotor(element: focus.element.id) }

    /// The custom actions of the focused element, if it has any.
    public var actions: ActionList? {
        let element = focus.element
        guard !element.actions.isEmpty else { return nil }
        return ActionList(element: element.id, actions: element.actions)
    }

    /// Where the player stands, for `progress` events.
    public var progressSummary: ProgressSummary {
        var onScreen: LevelNumber?
        if let frame = state.stack.first, case .level(let position, _) = frame.place {
            onScreen = LevelNumber(chapter: position.chapter + 1, level: position.level + 1)
        }
        // One walk over the levels in story order, each solved one looked up once.
        var completed: [String] = []
        var chapters: [ChapterProgress] = []
        chapters.reserveCapacity(adventure.chapters.count)
        var total = 0
        // Ids read where they are: a level copied out whole is most of such a walk.
        for chapter in adventure.chapters.indices {
            let levels = adventure.chapters[chapter].levels
            var solved = 0
            for level in levels.indices where state.progress.completed.contains(levels[level].id) {
                completed.append(levels[level].id)
                solved += 1
            }
            total += levels.count
            chapters.append(
                ChapterProgress(id: adventure.chapters[chapter].id, completed: solved, total: levels.count)
            )
        }
        return ProgressSummary(
            chapter: state.progress.current.map { $0.chapter + 1 },
            level: state.progress.current.map { $0.level + 1 },
            completed: completed,
            total: total,
            onScreen: onScreen,
            chapterID: state.progress.current.map { adventure.chapters[$0.chapter].id },
            chapters: chapters
        )
    }

    /// Learns what the player's keys are called, so teaching texts can name them.
    ///
    /// - Parameter names: Key names by gesture, as the front end's `hello` gave them.
    /// - Returns: The screen and focus again when the screen on show now reads differently.
    public mutating func nameKeys(_ names: [Gesture: String]) -> [Effect] {
        let before = screen
        keyNames = names
        guard screen != before else { return [] }
        generation = generation.countingOn
        return arrivalEffects()
    }

    // MARK: - Settling a command

    /// Adds what changed on screen after a command: a new screen and focus; or the elements that
    /// changed, then the focus if it moved.
    ///
    /// The generation grows when what a gesture acts on changed (the screen, the focus, an element,
    /// a puzzle), not for the hint and clock bookkeeping.
    private mutating func settle(
        after before: GameState,
        screenBefore: Screen,
        focusBefore: FocusState,
        now: Int64,
        into effects: inout [Effect]
    ) {
        guard state != before else {
            // A command that set the state back as it was (a dial at its end, say) still replaced the
            // cache: the screen it had is the one on show.
            _ = screenCache.screen { screenBefore }
            return
        }
        if !Self.sameForGestures(state, before) { generation = generation.countingOn }
        if state.visits != before.visits {
            effects += ambienceEffects()
            effects += arrivalEffects()
            effects += timerEffects(now: now)
            if top.place == .end {
                effects.append(.event(.sound(.escaped)))
                effects.append(.event(.ended(.escaped)))
            }
            return
        }
        // A focus move, a hint heard or the clock's bookkeeping leave the screen as it was: it is not
        // built anew (building it is most of such a command's work), and what comes next finds it.
        let unchanged = Self.showsTheSameScreen(state, before)
        let screen = unchanged ? screenCache.screen { screenBefore } : screen
        let focusNow = focus(on: screen)
        if !unchanged {
            // By index, not by zip: the elements are compared where they are, not copied out first.
            for index in 0..<min(screenBefore.elements.count, screen.elements.count)
            where screenBefore.elements[index].id == screen.elements[index].id
                && screenBefore.elements[index] != screen.elements[index]
            {
                effects.append(.event(.elementChanged(screen.elements[index])))
            }
        }
        if focusNow.element.id != focusBefore.element.id {
            appendFocusEffects(focusNow, to: &effects)
        } else if focusNow != focusBefore && focusNow.element == focusBefore.element {
            // The same element, somewhere else in the list.
            effects.append(.event(.focus(focusNow)))
        }
    }

    /// Whether `state` shows the screen `before` showed, as ``makeScreen(for:)`` builds it (the key
    /// names, which a command never changes, aside): the same place on top, and for the level menu,
    /// which shows what is solved and what is being played, the same progress and places below.
    private static func showsTheSameScreen(_ state: GameState, _ before: GameState) -> Bool {
        guard let top = state.stack.last, let topBefore = before.stack.last, top.place == topBefore.place else {
            return false
        }
        guard case .menu = top.place else { return true }
        return state.stack.count == before.stack.count
            && zip(state.stack, before.stack).allSatisfy { $0.place == $1.place } && state.progress == before.progress
    }

    /// Whether a gesture could tell `state` from `before`.
    ///
    /// What gestures act on: the screens, their focus and puzzles, and arrivals, without the hint and
    /// clock bookkeeping of a level. Compared frame by frame, without building either view (every
    /// command asks).
    private static func sameForGestures(_ state: GameState, _ before: GameState) -> Bool {
        guard state.visits == before.visits, state.stack.count == before.stack.count else { return false }
        for (frame, other) in zip(state.stack, before.stack) {
            guard frame.focus == other.focus else { return false }
            switch (frame.place, other.place) {
            case (.level(let position, let levelState), .level(let otherPosition, let otherState)):
                guard position == otherPosition, levelState.gestureView == otherState.gestureView else { return false }
            default:
                guard frame.place == other.place else { return false }
            }
        }
        return true
    }

    /// The chapter's ambient sound, when the player has just come into a chapter with another one.
    private mutating func ambienceEffects() -> [Effect] {
        let chapter: Int
        switch top.place {
        case .chapter(let index): chapter = index
        case .level(let position, _): chapter = position.chapter
        case .intro, .menu, .assistive, .end: return []
        }
        guard let ambient = adventure.chapters[chapter].ambient, ambient != state.ambient else { return [] }
        state.ambient = ambient
        return [.event(.ambient(ambient))]
    }

    /// The screen, then the focus.
    func arrivalEffects() -> [Effect] {
        // The screen is built once here; building it is most of an ordinary command's work.
        let screen = screen
        var effects: [Effect] = [.event(.screen(screen))]
        effects.reserveCapacity(4)
        appendFocusEffects(focus(on: screen), to: &effects)
        return effects
    }

    /// Appends the focus, then the rotor and the actions of the focused element when it has them.
    private func appendFocusEffects(_ focus: FocusState, to effects: inout [Effect]) {
        let rotor = kindRotor(element: focus.element.id)
        let actions = focus.element.actions
        // Room for all of them at once, rather than growing for each.
        effects.reserveCapacity(effects.count + 3)
        effects.append(.event(.focus(focus)))
        if let rotor { effects.append(.event(.rotor(rotor))) }
        if !actions.isEmpty {
            effects.append(.event(.actions(ActionList(element: focus.element.id, actions: actions))))
        }
    }

    // MARK: - State

    /// Everything that changes as the game is played.
    package struct GameState: Hashable, Sendable, Codable {
        var rng: SeededGenerator
        var progress: Progress
        /// The screens on show: the bottom one is where the player plays; the menu and the assistive
        /// screen go on top of it and come off again.
        var stack: [Frame]
        /// Counts arrivals on a screen, so a screen is sent again even when it is the same one.
        var visits: Int
        /// When the level under the menu or the assistive screen was paused.
        var pausedAt: Int64?
        /// The ambient sound last announced, so a chapter's ambience is announced once.
        var ambient: Ambience?

        /// Whether every member is equal.
        ///
        /// The ones a command changes most often come first (a command's settling asks whether
        /// anything changed, and the progress is the costliest to compare). Compares every member
        /// `hash(into:)` hashes.
        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.visits == rhs.visits && lhs.stack == rhs.stack && lhs.pausedAt == rhs.pausedAt
                && lhs.ambient == rhs.ambient && lhs.rng == rhs.rng && lhs.progress == rhs.progress
        }
    }

    /// A screen on the stack and where focus is on it.
    struct Frame: Hashable, Sendable, Codable {
        var place: Place
        var focus = 0
    }

    /// The screens of the game.
    enum Place: Hashable, Sendable, Codable {
        case intro(page: Int)
        case chapter(Int)
        /// Out of line: a place is copied with every frame, many times a command, and a level's state
        /// (its puzzle's, its hints' and its clock's) is most of a frame's size.
        indirect case level(LevelPosition, LevelState)
        case menu
        case assistive
        case end
    }

    var top: Frame {
        guard let frame = state.stack.last else { preconditionFailure("the screen stack is never empty") }
        return frame
    }

    mutating func replaceTop(_ place: Place) {
        state.stack[state.stack.count - 1].place = place
    }

    mutating func setFocus(_ index: Int) {
        state.stack[state.stack.count - 1].focus = index
    }

    /// Shows `place` as the only screen.
    mutating func enter(_ place: Place, focus: Int = 0) {
        state.stack = [Frame(place: place, focus: focus)]
        state.visits += 1
    }

    /// Shows `place` over the current screen; a level under it is paused (its hints and its clock).
    mutating func push(_ place: Place, focus: Int = 0, now: Int64) {
        if case .level = top.place, state.pausedAt == nil { state.pausedAt = now }
        state.stack.append(Frame(place: place, focus: focus))
        state.visits += 1
    }

    /// Takes the top screen off, back to the one under it, exactly as it was; a paused level resumes.
    mutating func pop(now: Int64) {
        precondition(state.stack.count > 1, "only pushed screens are popped")
        state.stack.removeLast()
        state.visits += 1
        if case .level(let position, var levelState) = top.place, let pausedAt = state.pausedAt {
            levelState.enteredAt = levelState.enteredAt.adding(
                saturating: max(0, now.subtracting(saturating: pausedAt))
            )
            replaceTop(.level(position, levelState))
            state.pausedAt = nil
        }
    }

    // MARK: - Adventure lookups

    func level(at position: LevelPosition) -> Level {
        adventure.chapters[position.chapter].levels[position.level]
    }

    var allPositions: [LevelPosition] {
        adventure.chapters.indices.flatMap { chapter in
            adventure.chapters[chapter].levels.indices.map { LevelPosition(chapter: chapter, level: $0) }
        }
    }

    func position(after position: LevelPosition) -> LevelPosition? {
        if position.level + 1 < adventure.chapters[position.chapter].levels.count {
            return LevelPosition(chapter: position.chapter, level: position.level + 1)
        }
        if position.chapter + 1 < adventure.chapters.count {
            return LevelPosition(chapter: position.chapter + 1, level: 0)
        }
        return nil
    }

    func isUnlocked(_ position: LevelPosition) -> Bool {
        isUnlocked(position, firstUnsolved: firstUnsolved)
    }

    /// The first level not solved yet, always open; `nil` when every level is solved.
    var firstUnsolved: LevelPosition? {
        allPositions.first { !state.progress.completed.contains(level(at: $0).id) }
    }

    /// Whether `position` is open, given the ``firstUnsolved`` level (found once for a whole menu, so
    /// a menu of every level is built in linear time).
    func isUnlocked(_ position: LevelPosition, firstUnsolved: LevelPosition?) -> Bool {
        state.progress.completed.contains(level(at: position).id) || position == state.progress.current
            || position == firstUnsolved
    }

    /// Drops what a save says that this adventure does not have.
    private static func sanitized(_ progress: Progress, for adventure: Adventure) -> Progress {
        let ids = Set(adventure.chapters.flatMap { $0.levels.map(\.id) })
        var current = progress.current
        if let position = current,
            !adventure.chapters.indices.contains(position.chapter)
                || !adventure.chapters[position.chapter].levels.indices.contains(position.level)
        {
            current = LevelPosition(chapter: 0, level: 0)
        }
        var orders: [String: [String]] = [:]
        for level in adventure.chapters.lazy.flatMap(\.levels) {
            if let order = progress.answerOrders[level.id], level.puzzle.accepts(layout: order) {
                orders[level.id] = order
            }
        }
        return Progress(completed: progress.completed.intersection(ids), current: current, answerOrders: orders)
    }
}

/// The screen an engine built, kept for as long as the state it was built from.
///
/// A class, so that a `get` of ``Engine/screen`` can fill it; guarded by a mutex, since engines are
/// `Sendable` and copies share it.
private final class ScreenCache: Sendable {
    private let built = Mutex<Screen?>(nil)

    /// The screen, built by `make` the first time.
    func screen(_ make: () -> Screen) -> Screen {
        if let screen = built.withLock({ $0 }) { return screen }
        let screen = make()
        built.withLock { $0 = screen }
        return screen
    }
}
