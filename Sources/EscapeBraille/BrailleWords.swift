// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// The words the Braille front end shows of its own, in each language of the adventures.
///
/// Everything else on the display is the engine's, in the adventure's language; these are the few
/// things only a Braille display needs said: the short role words and positions, a refusal while
/// another player controls a shared game, and the end of a shared game.
public enum BrailleWords {
    /// The short word after a custom action's name and before its position ("open act 1/3").
    static func actionAbbreviation(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "act"
        case .french: "act"
        }
    }

    /// What a key does while another player controls the shared game this display follows.
    static func followingAnotherPlayer(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "Another player is playing; you watch."
        case .french: FrenchTypography.spaced("Un autre joueur joue ; tu regardes.")
        }
    }

    /// What the display shows when the shared game it follows has ended.
    static func sharedGameEnded(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "The shared game has ended. Any key leaves."
        case .french: "La partie partagée est finie. Une touche pour quitter."
        }
    }

    /// What the short words on the display mean, said once in the key help (with the key that moves
    /// from element to element, the first one a player learns).
    public static func legend(_ language: KeyLanguage) -> String {
        switch language {
        case .english:
            "each element shows its label first, then: btn button, edt text field, adj adjustable, hdr heading, "
                + "dim not usable yet, act custom action, 3/5 third of five"
        case .french:
            FrenchTypography.spaced(
                "chaque élément montre d'abord son nom, puis : btn bouton, edt champ de texte, adj réglable, "
                    + "hdr titre, dim pas encore utilisable, act action, 3/5 troisième sur cinq"
            )
        }
    }
}
