// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// One line of console output, with what kind of line it is.
///
/// Its text never holds a control character (they are dropped as the line is made: see
/// ``TerminalSafety``). The kind picks a colour when colour is asked for, and whether speech says the line: the numbered
/// listing of a screen is for reading, and is not spoken on arrival.
package struct ConsoleLine: Sendable, Hashable {
    /// What kind of line it is.
    package enum Style: Sendable, Hashable, CaseIterable {
        /// Narrative, feedback, the focus.
        case plain
        /// A screen's title, the start of a listing.
        case title
        /// One item of a listing.
        case item
        /// A hint.
        case hint
        /// Something went wrong or was refused.
        case error
        /// A right answer.
        case correct
        /// A wrong answer.
        case wrong
        /// The time left on a timed level.
        case time
        /// One of a timed level's last ten seconds: with the countdown drawn in place, a new one takes
        /// the place of the one before it when nothing came between.
        case countdown
    }

    /// The text, without a terminator and without colour codes.
    package var text: String
    /// What kind of line it is.
    package var style: Style
    /// Whether `--speech` says it.
    package var spoken: Bool

    /// Creates a line.
    ///
    /// - Parameters:
    ///   - text: The text, on one line.
    ///   - style: What kind of line it is.
    ///   - spoken: Whether speech says it.
    package init(_ text: String, style: Style = .plain, spoken: Bool = true) {
        // Whatever a text carries, the terminal gets no command from it (``TerminalSafety``).
        self.text = TerminalSafety.sanitized(text)
        self.style = style
        self.spoken = spoken
    }

    /// The line as written to the terminal: the text, in colour (ANSI SGR codes) only when asked.
    ///
    /// - Parameter color: Whether to add colour codes.
    /// - Returns: The text, without a terminator.
    package func formatted(color: Bool) -> String {
        guard color, let code = style.colorCode else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}

extension ConsoleLine.Style {
    /// The SGR parameter of the style's colour, or `nil` for none.
    fileprivate var colorCode: String? {
        switch self {
        case .plain, .item, .time, .countdown: nil
        case .title: "1"
        case .hint: "36"
        case .error: "31"
        case .correct: "32"
        case .wrong: "33"
        }
    }
}
