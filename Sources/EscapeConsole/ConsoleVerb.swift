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
    case wait
    case menu
    case goto
    case replay
    case state
    case list
    case again
    case help
    case quit

    /// The words that name it, short form first; matched without regard to case.
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
        case .wait: ["wait"]
        case .menu: ["m", "menu"]
        case .goto: ["g", "goto"]
        case .replay: ["replay"]
        case .state: ["s", "state", "where"]
        case .list: ["list", "ls"]
        case .again: ["again", "repeat"]
        case .help: ["help", "?"]
        case .quit: ["q", "quit", "exit"]
        }
    }

    /// The verb a word names, if any.
    static func named(_ word: String) -> ConsoleVerb? {
        let word = word.lowercased()
        return allCases.first { $0.words.contains(word) }
    }

    /// What `help` says about it; `magic` and `escape` say what they do on `screen`.
    func helpLine(gestures magicTap: String?, _ escape: String?) -> String {
        switch self {
        case .next: "n, next: move to the next item."
        case .previous: "p, previous: move to the previous item."
        case .first: "f, first: move to the first item."
        case .last: "l, last: move to the last item."
        case .focus: "A number, such as 3, or focus 3: move to item 3 of the list."
        case .activate: "Enter on an empty line, a, activate: activate the focused item. a 3 activates item 3."
        case .type:
            "type TEXT: write TEXT in the text field and submit it. On a text field, just type your answer."
        case .rotor: "r, rotor: turn the focused item's rotor. r back turns it back."
        case .item: "down, i, item: the rotor's next item."
        case .itemBack: "up: the rotor's previous item."
        case .actions: "actions: list the focused item's actions."
        case .action: "action 2, or action NAME: perform one of the focused item's actions."
        case .increase: "+, increase: turn an adjustable item up."
        case .decrease: "-, decrease: turn an adjustable item down."
        case .magic: "magic: the magic tap. " + (magicTap.map { "Here: \($0)." } ?? "It does nothing here.")
        case .escape: "esc, escape: the escape gesture. " + (escape.map { "Here: \($0)." } ?? "It does nothing here.")
        case .hint: "h, hint: hear a hint."
        case .wait: "wait SECONDS: let time pass; with --clock virtual, the only way hints unlock."
        case .menu: "m, menu: open the level menu."
        case .goto: "g, goto CHAPTER LEVEL: go to a level you have reached, such as g 2 1."
        case .replay: "replay: start the game over; your progress is cleared."
        case .state: "s, state, where: show the screen, the focus and your progress again."
        case .list: "list: list this screen's items again."
        case .again: "again, repeat: repeat the last announcement."
        case .help: "help, ?: this list."
        case .quit: "q, quit: stop playing. Progress is saved each time a door opens."
        }
    }
}
