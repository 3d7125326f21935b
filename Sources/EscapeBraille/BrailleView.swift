// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

/// What the Braille display shows, built from the engine's events.
///
/// It shows the focused element, flash messages and the answer being typed, and turns keys into
/// engine commands; it holds no game logic.
///
/// It is a value with no I/O: the front end feeds it events, keys and the time, and writes its frame.
package struct BrailleView {
    /// How messages are shown.
    package struct Options: Sendable, Hashable {
        /// How long a flash message stays, in milliseconds; 0 keeps it until a key is pressed.
        package var flashMilliseconds: Int64

        /// Creates options.
        package init(flashMilliseconds: Int64 = 5000) {
            self.flashMilliseconds = flashMilliseconds
        }
    }

    private enum Segment { case main, hint }

    /// A piece of text and how it is shown.
    typealias Piece = (text: String, style: BrailleStyle)

    private struct Editor {
        var element: String
        var text: [Character]
        var caret: Int
    }

    /// A message: its parts (several when they came while another one was on the display), each with
    /// when it came.
    private struct Flash {
        struct Part {
            var text: String
            var isTime: Bool
            var arrivedAt: Int64
        }

        var parts: [Part]

        var text: String { parts.map(\.text).joined(separator: " ") }
    }

    /// The display's size.
    package var size: DisplaySize {
        didSet {
            guard size != oldValue else { return }
            if editor != nil && segment == .main {
                revealCaret()
            } else {
                // The window that shows the text the player was reading, at the new width.
                let old = BrailleLayout(
                    translate(segmentPieces),
                    width: oldValue.columns,
                    rows: oldValue.rows
                )
                pan = currentLayout.window(containing: old.firstOffset(window: min(pan, old.windowCount - 1)))
            }
        }
    }
    /// The options.
    package let options: Options
    /// How text becomes cells: BRLTTY's text table, or a contracted table.
    package let translator: any BrailleTranslator
    /// The game as the display was shown it: the screen, the focus, its rotor and actions, the language
    /// and the display's part in a shared game.
    package private(set) var shown = ShownGame()
    /// The current screen.
    package var screen: Screen? { shown.screen }
    /// The focused element.
    package var focus: FocusState? { shown.focus }
    private var rotor: RotorState? { shown.rotor }
    private var actions: ActionList? { shown.actions }
    /// The focused element the window and the segment belong to, by its screen and id: the focus told
    /// again (a field's typed text, or the whole state after the same screen) keeps the display where it is.
    private var reading: (screen: String, element: String)?
    /// The custom action chosen on each element of the level being played and not performed yet, kept
    /// while the player looks at other elements, as typed answers are.
    private var chosenActions: [String: Int] = [:]
    /// The custom action chosen on the focused element.
    private var selectedAction: Int? {
        get { focus.flatMap { $0.screen == draftScreen ? chosenActions[$0.element.id] : nil } }
        set { if let element = focus?.element.id { chosenActions[element] = newValue } }
    }
    private var editor: Editor?
    /// The answers typed on the level being played, by field, kept until the player leaves the level.
    private var drafts: [String: Editor] = [:]
    /// The screen the drafts belong to.
    private var draftScreen: String?
    private var segment = Segment.main
    private var pan = 0
    /// Set by FWINLT at an element's first window: the element the engine moves to opens at its last
    /// window, so reading backwards is reading forwards reversed.
    private var arriveAtEnd = false
    /// Where the player was reading when an interlude (the assistive screen, the level menu) took the
    /// display: the screen, the element, the segment and the window's first character.
    private var placeBeforeInterlude: (screen: String, element: String, segment: Segment, offset: Int)?
    /// The language of the front end's own words: the game's.
    package var language: EngineWords.Language
    /// The display's own words, in ``language``.
    private var words: BrailleWords { BrailleWords(language) }
    /// Whether another client controls the shared game this display follows.
    private var following: Bool { shown.control.map { $0.role == .observer && !$0.isFree } ?? false }
    /// Which way the player last moved from element to element: the end a bump at the edge is at.
    private var lastMove: Direction?
    /// The message on the display, then at most one waiting (what came since, joined).
    private var queue: [Flash] = []
    /// Messages waiting to be shown; the first is on the display.
    package var flashes: [String] { queue.map(\.text) }
    private var flashShownAt: Int64 = 0
    private var flashPan = 0

    /// Creates an empty view.
    ///
    /// - Parameters:
    ///   - size: The display's size.
    ///   - options: How messages are shown.
    ///   - translator: How text becomes cells (default: as it is, for BRLTTY's text table).
    ///   - language: The language of the front end's own words until the game says its own.
    package init(
        size: DisplaySize,
        options: Options = Options(),
        translator: any BrailleTranslator = PlainBrailleTranslator(),
        language: EngineWords.Language = .english
    ) {
        self.size = size
        self.options = options
        self.translator = translator
        self.language = language
    }

    // MARK: Events

    /// Takes in what the engine said.
    ///
    /// An `assertive` announcement replaces every message shown or waiting; a `time` announcement
    /// replaces the time announcements before it. When the focused element's text changes (a rotor
    /// step, a dial turned), the display goes back to its start so the change shows.
    package mutating func apply(_ events: [StampedEvent], now: Int64) {
        // The rotor's own words are on the display with the door: flashing them again would make
        // every turn of the rotor cost a second key press.
        // The same goes for an element's new value (a dial turned): it is on the focus line.
        var rotorWords: Set<String> = []
        for stamped in events {
            switch stamped.event {
            case .game(.rotor(let state)):
                rotorWords.insert(state.rotor)
                if let item = state.item { rotorWords.insert(item) }
            case .game(.focus(let state)):
                if let value = state.element.value, state.element.traits.contains(.adjustable) {
                    rotorWords.insert(value)
                }
            case .game(.elementChanged(let element)):
                if let value = element.value, element.traits.contains(.adjustable) {
                    rotorWords.insert(value)
                }
            default:
                continue
            }
        }
        let shownElement = focus?.element.id
        let shownText = focusText
        for stamped in events {
            if case .game(.screen(let screen)) = stamped.event { leave(for: screen) }
            shown.apply(stamped.event)
            switch stamped.event {
            case .game(.screen(let screen)):
                applyScreen(screen)
            case .game(.focus(let state)):
                applyFocus(state)
            case .game(.sound(.boundary)):
                // Nothing further that way: said in words, where a speaking front end plays a bump.
                let last = lastMove.map { $0 == .next } ?? (focus.map { $0.index == $0.count } ?? true)
                flash(words(last ? .lastItem : .firstItem), now: now)
            case .game(.announce(let announcement)):
                guard announcement.category != .echo, !rotorWords.contains(announcement.text) else { continue }
                receive(
                    Flash.Part(text: announcement.text, isTime: announcement.category == .time, arrivedAt: now),
                    assertive: announcement.priority == .assertive,
                    now: now
                )
            case .error(let error):
                // A refusal while another player controls a shared game is said in the player's words.
                flash(error.code == .readOnly ? words(.followingAnotherPlayer) : error.message, now: now)
            case .hello:
                // The front end's own words follow the game's language from now on.
                if let locale = shown.locale { language = BrailleWords(locale: locale).language }
            default:
                continue
            }
        }
        let newText = focusText
        if editor == nil, focus?.element.id == shownElement, newText != shownText {
            // The window that shows the change (a rotor turned, a value stepped): the label still starts
            // the first window, and the player reads what changed without panning.
            // The first changed letter or digit (a value's colon or blank may end the line before it).
            let characters = Array(newText)
            var changed = zip(shownText, newText).prefix { $0 == $1 }.count
            while changed < characters.count, !characters[changed].isLetter, !characters[changed].isNumber {
                changed += 1
            }
            segment = .main
            pan = mainLayout.window(containing: changed)
        }
    }

    /// Keeps where the player was reading when an interlude (the menu, the assistive screen) takes the
    /// display from another screen, before the new screen takes the focus with it.
    private mutating func leave(for screen: Screen) {
        guard screen.kind == .menu || screen.kind == .assistive, placeBeforeInterlude == nil,
            let leaving = focus, leaving.screen != screen.id
        else { return }
        let place = currentLayout.firstOffset(window: min(pan, currentLayout.windowCount - 1))
        placeBeforeInterlude = (leaving.screen, leaving.element.id, segment, place)
    }

    private mutating func applyScreen(_ screen: Screen) {
        // The menu and the assistive screen are interludes: the player comes back to the same level.
        switch screen.kind {
        case .menu, .assistive:
            return
        case .intro, .chapter, .level, .end:
            if screen.id != draftScreen {
                drafts = [:]
                chosenActions = [:]
                draftScreen = screen.id
            }
        }
    }

    private mutating func applyFocus(_ state: FocusState) {
        guard reading?.screen != state.screen || reading?.element != state.element.id else { return }
        reading = (state.screen, state.element.id)
        let interlude = screen?.kind == .assistive || screen?.kind == .menu
        if !interlude, placeBeforeInterlude?.screen != state.screen {
            // Another screen than the one left: the place is gone with it.
            placeBeforeInterlude = nil
        }
        segment = .main
        pan = 0
        defer { arriveAtEnd = false }
        if state.element.traits.contains(.textField) {
            let text = Array(state.element.value ?? "")
            let kept = state.screen == draftScreen ? drafts[state.element.id] : nil
            editor = kept ?? Editor(element: state.element.id, text: text, caret: text.count)
            revealCaret()
        } else {
            editor = nil
        }
        if let place = placeBeforeInterlude, place.screen == state.screen {
            placeBeforeInterlude = nil
            // Back from the interlude to the element the player was reading: the same window.
            if place.element == state.element.id, editor == nil {
                segment = place.segment == .hint && hintLayout != nil ? .hint : .main
                pan = currentLayout.window(containing: place.offset)
            }
        } else if arriveAtEnd, editor == nil {
            // Reading backwards: the last window, the hint's when there is one.
            if let hintLayout {
                segment = .hint
                pan = hintLayout.windowCount - 1
            } else {
                pan = mainLayout.windowCount - 1
            }
        }
    }

    /// Shows a message at once when none is showing, or after the one on the display.
    package mutating func flash(_ text: String, now: Int64) {
        receive(Flash.Part(text: text, isTime: false, arrivedAt: now), assertive: false, now: now)
    }

    private mutating func receive(_ part: Flash.Part, assertive: Bool, now: Int64) {
        if assertive {
            queue = []
        } else if part.isTime {
            // The time left just said makes the time said before it wrong.
            let front = queue.first?.text
            for index in queue.indices { queue[index].parts.removeAll(where: \.isTime) }
            queue.removeAll { $0.parts.isEmpty }
            if queue.first?.text != front {
                flashShownAt = now
                flashPan = 0
            }
        }
        switch queue.count {
        case 0:
            queue = [Flash(parts: [part])]
            flashShownAt = now
            flashPan = 0
        case 1:
            queue.append(Flash(parts: [part]))
        default:
            // One message waits at most: what comes meanwhile joins it, so none waits longer than the
            // one on the display may stay.
            queue[queue.count - 1].parts.append(part)
        }
    }

    // MARK: Keys

    /// Whether the focus is in a text field, where typing edits the answer.
    package var isEditing: Bool { editor != nil }

    /// Carries out a key: changes what the display shows and returns what to ask of the engine.
    package mutating func handle(_ key: BrailleKey, now: Int64) -> [GameCommand] {
        let onMenu = screen?.kind == .menu
        guard let intent = BrailleKeyMap.intent(for: key, editing: isEditing, onMenu: onMenu) else { return [] }
        return handle(intent, now: now)
    }

    /// Carries out an intent.
    package mutating func handle(_ intent: BrailleIntent, now: Int64) -> [GameCommand] {
        if !queue.isEmpty {
            // Messages are passive: panning reads the message (past either end, it goes and the display
            // shows what is under it); any other key removes it and does its own job, so a message never
            // takes a key, a typed character or a routing key, and a countdown never traps the player.
            if case .pan(let direction) = intent {
                panFlash(direction, now: now)
                return []
            }
            dismissFlash(now: now)
        }
        arriveAtEnd = false
        switch intent {
        case .game(.escape) where editor.map({ !$0.text.isEmpty }) ?? false:
            // Escape in an answer that holds text keeps it, as the chapter page says; the menu is INFO's.
            flash(words(.answerKept), now: now)
            return []
        case .game(let command):
            switch command {
            case .next, .last: lastMove = .next
            case .previous, .first: lastMove = .previous
            default: break
            }
            return [command]
        case .activate:
            return activate()
        case .route(let cell):
            return route(cell)
        case .pan(let direction):
            return panFocus(direction)
        case .selectAction(let direction):
            guard let names = actions?.actions, !names.isEmpty else {
                flash(words(.noCustomActions), now: now)
                return []
            }
            let current = selectedAction ?? (direction == .next ? -1 : names.count)
            selectedAction = (current + (direction == .next ? 1 : -1) + names.count) % names.count
            // The window that shows the chosen action (the first one when the whole fits).
            segment = .main
            pan = chosenActionRange.map { mainLayout.window(containing: $0.lowerBound) } ?? 0
            return []
        case .type(let character):
            edit {
                $0.text.insert(character, at: $0.caret)
                $0.caret += 1
            }
            return []
        case .deleteBackward:
            edit {
                if $0.caret > 0 {
                    $0.caret -= 1
                    $0.text.remove(at: $0.caret)
                }
            }
            return []
        case .deleteForward:
            edit { if $0.caret < $0.text.count { $0.text.remove(at: $0.caret) } }
            return []
        case .moveCaret(let direction):
            edit { $0.caret = max(0, min($0.text.count, $0.caret + (direction == .next ? 1 : -1))) }
            return []
        case .caretToEdge(let direction):
            edit { $0.caret = direction == .next ? $0.text.count : 0 }
            return []
        case .offline:
            return []
        }
    }

    private mutating func edit(_ change: (inout Editor) -> Void) {
        guard var editor else { return }
        change(&editor)
        self.editor = editor
        drafts[editor.element] = editor
        segment = .main
        revealCaret()
    }

    private mutating func activate() -> [GameCommand] {
        if let editor {
            // Typed dots (a contracted table) are back-translated: the engine checks words.
            return [.input(text: translator.backTranslate(editor.text), element: nil), .activate(element: nil)]
        }
        if let selected = selectedAction {
            // Performed: the element's new state leads the display again.
            selectedAction = nil
            return [.action(.index(selected + 1))]
        }
        return [.activate(element: nil)]
    }

    /// A routing key: activates, except in a text field, where only the caret's cell submits and any
    /// other cell moves the caret there (to the start on the label, to the end past the text).
    private mutating func route(_ cell: Int) -> [GameCommand] {
        guard let editor else { return activate() }
        guard segment == .main else {
            // On the hint: back to the answer, nothing submitted.
            segment = .main
            revealCaret()
            return []
        }
        let start = editPrefix.count
        let offset = mainLayout.offset(under: cell, window: pan, columns: size.columns)
        if offset == start + editor.caret { return activate() }
        let caret = max(0, min(editor.text.count, (offset ?? .max) - start))
        edit { $0.caret = caret }
        return []
    }

    private mutating func panFocus(_ direction: Direction) -> [GameCommand] {
        let mainWindows = mainLayout.windowCount
        let hintWindows = hintLayout?.windowCount ?? 0
        switch (segment, direction) {
        case (.main, .next):
            if pan + 1 < mainWindows {
                pan += 1
            } else if hintWindows > 0 {
                segment = .hint
                pan = 0
            } else {
                // Panning is reading: a display that follows another player stays at the end.
                lastMove = .next
                return following ? [] : [.next]
            }
        case (.hint, .next):
            if pan + 1 < hintWindows {
                pan += 1
            } else {
                lastMove = .next
                return following ? [] : [.next]
            }
        case (.main, .previous):
            if pan > 0 {
                pan -= 1
            } else {
                // Panning is reading: a display that follows another player stays at the start, and the
                // element the other player moves to next opens at its start as usual.
                if following { return [] }
                // The previous element opens at its last window (see ``applyFocus(_:)``).
                arriveAtEnd = true
                lastMove = .previous
                return [.previous]
            }
        case (.hint, .previous):
            if pan > 0 {
                pan -= 1
            } else {
                segment = .main
                pan = mainWindows - 1
            }
        }
        return []
    }

    private mutating func panFlash(_ direction: Direction, now: Int64) {
        let windows = flashLayout?.windowCount ?? 1
        flashShownAt = now
        switch direction {
        case .next:
            if flashPan + 1 < windows { flashPan += 1 } else { dismissFlash(now: now) }
        case .previous:
            if flashPan > 0 { flashPan -= 1 } else { dismissFlash(now: now) }
        }
    }

    private mutating func dismissFlash(now: Int64) {
        guard !queue.isEmpty else { return }
        queue.removeFirst()
        flashShownAt = now
        flashPan = 0
        // A time left that waited behind another message is no longer true: the next one will be.
        if !queue.isEmpty {
            queue[0].parts.removeAll { $0.isTime && now - $0.arrivedAt > Self.timeStaysTrue }
            if queue[0].parts.isEmpty { queue.removeFirst() }
        }
    }

    /// How long a time left may wait behind another message and still be shown, in milliseconds: a
    /// count off by more than a second would mislead.
    static let timeStaysTrue: Int64 = 1000

    // MARK: Time

    /// When the message on the display times out, or `nil` when none will.
    ///
    /// A message stays its time for each window not yet read, so one longer than the display is never
    /// replaced before it could be read; panning a message gives it its time again. A message waiting
    /// behind it waits no longer than the one on the display needs to be read.
    package var nextDeadline: Int64? {
        guard !queue.isEmpty, options.flashMilliseconds > 0 else { return nil }
        let windows = Int64(max(1, (flashLayout?.windowCount ?? 1) - flashPan))
        return flashShownAt + options.flashMilliseconds * windows
    }

    /// Lets time pass: a message whose time is up gives way to the next one.
    package mutating func tick(now: Int64) {
        while let deadline = nextDeadline, deadline <= now { dismissFlash(now: deadline) }
    }

    // MARK: Rendering

    /// What the display shows now.
    package var frame: BrailleFrame {
        if let flashLayout { return BrailleFrame(cells: flashLayout.cells(window: flashPan, columns: size.columns)) }
        let layout = segment == .main ? mainLayout : (hintLayout ?? mainLayout)
        let window = min(pan, layout.windowCount - 1)
        var cursor: Int?
        if segment == .main, let editor {
            cursor = layout.cell(showing: editPrefix.count + editor.caret, window: window, columns: size.columns)
        }
        return BrailleFrame(cells: layout.cells(window: window, columns: size.columns), cursor: cursor)
    }

    private var flashLayout: BrailleLayout? {
        queue.first.map { BrailleLayout(translate([($0.text, .contracted)]), width: size.columns, rows: size.rows) }
    }

    /// The layout of what the display shows under any message: the element or its hint.
    private var currentLayout: BrailleLayout { segment == .main ? mainLayout : (hintLayout ?? mainLayout) }

    /// The pieces of ``currentLayout``.
    private var segmentPieces: [Piece] {
        if segment == .hint, let hint = focus?.element.hint, !hint.isEmpty { return [(hint, .contracted)] }
        return focusPieces
    }

    private var hintLayout: BrailleLayout? {
        guard let hint = focus?.element.hint, !hint.isEmpty else { return nil }
        return BrailleLayout(translate([(hint, .contracted)]), width: size.columns, rows: size.rows)
    }

    private var mainLayout: BrailleLayout {
        // The caret always has a cell, even where the text breaks into the next line.
        let caret = editor.map { editPrefix.count + $0.caret }
        let content = focusContent
        return BrailleLayout(
            translate(content.pieces),
            width: size.columns,
            rows: size.rows,
            keeping: caret,
            together: content.action
        )
    }

    private func translate(_ pieces: [Piece]) -> BrailleText {
        translator.translate(pieces)
    }

    private var editPrefix: String {
        guard let element = focus?.element else { return "" }
        return element.label + words(.colon)
    }

    private mutating func revealCaret() {
        guard let editor, segment == .main else { return }
        pan = mainLayout.window(containing: editPrefix.count + editor.caret)
    }

    /// The focused element in words: label, value or typed text, role, position, rotor and action.
    ///
    /// The label always starts the first window, on any display: what the element is comes first,
    /// then its value (what the player turns), then the short role and position, then the rotor and
    /// the custom actions.
    package var focusText: String { focusPieces.map(\.text).joined() }

    /// ``focusText`` in pieces, each with how it is shown: words contracted when the table is, and
    /// positions and counts in the table's own number forms; role words and the typed answer literal,
    /// so they read as they always did.
    private var focusPieces: [Piece] { focusContent.pieces }

    /// The chosen action's name and position as characters of ``focusText``, or `nil` when none is
    /// chosen: they are laid out together, never split across windows.
    private var chosenActionRange: Range<Int>? { focusContent.action }

    private var focusContent: (pieces: [Piece], action: Range<Int>?) {
        guard let focus else { return ([(screen?.title ?? "", .contracted)], nil) }
        let element = focus.element
        var pieces: [Piece] = [(menuLabel(element.label) ?? element.label, .contracted)]
        if let editor {
            pieces = [(editPrefix, .contracted), (String(editor.text), .literal)]
        } else if let value = element.value, !value.isEmpty {
            pieces.append((words(.colon) + value, .contracted))
        }
        let names = actions?.element == element.id ? actions?.actions ?? [] : []
        var action: Range<Int>?
        if let selectedAction, selectedAction < names.count {
            // The chosen action right after the label, so choosing changes the first window.
            let valueShown = editor == nil && element.value?.isEmpty == false
            pieces.append((words(valueShown ? .semicolon : .colon), .literal))
            let start = pieces.reduce(0) { $0 + $1.text.count }
            pieces.append((names[selectedAction], .contracted))
            pieces.append((" " + words(.action) + " ", .literal))
            pieces.append(("\(selectedAction + 1)/\(names.count)", .contracted))
            action = start..<pieces.reduce(0) { $0 + $1.text.count }
        }
        if let role = Self.roleWord(element.traits, stateInWords: element.value?.isEmpty == false, language: language) {
            pieces.append((" " + role, .literal))
        }
        // A position says nothing when the element is alone on its screen.
        if focus.count > 1 {
            pieces.append((" ", .literal))
            pieces.append(("\(focus.index)/\(focus.count)", .contracted))
        }
        if let rotor, rotor.element == element.id {
            pieces.append((" ", .literal))
            pieces += Self.rotorPieces(rotor, value: element.value, language: language)
        }
        if selectedAction == nil, !names.isEmpty {
            pieces.append((" ", .literal))
            pieces.append(("\(names.count)", .contracted))
            pieces.append((" " + words(.action), .literal))
        }
        return (pieces, action)
    }

    /// A level menu's entry on a small display, its title first ("The Stone of Memory, Level 1.1" for
    /// "Level 1.1: The Stone of Memory"), so reading down the menu reads the titles, not "Level 5.3:
    /// The" twenty times; `nil` elsewhere.
    private func menuLabel(_ label: String) -> String? {
        guard screen?.kind == .menu, size.cells <= Self.smallDisplay,
            let colon = label.firstRange(of: ": "), colon.upperBound < label.endIndex
        else { return nil }
        var number = label[..<colon.lowerBound]
        // French puts a no-break space before the colon.
        while let last = number.last, last == "\u{00A0}" || last == "\u{202F}" || last == " " { number.removeLast() }
        return String(label[colon.upperBound...]) + ", " + number
    }

    /// The most cells a display has to be small: its windows are read one short line at a time.
    static let smallDisplay = 20

    /// The rotor as it follows the element's position: its name, the item unless it is the value
    /// already, and the item's position.
    private static func rotorPieces(_ rotor: RotorState, value: String?, language: EngineWords.Language) -> [Piece] {
        var words: [Piece] = [(rotor.rotor, .contracted)]
        if let item = rotor.item, item != value { words.append((BrailleWords(language)(.colon) + item, .contracted)) }
        if let index = rotor.itemIndex {
            words.append((" ", .literal))
            words.append(("\(index)/\(rotor.itemCount)", .contracted))
        }
        return words
    }

    /// The short role word Braille users know from their screen readers.
    ///
    /// "dim" (not usable yet, as the key help explains) only where the element's value does not say
    /// its state in words already: a locked level in the menu says `locked`, not `locked btn dim`.
    static func roleWord(_ traits: [Trait], stateInWords: Bool = false, language: EngineWords.Language) -> String? {
        let words = BrailleWords(language)
        let word = { (key: BrailleWords.Key) in words(key) }
        if traits.contains(.textField) { return word(.textField) }
        if traits.contains(.adjustable) { return word(.adjustable) }
        if traits.contains(.button) {
            return traits.contains(.notEnabled) && !stateInWords
                ? word(.button) + " " + word(.notEnabled) : word(.button)
        }
        if traits.contains(.header) { return word(.heading) }
        return nil
    }
}
