// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// The words the Braille front end shows of its own, in each language of the adventures.
///
/// Everything else on the display is the engine's, in the adventure's language; these are the few
/// things only a Braille display needs said: the short role words and positions, a refusal while
/// another player controls a shared game, and the end of a shared game.
package enum BrailleWords {
    /// The short words of the display, each for a role or a state.
    enum Role {
        case button, textField, adjustable, heading
        /// Not usable yet (a locked level).
        case notEnabled
        /// After a custom action's name and before its position ("open act 1/3"), and after their count.
        case action
    }

    /// The short word for `role`: BRLTTY's, NVDA's and Orca's in English; in French, Orca's French
    /// (`bout`, as its braille role names) or the word's first letters, each chosen so that a reader of
    /// abrégé (and liblouis' fr-bfu-g2 back-translating it) reads it as the letters it is: `btn` in
    /// abrégé reads as "btenir", `txt` as "text".
    static func role(_ role: Role, _ language: KeyLanguage) -> String {
        switch (language, role) {
        case (.english, .button): "btn"
        case (.english, .textField): "edt"
        case (.english, .adjustable): "adj"
        case (.english, .heading): "hdr"
        case (.english, .notEnabled): "dim"
        case (.english, .action): "act"
        case (.french, .button): "bout"
        case (.french, .textField): "chp"
        case (.french, .adjustable): "régl"
        case (.french, .heading): "tit"
        case (.french, .notEnabled): "inac"
        case (.french, .action): "act"
        }
    }

    /// What follows a label before its value or the answer typed ("Your answer: "), with the no-break
    /// space French puts before a colon.
    static func colon(_ language: KeyLanguage) -> String {
        switch language {
        case .english: ": "
        case .french: "\u{00A0}: "
        }
    }

    /// What follows a value before the custom action chosen, with French's narrow no-break space.
    static func semicolon(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "; "
        case .french: "\u{202F}; "
        }
    }

    /// What a key does while another player controls the shared game this display follows.
    ///
    /// It says how the player takes over: by playing, once the other player is done (hands over or
    /// leaves). It fits one window of a 40-cell display.
    static func followingAnotherPlayer(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "Another player plays; yours when done."
        case .french: FrenchTypography.spaced("Un autre joue ; à toi quand il a fini.")
        }
    }

    /// What panning or moving past either end of a screen says: there is nothing further that way (the
    /// console says it in a sentence; a display, in two words).
    static func edge(_ language: KeyLanguage, last: Bool) -> String {
        switch (language, last) {
        case (.english, true): "Last item."
        case (.english, false): "First item."
        case (.french, true): "Dernier élément."
        case (.french, false): "Premier élément."
        }
    }

    /// What Escape says in an answer field that holds text: the answer stays, and where the menu is.
    static func answerKept(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "Your answer is kept. INFO opens the level menu."
        case .french: "Ta réponse est gardée. INFO ouvre le menu des niveaux."
        }
    }

    /// What the keys for custom actions say where the focused element has none.
    static func noCustomActions(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "No custom actions here."
        case .french: "Pas d'action ici."
        }
    }

    /// What the display shows when the shared game it follows has ended.
    static func sharedGameEnded(_ language: KeyLanguage) -> String {
        switch language {
        case .english: "The shared game has ended. Pan to read; any other key leaves."
        case .french:
            FrenchTypography.spaced(
                "La partie partagée est finie. Fais défiler pour lire ; une autre touche pour quitter."
            )
        }
    }

    /// The lines the front end writes on its terminal, which BRLTTY shows whenever the game is not
    /// on the display (before it connects, while BRLTTY shows its own screens): in the game's language.
    enum TerminalLine {
        case connected(DisplaySize)
        case back(DisplaySize)
        case lost(String)
        case brlttyScreen
        case givenBack
        case offline(seconds: Int64)
        case sharedGameEnded
        /// Waiting for BRLTTY: the reason, and whether BRLTTY refused this program's key.
        case waiting(String, refused: Bool)
    }

    static func terminal(_ line: TerminalLine, _ language: KeyLanguage) -> String {
        switch language {
        case .english: english(line)
        case .french: FrenchTypography.spaced(french(line))
        }
    }

    private static func english(_ line: TerminalLine) -> String {
        switch line {
        case .connected(let size): "Connected to BRLTTY (\(size)); the game is on the display."
        case .back(let size): "BRLTTY is back (\(size)); carrying on where you were."
        case .lost(let reason): "Lost the Braille display (\(reason)); trying to reconnect."
        case .brlttyScreen: "BRLTTY is showing its own screen (its menu or a message); the game waits on the display."
        case .givenBack: "BRLTTY gave the display back; the game is on the display again."
        case .offline(let seconds): "The Braille display has been offline for \(seconds) s; the game waits for it."
        case .sharedGameEnded: "The shared game has ended."
        case .waiting(let reason, let refused):
            (["Waiting for BRLTTY, the program that drives Braille displays (\(reason))."]
                + (refused
                    ? [
                        "BRLTTY is running but refused this program. Run the game as a member of the brlapi group "
                            + "(sudo adduser $USER brlapi, then log in again), or pass --auth with BRLTTY's key file."
                    ]
                    : [
                        "Start BRLTTY for your display, for example: sudo systemctl start brltty "
                            + "(or sudo brltty -b DRIVER -d DEVICE, e.g. -b ht -d usb:). Plug in and switch on the "
                            + "display.",
                        "If BRLTTY runs on another machine or port, pass --host HOST:N.",
                    ])
                + ["The game starts by itself as soon as BRLTTY answers; Ctrl+C gives up."]).joined(separator: "\n")
        }
    }

    private static func french(_ line: TerminalLine) -> String {
        func cells(_ size: DisplaySize) -> String {
            size.rows == 1 ? "\(size.columns) cellules" : "\(size.columns)×\(size.rows) cellules"
        }
        switch line {
        case .connected(let size): return "Connecté à BRLTTY (\(cells(size))) ; le jeu est sur l'afficheur."
        case .back(let size): return "BRLTTY est revenu (\(cells(size))) ; tu reprends où tu en étais."
        case .lost(let reason): return "L'afficheur braille est perdu (\(reason)) ; nouvelle tentative de connexion."
        case .brlttyScreen:
            return "BRLTTY affiche son propre écran (son menu ou un message) ; le jeu attend sur l'afficheur."
        case .givenBack: return "BRLTTY a rendu l'afficheur ; le jeu y est de nouveau."
        case .offline(let seconds):
            return "L'afficheur braille est hors ligne depuis \(seconds) s ; le jeu l'attend."
        case .sharedGameEnded: return "La partie partagée est finie."
        case .waiting(let reason, let refused):
            var lines = ["En attente de BRLTTY, le programme qui pilote les afficheurs braille (\(reason))."]
            if refused {
                lines.append(
                    "BRLTTY tourne mais a refusé ce programme. Lance le jeu en tant que membre du groupe brlapi "
                        + "(sudo adduser $USER brlapi, puis reconnecte-toi), ou passe --auth avec le fichier de clé "
                        + "de BRLTTY."
                )
            } else {
                lines.append(
                    "Démarre BRLTTY pour ton afficheur, par exemple : sudo systemctl start brltty "
                        + "(ou sudo brltty -b PILOTE -d PÉRIPHÉRIQUE, p. ex. -b ht -d usb:). Branche et allume "
                        + "l'afficheur."
                )
                lines.append("Si BRLTTY tourne sur une autre machine ou un autre port, passe --host HÔTE:N.")
            }
            lines.append("Le jeu démarre tout seul dès que BRLTTY répond ; Ctrl+C abandonne.")
            return lines.joined(separator: "\n")
        }
    }

    /// What the short words on the display mean, said once in the key help (with the key that moves
    /// from element to element, the first one a player learns).
    package static func legend(_ language: KeyLanguage) -> String {
        switch language {
        case .english:
            "each element shows its label first, then: btn button, edt text field, adj adjustable, hdr heading, "
                + "dim not usable yet, 2 act two custom actions to choose from, open act 1/3 the first of three "
                + "chosen, 3/5 third of five"
        case .french:
            FrenchTypography.spaced(
                "chaque élément montre d'abord son nom, puis : bout bouton, chp champ de texte, régl réglable, "
                    + "tit titre, inac pas encore utilisable, 2 act deux actions au choix, ouvrir act 1/3 la "
                    + "première des trois choisie, 3/5 troisième sur cinq"
            )
        }
    }
}
