// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// What each BRLTTY command the game binds does, in one language: the words of BRLTTY's own key help
/// and learn mode (its command table, and that table's French translation), so the player reads the
/// key described as BRLTTY describes it and finds it in BRLTTY's key help for the display.
///
/// The same pattern as every word table of the game (``BrailleWords``, ``EngineWords``): one exhaustive
/// switch per language, French typography's spaces added once, English for a language the game does
/// not speak.
package struct BrailleCommandWords: WordTable, Sendable, Hashable {
    /// The language of the words.
    package var language: EngineWords.Language

    /// The words of `language`.
    package init(_ language: EngineWords.Language) {
        self.language = language
    }

    /// What `command` does, as BRLTTY's key help says it.
    package func template(_ command: BrailleCommand) -> String {
        switch language {
        case .english: Self.english(command)
        case .french: FrenchTypography.spaced(Self.french(command))
        }
    }

    private static func english(_ command: BrailleCommand) -> String {
        switch command {
        case .noop: "do nothing"
        case .lineUp: "go up one line"
        case .lineDown: "go down one line"
        case .previousDifferentLine: "go up to nearest line with different content"
        case .nextDifferentLine: "go down to nearest line with different content"
        case .attributeUp: "go up to nearest line with different highlighting"
        case .attributeDown: "go down to nearest line with different highlighting"
        case .top: "go to top line"
        case .bottom: "go to bottom line"
        case .topLeft: "go to beginning of top line"
        case .bottomLeft: "go to beginning of bottom line"
        case .previousParagraph: "go up to first line of paragraph"
        case .nextParagraph: "go down to first line of next paragraph"
        case .previousPrompt: "go up to previous command prompt"
        case .nextPrompt: "go down to next command prompt"
        case .fullWindowLeft: "go backward one braille window"
        case .fullWindowRight: "go forward one braille window"
        case .home: "go to screen cursor"
        case .back: "go back after cursor tracking"
        case .return: "go to screen cursor or go back after cursor tracking"
        case .trackCursor: "set track screen cursor on/off"
        case .info: "enter/leave status display"
        case .offline: "braille display temporarily unavailable"
        }
    }

    private static func french(_ command: BrailleCommand) -> String {
        switch command {
        case .noop: "ne rien faire"
        case .lineUp: "remonte d'une ligne"
        case .lineDown: "descendre d'une ligne"
        case .previousDifferentLine: "remonte à la ligne la plus proche ayant un contenu différent"
        case .nextDifferentLine: "descend à la ligne la plus proche ayant un contenu différent"
        case .attributeUp: "remonte à la ligne la plus proche ayant un surlignement différent"
        case .attributeDown: "descend à la ligne la plus proche ayant un surlignement différent"
        case .top: "va à la toute première ligne"
        case .bottom: "va à la toute dernière ligne"
        case .topLeft: "va au début de la toute première ligne"
        case .bottomLeft: "va au début de la toute dernière ligne"
        case .previousParagraph: "monte à la première ligne du paragraphe"
        case .nextParagraph: "descend à la première ligne du paragraphe suivant"
        case .previousPrompt: "remonte à l'invite de commande précédent"
        case .nextPrompt: "descend à l'invite de commande suivant"
        case .fullWindowLeft: "recule d'une fenêtre braille"
        case .fullWindowRight: "avance d'une fenêtre braille"
        case .home: "va au curseur de l'écran"
        case .back: "revenir après la poursuite du curseur"
        case .return: "va au curseur de l'écran ou revient d'une poursuite du curseur"
        case .trackCursor: "active ou désactive la poursuite du curseur de l'écran"
        case .info: "entrer/quitter l'affichage de l'état"
        case .offline: "afficheur braille temporairement indisponible"
        }
    }
}
