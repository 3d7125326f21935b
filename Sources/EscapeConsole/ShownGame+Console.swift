// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
package import EscapeRuntime

/// What the console reads from the game it was shown: its words, the text field, the items by number.
///
/// The console keeps no game state of its own; it remembers what it was shown so that typed lines can
/// name items by number and `help` can say what the screen-wide gestures do here.
extension ShownGame {
    /// The console's own words, in the adventure's language.
    package var words: ConsoleWords { ConsoleWords(locale: locale) }

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
