// SPDX-License-Identifier: Apache-2.0
/// What kind of thing an accessible element is, in the words screen readers use.
///
/// The raw values are the wire form; they follow the names of UIKit's accessibility traits.
public enum Trait: String, Sendable, Hashable, CaseIterable {
    /// Something to activate.
    case button
    /// A heading that starts a part of the screen.
    case header
    /// Text to read; activating it does nothing.
    case staticText
    /// A field the player types into.
    case textField
    /// A value the player moves up and down.
    case adjustable
    /// Shown but not usable now (a locked level, say).
    case notEnabled
    /// The element that is chosen among its siblings.
    case selected
}
