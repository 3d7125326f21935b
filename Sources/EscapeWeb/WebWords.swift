// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// The names of the page's keys, in one language, as the chapter pages name them ("press Control+Alt+M").
///
/// The same pattern as every word table of the game (``EngineWords``, the runtime's, the console's, the
/// Braille display's, the launcher's): one exhaustive switch per language, French typography's spaces
/// added once, English for a language the game does not speak. French names keys as a French keyboard
/// and Orca's French voice do (`Maj`, `Entrée`, `Échap`, `Ctrl`).
package struct WebWords: WordTable, Sendable, Hashable {
    /// Every key the page has for a gesture.
    package enum Key: String, Sendable, Hashable, CaseIterable {
        case next, previous, activate, adjust, magicTap, escape, hint, menu, repeatAnnouncement

        /// The page's key for `gesture`, or `nil` for a gesture the page has no key for (it has buttons
        /// for the rotor and the actions, and the first and last element are a Tab away).
        package init?(_ gesture: Gesture) {
            switch gesture {
            case .next: self = .next
            case .previous: self = .previous
            case .activate: self = .activate
            case .adjust: self = .adjust
            case .magicTap: self = .magicTap
            case .escape: self = .escape
            case .hint: self = .hint
            case .menu: self = .menu
            case .repeat: self = .repeatAnnouncement
            case .first, .last, .pan, .rotor, .rotorItem, .action: return nil
            }
        }
    }

    /// The language of the words.
    package var language: EngineWords.Language

    /// The words of `language`.
    package init(_ language: EngineWords.Language) {
        self.language = language
    }

    /// The words for a BCP 47 or POSIX locale (`fr`, `fr_FR.UTF-8`): its language's, or English.
    package init(locale: String?) {
        self.init(EngineWords(locale: locale ?? "").language)
    }

    /// The name of `key`.
    package func template(_ key: Key) -> String {
        switch language {
        case .english: Self.english(key)
        case .french: FrenchTypography.spaced(Self.french(key))
        }
    }

    /// The name of each gesture's key, for the engine to say on the chapter pages (`hello`'s `keys`).
    package var gestureKeys: [Gesture: String] {
        Dictionary(
            uniqueKeysWithValues: Gesture.allCases.compactMap { gesture in Key(gesture).map { (gesture, self($0)) } }
        )
    }

    private static func english(_ key: Key) -> String {
        switch key {
        case .next: "Tab"
        case .previous: "Shift+Tab"
        case .activate: "Enter"
        case .adjust: "Up and Down arrows"
        case .magicTap: "Control+Alt+M"
        case .escape: "Escape"
        case .hint: "Control+Alt+H"
        case .menu: "Control+Alt+L"
        case .repeatAnnouncement: "Control+Alt+R"
        }
    }

    private static func french(_ key: Key) -> String {
        switch key {
        case .next: "Tab"
        case .previous: "Maj+Tab"
        case .activate: "Entrée"
        case .adjust: "flèches haut et bas"
        case .magicTap: "Ctrl+Alt+M"
        case .escape: "Échap"
        case .hint: "Ctrl+Alt+H"
        case .menu: "Ctrl+Alt+L"
        case .repeatAnnouncement: "Ctrl+Alt+R"
        }
    }
}
