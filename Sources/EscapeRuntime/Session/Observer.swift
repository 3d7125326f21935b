// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol

/// What `observe` reports (protocol section 4.16): the game as one plain text, with what was said
/// and heard since the last observation, gathered as the session sends its events.
///
/// Part of the session's value, so a refused batch takes back what it would have gathered. Between two
/// observations at most ``maximumLines`` lines said and texts heard are kept each (the first ones):
/// a client that never observes costs a few appends an event, then nothing.
struct Observer: Sendable {
    /// The most lines said, and texts heard, kept between two observations.
    static let maximumLines = 256

    /// What was said since the last observation: announcements, and errors as `error: MESSAGE`.
    private var said: [String] = []
    /// What was heard since the last observation (see ``Observation/heard``).
    private var heard: [String] = []

    /// Notes an event the session sends (whether or not the client wants it sent).
    mutating func note(_ event: borrowing Event) {
        switch event {
        case .game(.announce(let announcement)):
            add(announcement.text, to: &said)
            if announcement.category != .echo { add(announcement.text, to: &heard) }
        case .error(let error):
            add("error: " + error.message, to: &said)
        case .game(.screen(let screen)):
            add(screen.title, to: &heard)
            for element in screen.elements { noteChanged(element) }
        default:
            break
        }
    }

    /// Notes an element that changed on the screen on show (protocol 1.0 says it in a `focus`).
    mutating func noteChanged(_ element: Element) {
        add(element.label, to: &heard)
        if let value = element.value, !element.traits.contains(.textField) { add(value, to: &heard) }
    }

    private func add(_ text: String, to lines: inout [String]) {
        if lines.count < Self.maximumLines { lines.append(text) }
    }

    /// The observation of the game now; what was said and heard starts again from nothing.
    ///
    /// - Parameters:
    ///   - engine: The game.
    ///   - now: The session's time.
    ///   - maxActions: The most valid actions the text lists (all when `nil`).
    ///   - actions: The valid actions, when the caller has them already.
    /// - Returns: The `observation` event's content.
    mutating func observe(
        _ engine: borrowing Engine,
        now: Int64,
        maxActions: Int?,
        actions: [ValidAction]? = nil
    ) -> Observation {
        let screen = engine.screen
        // (Every level the progress holds is one of the adventure's: saves and snapshots are checked.)
        let completed = engine.progress.completed.count
        let total = engine.adventure.chapters.reduce(0) { $0 + $1.levels.count }
        // The text is written as UTF-8 bytes: appending to a String piece by piece cost several times more.
        var text = TextLines()
        text.add("screen: ")
        text.add(screen.title)
        text.add(" (")
        text.add(screen.kind.rawValue)
        text.add(")")
        let focus = engine.focus
        for (index, element) in screen.elements.enumerated() {
            let focused = index == focus.index - 1 && element.id == focus.element.id
            text.add(focused ? "\n> " : "\n  ")
            Self.describe(element, into: &text)
        }
        text.add("\nsolved: ")
        text.add(completed)
        text.add("/")
        text.add(total)
        if let timer = engine.timer(now: now) {
            text.add("\ntorch: ")
            text.add(Int(timer.remainingMs / 1000))
            text.add(" s")
            if timer.paused { text.add(" (paused)") }
        }
        if !said.isEmpty {
            text.add("\nsaid:")
            for line in said {
                text.add("\n- ")
                text.add(line)
            }
        }
        text.add("\nactions:")
        for (index, action) in (actions ?? engine.validActions).prefix(maxActions ?? .max).enumerated() {
            text.add("\n")
            text.add(index)
            text.add(": ")
            text.add(action.label)
            if action.needsText { text.add(" (needs text)") }
        }
        let observation = Observation(
            screen: screen.id,
            kind: screen.kind,
            focus: focus.element.id,
            text: text.string,
            heard: heard,
            completed: completed,
            total: total
        )
        said.removeAll(keepingCapacity: true)
        heard.removeAll(keepingCapacity: true)
        return observation
    }

    /// An element as one line: its label and value, its traits but static text in brackets, its
    /// rotors and its custom actions.
    private static func describe(_ element: Element, into text: inout TextLines) {
        text.add(element.label)
        if let value = element.value {
            text.add(": ")
            text.add(value)
        }
        var first = true
        for trait in element.traits where trait != .staticText {
            text.add(first ? " [" : ", ")
            text.add(trait.rawValue)
            first = false
        }
        if !first { text.add("]") }
        list("rotors", element.rotors, into: &text)
        list("actions", element.actions, into: &text)
    }

    /// ` (NAME: A, B)`, or nothing for an empty list.
    private static func list(_ name: String, _ items: [String], into text: inout TextLines) {
        guard !items.isEmpty else { return }
        text.add(" (")
        text.add(name)
        text.add(": ")
        for (index, item) in items.enumerated() {
            if index > 0 { text.add(", ") }
            text.add(item)
        }
        text.add(")")
    }
}

/// A text being written, as UTF-8 bytes.
private struct TextLines {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1024) }

    mutating func add(_ part: String) {
        var part = part
        part.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ number: Int) { add(String(number)) }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
