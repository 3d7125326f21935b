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
    mutating func observe(_ engine: borrowing Engine, now: Int64, maxActions: Int?) -> Observation {
        let screen = engine.screen
        let progress = engine.progressSummary
        var text = "screen: \(screen.title) (\(screen.kind.rawValue))"
        let focus = engine.focus
        for (index, element) in screen.elements.enumerated() {
            let focused = index == focus.index - 1 && element.id == focus.element.id
            text += focused ? "\n> " : "\n  "
            Self.describe(element, into: &text)
        }
        text += "\nsolved: \(progress.completed.count)/\(progress.total)"
        if let timer = engine.timer(now: now) {
            text += "\ntorch: \(timer.remainingMs / 1000) s" + (timer.paused ? " (paused)" : "")
        }
        if !said.isEmpty {
            text += "\nsaid:"
            for line in said { text += "\n- " + line }
        }
        text += "\nactions:"
        for (index, action) in engine.validActions.prefix(maxActions ?? .max).enumerated() {
            text += "\n\(index): " + action.label + (action.needsText ? " (needs text)" : "")
        }
        let observation = Observation(
            screen: screen.id,
            kind: screen.kind,
            text: text,
            heard: heard,
            completed: progress.completed.count,
            total: progress.total
        )
        said.removeAll(keepingCapacity: true)
        heard.removeAll(keepingCapacity: true)
        return observation
    }

    /// An element as one line: its label and value, its traits but static text in brackets, its
    /// rotors and its custom actions.
    private static func describe(_ element: Element, into text: inout String) {
        text += element.label
        if let value = element.value { text += ": " + value }
        let traits = element.traits.filter { $0 != .staticText }
        if !traits.isEmpty { text += " [" + traits.map(\.rawValue).joined(separator: ", ") + "]" }
        if !element.rotors.isEmpty { text += " (rotors: " + element.rotors.joined(separator: ", ") + ")" }
        if !element.actions.isEmpty { text += " (actions: " + element.actions.joined(separator: ", ") + ")" }
    }
}
