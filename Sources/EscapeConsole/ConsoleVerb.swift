// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// A command typed at the console, with the words that name it and the line `help` gives it.
///
/// The table is the one place the words live: the parser looks words up here, `help` lists it, and an
/// unknown word is compared with it for a suggestion.
enum ConsoleVerb: CaseIterable {
    case next
    case previous
    case first
    case last
    case focus
    case activate
    case type
    case rotor
    case item
    case itemBack
    case actions
    case action
    case increase
    case decrease
    case magic
    case escape
    case hint
    case time
    case clock
    case wait
    case menu
    case goto
    case replay
    case undo
    case state
    case list
    case examine
    case again
    case review
    case save
    case restore
    case help
    case quit

    /// The commands `help` lists; `help more` lists the others.
    static let essentials: Set<ConsoleVerb> = [
        .next, .previous, .first, .last, .focus, .activate, .type, .action, .increase, .decrease, .magic, .escape,
        .hint,
        .time, .again, .list, .help, .quit,
    ]

    /// The words that name it in English, short form first; matched without regard to case or accents.
    var words: [String] {
        switch self {
        case .next: ["n", "next"]
        case .previous: ["p", "previous", "prev"]
        case .first: ["f", "first"]
        case .last: ["l", "last"]
        case .focus: ["focus", "go"]
        case .activate: ["a", "activate"]
        case .type: ["type", "answer", "say"]
        case .rotor: ["r", "rotor"]
        case .item: ["i", "item", "down"]
        case .itemBack: ["up"]
        case .actions: ["actions"]
        case .action: ["action"]
        case .increase: ["+", "increase"]
        case .decrease: ["-", "decrease"]
        case .magic: ["magic", "mt"]
        case .escape: ["esc", "escape"]
        case .hint: ["h", "hint"]
        case .time: ["time"]
        case .clock: ["clock"]
        case .wait: ["wait", "z"]
        case .menu: ["m", "menu"]
        case .goto: ["g", "goto"]
        case .replay: ["replay"]
        case .undo: ["u", "undo"]
        case .state: ["s", "state", "where"]
        case .list: ["list", "ls", "look"]
        case .examine: ["x", "examine"]
        case .again: ["again", "repeat"]
        case .review: ["history", "review"]
        case .save: ["save"]
        case .restore: ["restore", "load"]
        case .help: ["help", "?"]
        case .quit: ["q", "quit", "exit"]
        }
    }

    /// The French words that name it beside the English ones, short forms first: a free letter (`e`
    /// état, `t` temps, `d` dernier, `b` bas, `c` chrono) or the word's first two letters where the
    /// letter is an English command's (`su` suivant, `in` indice); the English short forms work too.
    var frenchWords: [String] {
        switch self {
        case .next: ["su", "suivant"]
        case .previous: ["pr", "précédent"]
        case .first: ["pe", "premier"]
        case .last: ["d", "dernier"]
        case .focus: ["aller"]
        case .activate: ["ac", "activer"]
        case .type: ["répondre", "dire"]
        case .rotor: []
        case .item: ["b", "bas"]
        case .itemBack: ["ha", "haut"]
        case .actions: []
        case .action: []
        case .increase: ["augmenter"]
        case .decrease: ["diminuer"]
        case .magic: ["magique"]
        case .escape: ["échap"]
        case .hint: ["in", "indice"]
        case .time: ["t", "temps"]
        case .clock: ["c", "chrono"]
        case .wait: ["at", "attendre"]
        case .menu: []
        case .goto: ["ni", "niveau"]
        case .replay: ["rejouer"]
        case .undo: ["an", "annuler"]
        case .state: ["e", "état", "où"]
        case .list: ["re", "liste", "regarder"]
        case .examine: ["ex", "examiner"]
        case .again: ["encore", "répéter"]
        case .review: ["historique", "revoir"]
        case .save: ["sauvegarder", "enregistrer"]
        case .restore: ["restaurer", "charger"]
        case .help: ["ai", "aide"]
        case .quit: ["qu", "quitter"]
        }
    }

    /// Every word that names it, in every language the console speaks: a player may type either.
    var allWords: [String] { words + frenchWords }

    /// The verb a word names, if any.
    static func named(_ word: String) -> ConsoleVerb? {
        let word = AnswerFolding.fold(word)
        return allCases.first { $0.allWords.contains { AnswerFolding.fold($0) == word } }
    }

    /// What `help` says about it; `magic` and `escape` say what they do on `screen`.
    func helpLine(gestures magicTap: String?, _ escape: String?, in words: ConsoleWords) -> String {
        func here(_ label: String?) -> String {
            label.map { words(.helpHere, ["label": $0]) } ?? words(.helpNothingHere)
        }
        return switch self {
        case .next: words(.helpNext)
        case .previous: words(.helpPrevious)
        case .first: words(.helpFirst)
        case .last: words(.helpLast)
        case .focus: words(.helpFocus)
        case .activate: words(.helpActivate)
        case .type: words(.helpType)
        case .rotor: words(.helpRotor)
        case .item: words(.helpItem)
        case .itemBack: words(.helpItemBack)
        case .actions: words(.helpActions)
        case .action: words(.helpAction)
        case .increase: words(.helpIncrease)
        case .decrease: words(.helpDecrease)
        case .magic: words(.helpMagic, ["here": here(magicTap)])
        case .escape: words(.helpEscape, ["here": here(escape)])
        case .hint: words(.helpHint)
        case .time: words(.helpTime)
        case .clock: words(.helpClock)
        case .wait: words(.helpWait)
        case .menu: words(.helpMenu)
        case .goto: words(.helpGoto)
        case .replay: words(.helpReplay)
        case .undo: words(.helpUndo)
        case .state: words(.helpState)
        case .list: words(.helpList)
        case .examine: words(.helpExamine)
        case .again: words(.helpAgain)
        case .review: words(.helpReview)
        case .save: words(.helpSave)
        case .restore: words(.helpRestore)
        case .help: words(.helpHelp)
        case .quit: words(.helpQuit)
        }
    }
}
