// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
package import EscapeProtocol

/// The game as a front end was shown it: the screen, the focus, the focused element's rotor and
/// actions, the adventure's locale and, in a shared game, the front end's part, as the events told them.
///
/// A front end that makes its own commands (the console, the Braille display) keeps no game state of
/// its own: it folds the session's events, in order, into one of these and reads from it. What a front
/// end does on top of it stays with that front end: the console numbers the items of ``screen``; the
/// Braille display remembers where the player was reading and which answers were typed.
package struct ShownGame: Sendable, Hashable {
    /// The screen on show.
    package var screen: Screen?
    /// The focused element of the screen on show: `nil` from a screen's arrival until its focus is told.
    package var focus: FocusState?
    /// The rotor of the focused element, if it has one.
    package var rotor: RotorState?
    /// The custom actions of the focused element, if it has any.
    package var actions: ActionList?
    /// The adventure's locale, from `hello`.
    package var locale: String?
    /// In a game `efb serve` shares, this front end's part and whether nobody plays: `nil` in a game of its own.
    package var control: SharedControl?

    /// A front end's part in a shared game, as the last `role` event told it.
    package struct SharedControl: Sendable, Hashable {
        /// Whether this front end plays or watches.
        package var role: ClientRole
        /// Whether nobody plays, so the next move takes the game.
        package var isFree: Bool

        /// Creates a part.
        ///
        /// - Parameters:
        ///   - role: Whether the front end plays or watches.
        ///   - isFree: Whether nobody plays.
        package init(role: ClientRole, isFree: Bool) {
            self.role = role
            self.isFree = isFree
        }
    }

    /// Creates a game that was shown nothing yet.
    package init() {}

    /// Takes in the next event.
    ///
    /// A new screen takes the old focus, rotor and actions with it: the focus that follows it is its own.
    /// A focus on another element takes the rotor and the actions of the one it leaves. A changed element
    /// is changed in the screen's items and, when focused, in the focus.
    ///
    /// - Parameter event: The next event from the session.
    package mutating func apply(_ event: Event) {
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
            // In protocol 1.0 a change of the focused element comes as a focus event: the items stay true.
            replaceItem(with: focus.element)
        case .game(.rotor(let rotor)):
            self.rotor = rotor
        case .game(.actions(let actions)):
            self.actions = actions
        case .game(.elementChanged(let element)):
            replaceItem(with: element)
            if focus?.element.id == element.id { focus?.element = element }
        case .role(let role, let controlFree):
            control = SharedControl(role: role, isFree: controlFree)
        case .game(.announce), .game(.result), .game(.sound), .game(.ended), .game(.ambient), .game(.timer),
            .progress, .error, .done, .bye, .ended, .validActions, .observation, .snapshot, .idle:
            break
        }
    }

    /// The focused element, if there is one.
    package var focusedElement: Element? { focus?.element }

    /// Puts `element` in the place of the screen's item with its id, if there is one.
    private mutating func replaceItem(with element: Element) {
        if let index = screen?.elements.firstIndex(where: { $0.id == element.id }) {
            screen?.elements[index] = element
        }
    }
}
