public import EscapeCore
public import EscapeProtocol

/// What the Braille display shows, built from the engine's events.
///
/// It shows the focused element, flash messages and the answer being typed, and turns keys into
/// engine commands; it holds no game logic.
///
/// It is a value with no I/O: the front end feeds it events, keys and the time, and writes its frame.
public struct BrailleView {
    /// How messages are shown.
    public struct Options: Sendable, Hashable {
        /// How long a flash message stays, in milliseconds; 0 keeps it until a key is pressed.
        public var flashMilliseconds: Int64

        /// Creates options.
        public init(flashMilliseconds: Int64 = 5000) {
            self.flashMilliseconds = flashMilliseconds
        }
    }

    private enum Segment { case main, hint }

    private struct Editor {
        var element: String
        var text: [Character]
        var caret: Int
    }

    /// The display's size.
    public var size: DisplaySize {
        didSet { if size != oldValue { revealCaret() } }
    }
    /// The options.
    public let options: Options
    /// The current screen.
    public private(set) var screen: Screen?
    /// The focused element.
    public private(set) var focus: FocusState?
    private var rotor: RotorState?
    private var actions: ActionList?
    private var selectedAction: Int?
    private var editor: Editor?
    private var segment = Segment.main
    private var pan = 0
    /// Messages waiting to be shown; the first is on the display.
    public private(set) var flashes: [String] = []
    private var flashShownAt: Int64 = 0
    private var flashPan = 0

    /// Creates an empty view.
    public init(size: DisplaySize, options: Options = Options()) {
        self.size = size
        self.options = options
    }

    // MARK: Events

    /// Takes in what the engine said.
    public mutating func apply(_ events: [StampedEvent], now: Int64) {
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
            default:
                continue
            }
        }
        for stamped in events {
            switch stamped.event {
            case .game(.screen(let screen)):
                self.screen = screen
            case .game(.focus(let state)):
                applyFocus(state)
            case .game(.rotor(let state)):
                rotor = state
            case .game(.actions(let list)):
                actions = list
            case .game(.announce(let announcement)):
                guard announcement.category != .echo, !rotorWords.contains(announcement.text) else { continue }
                flash(announcement.text, now: now)
            case .error(let error):
                flash(error.message, now: now)
            default:
                continue
            }
        }
    }

    private mutating func applyFocus(_ state: FocusState) {
        let moved = state.element.id != focus?.element.id || state.screen != focus?.screen
        focus = state
        guard moved else { return }
        segment = .main
        pan = 0
        selectedAction = nil
        if rotor?.element != state.element.id { rotor = nil }
        if actions?.element != state.element.id { actions = nil }
        if state.element.traits.contains(.textField) {
            let text = Array(state.element.value ?? "")
            editor = Editor(element: state.element.id, text: text, caret: text.count)
            revealCaret()
        } else {
            editor = nil
        }
    }

    /// Queues a message; it shows at once when none is showing.
    public mutating func flash(_ text: String, now: Int64) {
        if flashes.isEmpty {
            flashShownAt = now
            flashPan = 0
        }
        flashes.append(text)
    }

    // MARK: Keys

    /// Whether the focus is in a text field, where typing edits the answer.
    public var isEditing: Bool { editor != nil }

    /// Carries out a key: changes what the display shows and returns what to ask of the engine.
    public mutating func handle(_ key: BrailleKey, now: Int64) -> [GameCommand] {
        guard let intent = BrailleKeyMap.intent(for: key, editing: isEditing) else { return [] }
        return handle(intent, now: now)
    }

    /// Carries out an intent.
    public mutating func handle(_ intent: BrailleIntent, now: Int64) -> [GameCommand] {
        if !flashes.isEmpty {
            switch intent {
            case .pan(let direction):
                panFlash(direction, now: now)
                return []
            case .route, .offline:
                dismissFlash(now: now)
                return []
            default:
                dismissFlash(now: now)
            }
        }
        switch intent {
        case .game(let command):
            return [command]
        case .activate:
            return activate()
        case .route(let cell):
            return route(cell)
        case .pan(let direction):
            return panFocus(direction)
        case .selectAction(let direction):
            guard let names = actions?.actions, !names.isEmpty else {
                flash("No custom actions here.", now: now)
                return []
            }
            let current = selectedAction ?? (direction == .next ? -1 : names.count)
            selectedAction = (current + (direction == .next ? 1 : -1) + names.count) % names.count
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
        case .offline:
            return []
        }
    }

    private mutating func edit(_ change: (inout Editor) -> Void) {
        guard var editor else { return }
        change(&editor)
        self.editor = editor
        segment = .main
        revealCaret()
    }

    private mutating func activate() -> [GameCommand] {
        if let editor { return [.input(text: String(editor.text), element: nil), .activate(element: nil)] }
        if let selected = selectedAction {
            // Performed: the element's new state leads the display again.
            selectedAction = nil
            return [.action(.index(selected + 1))]
        }
        return [.activate(element: nil)]
    }

    private mutating func route(_ cell: Int) -> [GameCommand] {
        guard segment == .main, let editor else { return activate() }
        let layout = mainLayout
        guard let offset = layout.offset(under: cell, window: pan, columns: size.columns) else { return activate() }
        let start = editPrefix.count
        guard offset >= start, offset <= start + editor.text.count else { return activate() }
        if offset - start == editor.caret { return activate() }
        self.editor?.caret = offset - start
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
                return [.next]
            }
        case (.hint, .next):
            if pan + 1 < hintWindows { pan += 1 } else { return [.next] }
        case (.main, .previous):
            if pan > 0 { pan -= 1 } else { return [.previous] }
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
            flashPan = max(0, flashPan - 1)
        }
    }

    private mutating func dismissFlash(now: Int64) {
        guard !flashes.isEmpty else { return }
        flashes.removeFirst()
        flashShownAt = now
        flashPan = 0
    }

    // MARK: Time

    /// When the message on the display times out, or `nil` when none will.
    public var nextDeadline: Int64? {
        guard !flashes.isEmpty, options.flashMilliseconds > 0 else { return nil }
        return flashShownAt + options.flashMilliseconds
    }

    /// Lets time pass: a message whose time is up gives way to the next one.
    public mutating func tick(now: Int64) {
        while let deadline = nextDeadline, deadline <= now { dismissFlash(now: deadline) }
    }

    // MARK: Rendering

    /// What the display shows now.
    public var frame: BrailleFrame {
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
        flashes.first.map { BrailleLayout(Array($0), width: size.columns, rows: size.rows) }
    }

    private var hintLayout: BrailleLayout? {
        guard let hint = focus?.element.hint, !hint.isEmpty else { return nil }
        return BrailleLayout(Array(hint), width: size.columns, rows: size.rows)
    }

    private var mainLayout: BrailleLayout {
        BrailleLayout(Array(focusText), width: size.columns, rows: size.rows)
    }

    private var editPrefix: String {
        guard let element = focus?.element else { return "" }
        return element.label + ": "
    }

    private mutating func revealCaret() {
        guard let editor, segment == .main else { return }
        pan = mainLayout.window(containing: editPrefix.count + editor.caret)
    }

    /// The focused element in words: label, value or typed text, role, position, rotor and action.
    public var focusText: String {
        guard let focus else { return screen?.title ?? "" }
        let element = focus.element
        var text: String
        if let editor {
            text = editPrefix + String(editor.text)
        } else if let value = element.value, !value.isEmpty {
            text = element.label + ": " + value
        } else {
            text = element.label
        }
        if let role = Self.roleWord(element.traits) { text += " " + role }
        text += " \(focus.index)/\(focus.count)"
        if let rotor, rotor.element == element.id {
            // The item is usually the element's value already; say it once.
            if let item = rotor.item, item != element.value {
                text += " \(rotor.rotor): \(item)"
            } else {
                text += " \(rotor.rotor)"
            }
            if let index = rotor.itemIndex { text += " \(index)/\(rotor.itemCount)" }
        }
        if let names = actions?.actions, actions?.element == element.id, !names.isEmpty {
            if let selectedAction {
                // The chosen action leads, so it is on the display without panning.
                text = "\(names[selectedAction]) action \(selectedAction + 1)/\(names.count) - " + text
            } else {
                text += names.count == 1 ? " 1 action" : " \(names.count) actions"
            }
        }
        return text
    }

    /// The short role word Braille users know from their screen readers.
    static func roleWord(_ traits: [Trait]) -> String? {
        if traits.contains(.textField) { return "edt" }
        if traits.contains(.adjustable) { return "adj" }
        if traits.contains(.button) { return traits.contains(.notEnabled) ? "btn dim" : "btn" }
        if traits.contains(.header) { return "hdr" }
        return nil
    }
}
