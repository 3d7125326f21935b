// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
package import EscapeProtocol

/// What the console knows of the game: the latest screen, focus, rotor and actions, as the events told it.
///
/// The console keeps no game state of its own; it remembers what it was shown so that typed lines can
/// name items by number and `help` can say what the screen-wide gestures do here.
package struct ConsoleContext: Sendable, Hashable {
    /// The screen on show.
    package var screen: Screen?
    /// The focused element.
    package var focus: FocusState?
    /// The rotor of the focused element, if it has one.
    package var rotor: RotorState?
    /// The custom actions of the focused element, if it has any.
    package var actions: ActionList?
    /// The adventure's locale, from `hello`.
    package var locale: String?
    /// In a game `efb serve` shares, this console's part and whether nobody plays: `nil` on a game of its own.
    package var control: SharedControl?

    /// A console's part in a shared game, as the last `role` event told it.
    package struct SharedControl: Sendable, Hashable {
        /// Whether this console plays or watches.
        package var role: ClientRole
        /// Whether nobody plays, so the next move takes the game.
        package var isFree: Bool
    }

    /// Creates a context that has seen nothing yet.
    package init() {}

    /// Takes in one event.
    ///
    /// - Parameter event: The next event from the session.
    package mutating func observe(_ event: Event) {
        switch event {
        case .hello(let hello):
            locale = hello.locale
        case .game(.screen(let screen)):
            self.screen = screen
            focus = nil
            rotor = nil
            actions = nil
        case .game(.focus(let focus)):
            if self.focus?.element.id != focus.element.id {
                rotor = nil
                actions = nil
            }
            self.focus = focus
            // In protocol 1.0 a change of the focused element comes as a focus event: keep the listing true.
            if let index = screen?.elements.firstIndex(where: { $0.id == focus.element.id }) {
                screen?.elements[index] = focus.element
            }
        case .game(.rotor(let rotor)):
            self.rotor = rotor
        case .role(let role, let controlFree):
            control = SharedControl(role: role, isFree: controlFree)
        case .game(.actions(let actions)):
            self.actions = actions
        case .game(.elementChanged(let element)):
            if let index = screen?.elements.firstIndex(where: { $0.id == element.id }) {
                screen?.elements[index] = element
            }
            if focus?.element.id == element.id { focus?.element = element }
        case .game(.announce), .game(.result), .game(.sound), .game(.ended), .game(.ambient), .game(.timer),
            .progress, .error, .done, .bye, .ended, .validActions, .observation, .snapshot, .idle:
            break
        }
    }

    /// The console's own words, in the adventure's language.
    package var words: ConsoleWords { ConsoleWords(locale: locale) }

    /// The focused element, if there is one.
    package var focusedElement: Element? { focus?.element }

    /// Whether the focused element is a text field.
    package var isOnTextField: Bool { focusedElement?.traits.contains(.textField) ?? false }

    /// The element numbered `number` (from 1) on the screen, if there is one.
    ///
    /// - Parameter number: The position the listing shows.
    /// - Returns: The element, or `nil` when the screen has no such item.
    package func element(numbered number: Int) -> Element? {
        guard let elements = screen?.elements, elements.indices.contains(number - 1) else { return nil }
        return elements[number - 1]
    }
}
