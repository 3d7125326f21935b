import EscapeCore
public import EscapeProtocol

/// What a typed line asks the console to do.
public enum ConsoleInput: Sendable, Hashable {
    /// Send these requests to the session in order, stopping after the first one refused.
    case send([Request])
    /// Show the commands.
    case help
    /// List the screen's items again.
    case list
    /// List the focused item's custom actions.
    case actions
    /// The line means nothing here; the text says, in one line, what might work instead.
    case failure(String)
}

/// Turns a line typed at the console into requests for the session.
///
/// Pure: it reads the ``ConsoleContext`` (to number items, find the text field and match action names)
/// and decides nothing about the game. Command words are matched without regard to case; when the focus
/// is on a text field, a line that is not a whole command is the answer: it is typed into the field and
/// the field is activated.
public enum ConsoleCommandParser {
    /// Parses one line.
    ///
    /// - Parameters:
    ///   - line: The line as typed, without its terminator.
    ///   - context: What the console was last shown.
    /// - Returns: What to do.
    public static func parse(_ line: String, in context: ConsoleContext) -> ConsoleInput {
        let text = trimmed(line)
        if text.isEmpty { return send(.game(.activate(element: nil))) }
        let (word, rest) = split(text)
        if context.isOnTextField && Int(word) != nil { return answer(text) }
        let parsed: Result<ConsoleInput, Failure>
        if let number = Int(word) {
            parsed = rest.isEmpty ? focus(number, in: context) : .failure(Failure(nothingAfter: word))
        } else if let verb = ConsoleVerb.named(word) {
            parsed = parse(verb, word: word, rest, in: context)
        } else {
            return context.isOnTextField ? answer(text) : .failure(unknown(word, text, in: context))
        }
        switch parsed {
        case .success(let input): return input
        case .failure(let failure): return context.isOnTextField ? answer(text) : .failure(failure.message)
        }
    }

    /// Why a known command word could not be used as typed.
    struct Failure: Error {
        var message: String

        init(_ message: String) {
            self.message = message
        }

        init(nothingAfter word: String) {
            message = "\(word) takes nothing after it. Type help for the commands."
        }
    }

    private static func parse(
        _ verb: ConsoleVerb,
        word: String,
        _ rest: String,
        in context: ConsoleContext
    ) -> Result<ConsoleInput, Failure> {
        func plain(_ command: Command) -> Result<ConsoleInput, Failure> {
            rest.isEmpty ? .success(send(command)) : .failure(Failure(nothingAfter: word))
        }
        switch verb {
        case .next: return plain(.game(.next))
        case .previous: return plain(.game(.previous))
        case .first: return plain(.game(.first))
        case .last: return plain(.game(.last))
        case .focus:
            guard let number = Int(rest) else {
                return .failure(Failure("Which item? Type its number, such as 2."))
            }
            return focus(number, in: context)
        case .activate:
            if rest.isEmpty { return .success(send(.game(.activate(element: nil)))) }
            guard let number = Int(rest) else {
                return .failure(Failure("Type a on its own, or a and an item's number, such as a 2."))
            }
            return item(number, in: context).map { send(.game(.activate(element: $0.id))) }
        case .type:
            return type(rest, in: context)
        case .rotor:
            return direction(rest).map { send(.game(.rotor($0))) }
        case .item:
            return direction(rest).map { send(.game(.rotorItem($0))) }
        case .itemBack: return plain(.game(.rotorItem(.previous)))
        case .actions:
            return rest.isEmpty ? .success(.actions) : action(rest, in: context)
        case .action:
            return action(rest, in: context)
        case .increase: return plain(.game(.adjust(.increment)))
        case .decrease: return plain(.game(.adjust(.decrement)))
        case .magic: return plain(.game(.magicTap))
        case .escape: return plain(.game(.escape))
        case .hint: return plain(.game(.hint))
        case .wait:
            guard let seconds = Double(rest), seconds >= 0,
                seconds * 1000 <= Double(CommandDecoder.maximumWait)
            else { return .failure(Failure("Type wait and a number of seconds, such as wait 30.")) }
            return .success(send(.wait(milliseconds: Int(seconds * 1000))))
        case .menu: return plain(.game(.menu))
        case .goto:
            return goto(rest)
        case .replay: return plain(.game(.replay))
        case .state: return plain(.state)
        case .list: return rest.isEmpty ? .success(.list) : .failure(Failure(nothingAfter: word))
        case .again: return plain(.game(.repeatAnnouncement))
        case .help: return rest.isEmpty ? .success(.help) : .failure(Failure(nothingAfter: word))
        case .quit: return plain(.quit)
        }
    }

    // MARK: - Arguments

    private static func item(_ number: Int, in context: ConsoleContext) -> Result<Element, Failure> {
        guard let screen = context.screen else { return .failure(Failure("There are no items yet.")) }
        guard let element = context.element(numbered: number) else {
            let count = screen.elements.count
            return .failure(
                Failure("There is no item \(number); this screen has \(count) item\(count == 1 ? "" : "s").")
            )
        }
        return .success(element)
    }

    private static func focus(_ number: Int, in context: ConsoleContext) -> Result<ConsoleInput, Failure> {
        item(number, in: context).map { send(.game(.focus(element: $0.id))) }
    }

    private static func direction(_ rest: String) -> Result<Direction, Failure> {
        switch rest.lowercased() {
        case "", "n", "next", "+": .success(.next)
        case "b", "back", "p", "prev", "previous", "-": .success(.previous)
        default: .failure(Failure("Add nothing to go forwards, or back to go backwards."))
        }
    }

    private static func type(_ text: String, in context: ConsoleContext) -> Result<ConsoleInput, Failure> {
        guard !text.isEmpty else {
            return .failure(Failure("Type what? Write your answer after it, such as type glass."))
        }
        guard fitsAnInput(text) else { return .failure(tooLong) }
        if context.isOnTextField { return .success(answer(text)) }
        let fields = context.screen?.elements.filter { $0.traits.contains(.textField) } ?? []
        guard fields.count == 1, let field = fields.first else {
            return .failure(Failure("There is no text field to type into here."))
        }
        return .success(
            .send([
                Request(command: .game(.input(text: text, element: field.id))),
                Request(command: .game(.activate(element: field.id))),
            ])
        )
    }

    private static func action(_ rest: String, in context: ConsoleContext) -> Result<ConsoleInput, Failure> {
        guard !rest.isEmpty else {
            return .failure(Failure("Which action? Type action and a number or a name, such as action 1."))
        }
        if let index = Int(rest) { return .success(send(.game(.action(.index(index))))) }
        let wanted = rest.lowercased()
        let names = context.actions?.actions ?? []
        if let exact = names.first(where: { $0.lowercased() == wanted }) {
            return .success(send(.game(.action(.name(exact)))))
        }
        let candidates = names.filter { $0.lowercased().hasPrefix(wanted) }
        if candidates.count == 1, let name = candidates.first { return .success(send(.game(.action(.name(name))))) }
        if candidates.count > 1 {
            return .failure(Failure("Which one: \(candidates.joined(separator: " or "))?"))
        }
        return .success(send(.game(.action(.name(rest)))))
    }

    private static func goto(_ rest: String) -> Result<ConsoleInput, Failure> {
        let numbers = rest.split { $0 == " " || $0 == "." || $0 == "," }.map { Int($0) }
        guard numbers.count == 2, let chapter = numbers[0], let level = numbers[1] else {
            return .failure(Failure("Type goto, a chapter and a level, such as goto 2 1."))
        }
        return .success(send(.game(.goto(chapter: chapter, level: level))))
    }

    // MARK: - Helpers

    private static let tooLong = Failure(
        "That answer is longer than \(CommandDecoder.maximumInputLength) characters; answers are short."
    )

    /// Whether the engine's `input` takes `text`: its length counted in code points, as the engine counts it.
    private static func fitsAnInput(_ text: String) -> Bool {
        CommandDecoder.inputLength(of: text) <= CommandDecoder.maximumInputLength
    }

    /// A typed answer: into the focused field, then the field activated.
    private static func answer(_ text: String) -> ConsoleInput {
        guard fitsAnInput(text) else { return .failure(tooLong.message) }
        return .send([
            Request(command: .game(.input(text: text, element: nil))),
            Request(command: .game(.activate(element: nil))),
        ])
    }

    private static func send(_ command: Command) -> ConsoleInput {
        .send([Request(command: command)])
    }

    /// The one-line reply to a word that names no command.
    private static func unknown(_ word: String, _ text: String, in context: ConsoleContext) -> String {
        let message = "Unknown command \"\(word)\"."
        if let suggestion = suggestion(for: word) {
            return message + " Did you mean \(suggestion)? Type help for the commands."
        }
        if let field = context.screen?.elements.firstIndex(where: { $0.traits.contains(.textField) }) {
            return message + " To answer, move to item \(field + 1) and type your answer, or type: type \(text)"
        }
        return message + " Type help for the commands."
    }

    /// The command word closest to `word`, if one is close enough to be a likely typo.
    package static func suggestion(for word: String) -> String? {
        let word = word.lowercased()
        var best: (word: String, distance: Int)?
        for verb in ConsoleVerb.allCases {
            for candidate in verb.words where candidate.count > 2 {
                let distance = editDistance(word, candidate)
                if distance <= (word.count >= 6 ? 2 : 1), distance < (best?.distance ?? Int.max) {
                    best = (candidate, distance)
                }
            }
        }
        return best?.word
    }

    /// The Levenshtein distance between two words, in characters.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }

    /// The first word, and the rest with its surrounding spaces removed.
    private static func split(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(where: \.isWhitespace) else { return (text, "") }
        return (String(text[..<space]), trimmed(text[space...]))
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
            let end = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[start...end])
    }
}
