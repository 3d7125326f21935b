// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// The words the Braille front end shows or writes of its own, in one language.
///
/// Everything else on the display is the engine's, in the adventure's language; these are the few
/// things only a Braille display needs said: the short role words and separators, a refusal while
/// another player controls a shared game, the end of a shared game, and the lines the front end writes
/// on its terminal. The same pattern as every word table of the game (``EngineWords``, the runtime's,
/// the console's, the web page's, the launcher's): one exhaustive switch per language, placeholders in
/// braces filled in one pass, French typography's spaces added once, English for a language the game
/// does not speak.
package struct BrailleWords: WordTable, Sendable, Hashable {
    /// Every word and sentence of the Braille front end.
    package enum Key: String, Sendable, Hashable, CaseIterable {
        // MARK: The display's short words, each for a role or a state

        /// BRLTTY's, NVDA's and Orca's in English; in French, Orca's French (`bout`, as its braille role
        /// names) or the word's first letters, each chosen so that a reader of abrégé (and liblouis'
        /// fr-bfu-g2 back-translating it) reads it as the letters it is: `btn` in abrégé reads as
        /// "btenir", `txt` as "text".
        case button, textField, adjustable, heading
        /// Not usable yet (a locked level).
        case notEnabled
        /// After a custom action's name and before its position ("open act 1/3"), and after their count.
        case action
        /// What follows a label before its value or the answer typed ("Your answer: ").
        case colon
        /// What follows a value before the custom action chosen.
        case semicolon

        // MARK: What the display flashes

        /// A key while another player controls the shared game this display follows: how the player
        /// takes over (by playing, once the other player is done). It fits one window of 40 cells.
        case followingAnotherPlayer
        /// Moving or panning past the last element (the console says it in a sentence; a display, in two
        /// words).
        case lastItem
        /// Moving or panning before the first element.
        case firstItem
        /// Escape in an answer field that holds text: the answer stays, and where the menu is.
        case answerKept
        /// A key for custom actions where the focused element has none.
        case noCustomActions
        /// The shared game this display follows has ended.
        case sharedGameEnded
        /// What the short words on the display mean, said once in the key help.
        case legend

        // MARK: The keys, as `hello` names them for the engine's key help

        /// The key of one BRLTTY command: what the `{command}` does, in BRLTTY's words, and its `{name}`.
        case commandKey
        /// The keys of a pair of BRLTTY commands (previous, next): the `{first}` and `{second}` command's
        /// words, and their `{names}`.
        case commandKeyPair
        /// The keys that activate, which are not BRLTTY commands: routing keys and Enter.
        case activateKeys
        /// A `{key}` described with the `{legend}` of the display's short words after it.
        case keyWithLegend

        // MARK: The lines on the front end's terminal, which BRLTTY shows when the game is not on the display

        /// Connected: the display's `{size}` (``cells`` or ``cellsAndRows``).
        case terminalConnected
        /// BRLTTY came back: the display's `{size}`.
        case terminalBack
        /// The display was lost: BrlAPI's `{reason}`.
        case terminalLost
        case terminalBrlttyScreen
        case terminalGivenBack
        /// Offline for `{seconds}`.
        case terminalOffline
        case terminalSharedGameEnded
        /// Waiting for BRLTTY: BrlAPI's `{reason}`; then one of the next two, then ``terminalWaitingGivesUp``.
        case terminalWaiting
        /// BRLTTY refused this program's key.
        case terminalWaitingRefused
        /// No BRLTTY answered: how to start one, and how to point at another.
        case terminalWaitingStart
        /// How to stop waiting.
        case terminalWaitingGivesUp
        /// A one-row display's size: `{columns}`.
        case cells
        /// A display of several rows: `{columns}` and `{rows}`.
        case cellsAndRows
    }

    /// The language of the words.
    package var language: EngineWords.Language

    /// The words of `language`.
    package init(_ language: EngineWords.Language) {
        self.language = language
    }

    /// The words for a BCP 47 or POSIX locale (`fr`, `fr_FR.UTF-8`): its language's, or English.
    package init(locale: String) {
        self.init(EngineWords(locale: locale).language)
    }

    /// The sentence of `key`, placeholders unfilled.
    package func template(_ key: Key) -> String {
        switch language {
        case .english: Self.english(key)
        case .french: FrenchTypography.spaced(Self.french(key))
        }
    }

    /// A display's size, as the terminal lines say it.
    package func size(_ size: DisplaySize) -> String {
        size.rows == 1
            ? self(.cells, ["columns": "\(size.columns)"])
            : self(.cellsAndRows, ["columns": "\(size.columns)", "rows": "\(size.rows)"])
    }

    /// The lines written while waiting for BRLTTY, for BrlAPI's `reason`, and whether BRLTTY refused
    /// this program's key.
    package func waiting(reason: String, refused: Bool) -> String {
        [
            self(.terminalWaiting, ["reason": reason]),
            self(refused ? .terminalWaitingRefused : .terminalWaitingStart),
            self(.terminalWaitingGivesUp),
        ].joined(separator: "\n")
    }

    private static func english(_ key: Key) -> String {
        switch key {
        case .button: "btn"
        case .textField: "edt"
        case .adjustable: "adj"
        case .heading: "hdr"
        case .notEnabled: "dim"
        case .action: "act"
        case .colon: ": "
        case .semicolon: "; "
        case .followingAnotherPlayer: "Another player plays; yours when done."
        case .lastItem: "Last item."
        case .firstItem: "First item."
        case .answerKept: "Your answer is kept. INFO opens the level menu."
        case .noCustomActions: "No custom actions here."
        case .sharedGameEnded: "The shared game has ended. Pan to read; any other key leaves."
        case .legend:
            "each element shows its label first, then: btn button, edt text field, adj adjustable, hdr heading, "
                + "dim not usable yet, 2 act two custom actions to choose from, open act 1/3 the first of three "
                + "chosen, 3/5 third of five"
        case .commandKey: "the key for “{command}” ({name})"
        case .commandKeyPair: "the keys for “{first}” / “{second}” ({names})"
        case .activateKeys:
            "a routing key on the element or Enter; in a text field, Enter or the routing key at the caret "
                + "(any other routing key moves the caret there)"
        case .keyWithLegend: "{key}; {legend}"
        case .terminalConnected: "Connected to BRLTTY ({size}); the game is on the display."
        case .terminalBack: "BRLTTY is back ({size}); carrying on where you were."
        case .terminalLost: "Lost the Braille display ({reason}); trying to reconnect."
        case .terminalBrlttyScreen:
            "BRLTTY is showing its own screen (its menu or a message); the game waits on the display."
        case .terminalGivenBack: "BRLTTY gave the display back; the game is on the display again."
        case .terminalOffline: "The Braille display has been offline for {seconds} s; the game waits for it."
        case .terminalSharedGameEnded: "The shared game has ended."
        case .terminalWaiting: "Waiting for BRLTTY, the program that drives Braille displays ({reason})."
        case .terminalWaitingRefused:
            "BRLTTY is running but refused this program. Run the game as a member of the brlapi group "
                + "(sudo adduser $USER brlapi, then log in again), or pass --auth with BRLTTY's key file."
        case .terminalWaitingStart:
            "Start BRLTTY for your display, for example: sudo systemctl start brltty "
                + "(or sudo brltty -b DRIVER -d DEVICE, e.g. -b ht -d usb:). Plug in and switch on the display.\n"
                + "If BRLTTY runs on another machine or port, pass --host HOST:N."
        case .terminalWaitingGivesUp: "The game starts by itself as soon as BRLTTY answers; Ctrl+C gives up."
        case .cells: "{columns} cells"
        case .cellsAndRows: "{columns}×{rows} cells"
        }
    }

    private static func french(_ key: Key) -> String {
        switch key {
        case .button: "bout"
        case .textField: "chp"
        case .adjustable: "régl"
        case .heading: "tit"
        case .notEnabled: "inac"
        case .action: "act"
        case .colon: " : "
        case .semicolon: " ; "
        case .followingAnotherPlayer: "Un autre joue ; à toi quand il a fini."
        case .lastItem: "Dernier élément."
        case .firstItem: "Premier élément."
        case .answerKept: "Ta réponse est gardée. INFO ouvre le menu des niveaux."
        case .noCustomActions: "Pas d'action ici."
        case .sharedGameEnded: "La partie partagée est finie. Fais défiler pour lire ; une autre touche pour quitter."
        case .legend:
            "chaque élément montre d'abord son nom, puis : bout bouton, chp champ de texte, régl réglable, "
                + "tit titre, inac pas encore utilisable, 2 act deux actions au choix, ouvrir act 1/3 la "
                + "première des trois choisie, 3/5 troisième sur cinq"
        case .commandKey: "la touche « {command} » ({name})"
        case .commandKeyPair: "les touches « {first} » / « {second} » ({names})"
        case .activateKeys:
            "une touche de routage sur l'élément ou Entrée ; dans un champ de texte, Entrée ou la touche de "
                + "routage du curseur (une autre touche de routage y déplace le curseur)"
        case .keyWithLegend: "{key} ; {legend}"
        case .terminalConnected: "Connecté à BRLTTY ({size}) ; le jeu est sur l'afficheur."
        case .terminalBack: "BRLTTY est revenu ({size}) ; tu reprends où tu en étais."
        case .terminalLost: "L'afficheur braille est perdu ({reason}) ; nouvelle tentative de connexion."
        case .terminalBrlttyScreen:
            "BRLTTY affiche son propre écran (son menu ou un message) ; le jeu attend sur l'afficheur."
        case .terminalGivenBack: "BRLTTY a rendu l'afficheur ; le jeu y est de nouveau."
        case .terminalOffline: "L'afficheur braille est hors ligne depuis {seconds} s ; le jeu l'attend."
        case .terminalSharedGameEnded: "La partie partagée est finie."
        case .terminalWaiting: "En attente de BRLTTY, le programme qui pilote les afficheurs braille ({reason})."
        case .terminalWaitingRefused:
            "BRLTTY tourne mais a refusé ce programme. Lance le jeu en tant que membre du groupe brlapi "
                + "(sudo adduser $USER brlapi, puis reconnecte-toi), ou passe --auth avec le fichier de clé "
                + "de BRLTTY."
        case .terminalWaitingStart:
            "Démarre BRLTTY pour ton afficheur, par exemple : sudo systemctl start brltty "
                + "(ou sudo brltty -b PILOTE -d PÉRIPHÉRIQUE, p. ex. -b ht -d usb:). Branche et allume "
                + "l'afficheur.\nSi BRLTTY tourne sur une autre machine ou un autre port, passe --host HÔTE:N."
        case .terminalWaitingGivesUp: "Le jeu démarre tout seul dès que BRLTTY répond ; Ctrl+C abandonne."
        case .cells: "{columns} cellules"
        case .cellsAndRows: "{columns}×{rows} cellules"
        }
    }
}
