// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// What the launcher says of itself, in one language: the line a crash leaves on standard error.
///
/// The same pattern as every word table of the game (``EngineWords``, the runtime's, the console's, the
/// Braille display's, the web page's): one exhaustive switch per language, placeholders in braces filled
/// in one pass, French typography's spaces added once, English for a language the game does not speak.
package struct LaunchWords: WordTable, Sendable, Hashable {
    /// Every sentence of the launcher.
    package enum Key: String, Sendable, Hashable, CaseIterable {
        /// efb stopped on a fatal signal: the signal's `{signal}` name and the exit `{status}`.
        case crashed
    }

    /// The language of the words.
    package var language: EngineWords.Language

    /// The words of `language`.
    package init(_ language: EngineWords.Language) {
        self.language = language
    }

    /// The sentence of `key`, placeholders unfilled.
    package func template(_ key: Key) -> String {
        switch language {
        case .english: Self.english(key)
        case .french: FrenchTypography.spaced(Self.french(key))
        }
    }

    private static func english(_ key: Key) -> String {
        switch key {
        case .crashed:
            "efb stopped on an internal error ({signal}). Your progress is saved up to the last door you opened. "
                + "Exit status {status}."
        }
    }

    private static func french(_ key: Key) -> String {
        switch key {
        case .crashed:
            "efb s’est arrêté sur une erreur interne ({signal}). Votre progression est enregistrée jusqu’à la "
                + "dernière porte ouverte. Code de sortie {status}."
        }
    }
}
