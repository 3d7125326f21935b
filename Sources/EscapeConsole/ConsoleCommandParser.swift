// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

/// What a typed line asks the console to do.
package enum ConsoleInput: Sendable, Hashable {
    /// Send these requests to the session in order, stopping after the first one refused.
    case send([Request])
    /// Show the commands.
    case help
    /// `help more`: the commands `help` leaves out.
    case helpMore
    /// List the screen's items again.
    case list
    /// List the focused item's custom actions.
    case actions
    /// Take back the last gesture made on this level.
    case undo
    /// Say how long a timed level's clock still runs.
    case timeLeft
    /// Play timed levels with a clock (`true`) or without one (`false`).
    case timePressure(Bool)
    /// Say the focused item again (`x` alone).
    case examine
    /// Say the last lines said again, this many of them (`history`, `review N`).
    case review(Int)
    /// Say how and where progress is saved (`save`).
    case save
    /// Keep the game as it is now under a name (`save NAME`), folded as ``SaveSlots/name(_:)`` folds it.
    case saveSlot(String)
    /// List the named saves and say that progress comes back by itself (`restore`).
    case listSlots
    /// Bring back the game kept under a name (`restore NAME`).
    case restoreSlot(String)
    /// The line means nothing here; the text says, in one line, what might work instead.
    case failure(String)
}

/// Turns a line typed at the console into requests for the session.
///
/// Pure: it reads the ``ShownGame`` (to number items, find the text field and match action names)
/// and decides nothing about the game. Command words are matched without regard to case; when the focus
/// is on a text field, a line that is not a whole command is the answer: it is typed into the field and
/// the field is activated. A bare number always moves, on a text field too (`type 4` answers 4); `+ N`,
/// `+N`, `- N` and `-N` turn an adjustable item N steps.
package enum ConsoleCommandParser {
    /// Parses one line.
    ///
    /// - Parameters:
    ///   - line: The line as typed, without its terminator.
    ///   - context: What the console was last shown.
    /// - Returns: What to do.
    package static func parse(_ line: String, in context: ShownGame) -> ConsoleInput {
        let text = trimmed(line)
        if text.isEmpty {
            // Enter on an empty field would submit what it still holds: the last wrong answer.
            if context.isOnTextField { return .failure(context.words(.emptyAnswer)) }
            return send(.game(.activate(element: nil)))
        }
        let (word, rest) = split(text)
        if let steps = signedSteps(word), rest.isEmpty { return turn(steps) }
        if rest.isEmpty, let sign = word.first, sign == "+" || sign == "-", word.count > 1,
            word.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
        {
            // `+0`, `-100`: a turn out of range is explained as `+ 100` is, never an unknown command.
            return .failure(context.words(.stepsUsage))
        }
        let parsed: Result<ConsoleInput, Failure>
        if word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber), let number = Int(word) {
            parsed = rest.isEmpty ? focus(number, in: context) : .failure(Failure(nothingAfter: word, context.words))
            if context.isOnTextField, case .failure(let failure) = parsed {
                if !rest.isEmpty { return answer(text, in: context) }
                return .failure(failure.message + " " + context.words(.numberAnswer, ["number": word]))
            }
        } else if let verb = ConsoleVerb.named(word), verb == .type, rest.isEmpty {
            // A bare `type` is a question, never the answer "type".
            return .failure(context.words(.typeUsage))
        } else if let verb = ConsoleVerb.named(word) {
            parsed = parse(verb, word: word, rest, in: context)
        } else {
            return context.isOnTextField ? answer(text, in: context) : .failure(unknown(word, text, in: context))
        }
        switch parsed {
        case .success(let input): return input
        case .failure(let failure): return context.isOnTextField ? answer(text, in: context) : .failure(failure.message)
        }
    }

    /// Why a known command word could not be used as typed.
    struct Failure: Error {
        var message: String

        init(_ message: String) {
            self.message = message
        }

        init(nothingAfter word: String, _ words: ConsoleWords) {
            message = words(.takesNothingAfter, ["word": word])
        }
    }

    private static func parse(
        _ verb: ConsoleVerb,
        word: String,
        _ rest: String,
        in context: ShownGame
    ) -> Result<ConsoleInput, Failure> {
        let words = context.words
        func plain(_ command: Command) -> Result<ConsoleInput, Failure> {
            rest.isEmpty ? .success(send(command)) : .failure(Failure(nothingAfter: word, words))
        }
        switch verb {
        case .next: return plain(.game(.next))
        case .previous: return plain(.game(.previous))
        case .first: return plain(.game(.first))
        case .last: return plain(.game(.last))
        case .focus:
            guard let number = Int(rest) else {
                if rest.isEmpty { return .failure(Failure(words(.whichItem))) }
                return item(named: rest, in: context).map { send(.game(.focus(element: $0.id))) }
            }
            return focus(number, in: context)
        case .activate:
            if rest.isEmpty { return .success(send(.game(.activate(element: nil)))) }
            guard let number = Int(rest) else {
                return item(named: rest, in: context).map { send(.game(.activate(element: $0.id))) }
            }
            return item(number, in: context).map { send(.game(.activate(element: $0.id))) }
        case .type:
            return type(rest, in: context)
        case .rotor:
            return direction(rest, words).map { send(.game(.rotor($0))) }
        case .item:
            return direction(rest, words).map { send(.game(.rotorItem($0))) }
        case .itemBack: return plain(.game(.rotorItem(.previous)))
        case .actions:
            return rest.isEmpty ? .success(.actions) : action(rest, in: context)
        case .action:
            return action(rest, in: context)
        case .increase, .decrease:
            let step: AdjustDirection = verb == .increase ? .increment : .decrement
            if rest.isEmpty { return .success(send(.game(.adjust(step)))) }
            guard let count = Int(rest), (1...Self.maximumSteps).contains(count) else {
                return .failure(Failure(words(.stepsUsage)))
            }
            return .success(.send(Array(repeating: Request(command: .game(.adjust(step))), count: count)))
        case .magic: return plain(.game(.magicTap))
        case .escape: return plain(.game(.escape))
        case .hint: return plain(.game(.hint))
        case .time: return rest.isEmpty ? .success(.timeLeft) : .failure(Failure(nothingAfter: word, words))
        case .clock:
            switch AnswerFolding.fold(rest) {
            case "on", "yes", "oui", "avec": return .success(.timePressure(true))
            case "off", "no", "non", "sans": return .success(.timePressure(false))
            default: return .failure(Failure(words(.clockUsage)))
            }
        case .wait:
            // `z` and `wait` alone pass a moment, as in other interactive fiction.
            if rest.isEmpty { return .success(send(.wait(milliseconds: Self.moment))) }
            guard let seconds = Double(rest), seconds >= 0,
                seconds * 1000 <= Double(CommandDecoder.maximumWait)
            else { return .failure(Failure(words(.waitUsage))) }
            return .success(send(.wait(milliseconds: Int(seconds * 1000))))
        case .menu: return plain(.game(.menu))
        case .goto:
            return goto(rest, words)
        case .replay: return plain(.game(.replay))
        case .undo: return rest.isEmpty ? .success(.undo) : .failure(Failure(nothingAfter: word, words))
        case .state: return plain(.state)
        case .list: return rest.isEmpty ? .success(.list) : .failure(Failure(nothingAfter: word, words))
        case .examine:
            // `x 3`, `x lamp`: go to the item, which is read whole; `x` alone reads the focused one again.
            if rest.isEmpty { return .success(.examine) }
            if let number = Int(rest) { return focus(number, in: context) }
            return item(named: rest, in: context).map { send(.game(.focus(element: $0.id))) }
        case .review:
            if rest.isEmpty { return .success(.review(Self.reviewedLines)) }
            guard let count = Int(rest), (1...Self.keptLines).contains(count) else {
                return .failure(Failure(words(.reviewUsage, ["most": "\(Self.keptLines)"])))
            }
            return .success(.review(count))
        case .save:
            if rest.isEmpty { return .success(.save) }
            return slot(rest, words).map { .saveSlot($0) }
        case .restore:
            if rest.isEmpty { return .success(.listSlots) }
            return slot(rest, words).map { .restoreSlot($0) }
        case .again: return plain(.game(.repeatAnnouncement))
        case .help:
            if rest.isEmpty { return .success(.help) }
            if ["more", "all", "plus", "tout"].contains(AnswerFolding.fold(rest)) { return .success(.helpMore) }
            return .failure(Failure(nothingAfter: word, words))
        case .quit: return plain(.quit)
        }
    }

    // MARK: - Arguments

    /// The most steps one `+ N` turns.
    static let maximumSteps = 99

    /// How long `z` and `wait` alone let pass, in milliseconds.
    static let moment = 10_000

    /// How many lines `history` says again.
    static let reviewedLines = 10

    /// How many of the last lines said are kept for `review N`.
    static let keptLines = 100

    /// `+4` and `-4` as steps (4 and -4); `nil` for anything else.
    private static func signedSteps(_ word: String) -> Int? {
        guard let sign = word.first, sign == "+" || sign == "-" else { return nil }
        let digits = word.dropFirst()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits),
            (1...maximumSteps).contains(count)
        else { return nil }
        return sign == "+" ? count : -count
    }

    /// `steps` turns of the focused item, up when positive.
    private static func turn(_ steps: Int) -> ConsoleInput {
        let request = Request(command: .game(.adjust(steps > 0 ? .increment : .decrement)))
        return .send(Array(repeating: request, count: abs(steps)))
    }

    private static func item(_ number: Int, in context: ShownGame) -> Result<Element, Failure> {
        let words = context.words
        guard let screen = context.screen else { return .failure(Failure(words(.noItemsYet))) }
        guard let element = context.element(numbered: number) else {
            let count = screen.elements.count
            return .failure(
                Failure(words.counting(count, one: .noSuchItemOne, many: .noSuchItemMany, ["number": "\(number)"]))
            )
        }
        return .success(element)
    }

    /// The item `name` means among the screen's, matched as an action's name is (`a lamp oil`, `a lamp`).
    private static func item(named name: String, in context: ShownGame) -> Result<Element, Failure> {
        let words = context.words
        guard let screen = context.screen else { return .failure(Failure(words(.noItemsYet))) }
        let labels = screen.elements.map(\.label)
        switch ActionMatch.matches(name, among: labels) {
        case .one(let label):
            guard let element = screen.elements.first(where: { $0.label == label }) else { break }
            return .success(element)
        case .several(let found):
            return .failure(Failure(words(.whichAction, ["list": words.alternatives(found)])))
        case .none:
            break
        }
        return .failure(Failure(words(.noItemNamed, ["name": shortened(name)])))
    }

    private static func focus(_ number: Int, in context: ShownGame) -> Result<ConsoleInput, Failure> {
        item(number, in: context).map { send(.game(.focus(element: $0.id))) }
    }

    private static func direction(_ rest: String, _ words: ConsoleWords) -> Result<Direction, Failure> {
        switch AnswerFolding.fold(rest) {
        case "", "n", "next", "+", "suivant", "avant": .success(.next)
        case "b", "back", "p", "prev", "previous", "-", "arriere", "precedent", "retour": .success(.previous)
        default: .failure(Failure(words(.directionUsage)))
        }
    }

    private static func type(_ text: String, in context: ShownGame) -> Result<ConsoleInput, Failure> {
        let words = context.words
        guard !text.isEmpty else { return .failure(Failure(words(.typeUsage))) }
        guard fitsAnInput(text) else { return .failure(tooLong(words)) }
        if context.isOnTextField { return .success(answer(text, in: context)) }
        let fields = context.screen?.elements.filter { $0.traits.contains(.textField) } ?? []
        guard fields.count == 1, let field = fields.first else { return .failure(Failure(words(.noTextField))) }
        return .success(
            .send([
                Request(command: .game(.input(text: text, element: field.id))),
                Request(command: .game(.activate(element: field.id))),
            ])
        )
    }

    private static func action(_ rest: String, in context: ShownGame) -> Result<ConsoleInput, Failure> {
        let words = context.words
        guard !rest.isEmpty else { return .failure(Failure(words(.actionUsage))) }
        if let index = Int(rest) { return .success(send(.game(.action(.index(index))))) }
        // Without a list the engine says why there is nothing to do, in the adventure's language.
        guard let list = context.actions else { return .success(send(.game(.action(.name(rest))))) }
        switch ActionMatch.matches(rest, among: list.actions) {
        case .one(let name):
            return .success(send(.game(.action(.name(name)))))
        case .several(let names):
            return .failure(Failure(words(.whichAction, ["list": words.alternatives(names)])))
        case .none:
            let element = context.focusedElement?.label ?? list.element
            let numbered = list.actions.enumerated().map { "\($0.offset + 1) \($0.element)" }
            return .failure(
                Failure(
                    words(.noSuchAction, ["element": element, "name": rest, "list": numbered.joined(separator: ", ")])
                )
            )
        }
    }

    /// A save's name: letters, digits, `-` and `_`, folded to lower case.
    private static func slot(_ rest: String, _ words: ConsoleWords) -> Result<String, Failure> {
        guard let name = SaveSlots.name(rest) else {
            return .failure(Failure(words(.slotNameUsage, ["most": "\(SaveSlots.maximumNameLength)"])))
        }
        return .success(name)
    }

    private static func goto(_ rest: String, _ words: ConsoleWords) -> Result<ConsoleInput, Failure> {
        let numbers = rest.split { $0 == " " || $0 == "." || $0 == "," }.map { Int($0) }
        guard numbers.count == 2, let chapter = numbers[0], let level = numbers[1] else {
            return .failure(Failure(words(.gotoUsage)))
        }
        return .success(send(.game(.goto(chapter: chapter, level: level))))
    }

    // MARK: - Helpers

    private static func tooLong(_ words: ConsoleWords) -> Failure {
        Failure(words(.answerTooLong, ["limit": "\(CommandDecoder.maximumInputLength)"]))
    }

    /// Whether the engine's `input` takes `text`: its length counted in code points, as the engine counts it.
    private static func fitsAnInput(_ text: String) -> Bool {
        CommandDecoder.inputLength(of: text) <= CommandDecoder.maximumInputLength
    }

    /// A typed answer: into the focused field, then the field activated.
    private static func answer(_ text: String, in context: ShownGame) -> ConsoleInput {
        guard fitsAnInput(text) else { return .failure(tooLong(context.words).message) }
        return .send([
            Request(command: .game(.input(text: text, element: nil))),
            Request(command: .game(.activate(element: nil))),
        ])
    }

    private static func send(_ command: Command) -> ConsoleInput {
        .send([Request(command: command)])
    }

    /// The one-line reply to a word that names no command.
    private static func unknown(_ word: String, _ text: String, in context: ShownGame) -> String {
        let words = context.words
        let message = words(.unknownCommand, ["word": shortened(word)])
        if let suggestion = suggestion(for: word) {
            return message + " " + words(.didYouMean, ["word": suggestion])
        }
        if let field = context.screen?.elements.firstIndex(where: { $0.traits.contains(.textField) }) {
            return message + " " + words(.howToAnswer, ["number": "\(field + 1)", "text": shortened(text)])
        }
        return message + " " + words(.seeHelp)
    }

    /// The longest stretch of a typed line said back, in characters.
    static let echoLength = 30

    /// `text` as said back: its first ``echoLength`` characters and an ellipsis when longer, so a pasted
    /// page is not read out again.
    static func shortened(_ text: String) -> String {
        text.count <= echoLength ? text : String(text.prefix(echoLength)) + "…"
    }

    /// The command word closest to `word`, if one is close enough to be a likely typo.
    package static func suggestion(for word: String) -> String? {
        let word = AnswerFolding.fold(word)
        var best: (word: String, distance: Int)?
        for verb in ConsoleVerb.allCases {
            for candidate in verb.allWords where candidate.count > 2 {
                let distance = editDistance(word, AnswerFolding.fold(candidate))
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
