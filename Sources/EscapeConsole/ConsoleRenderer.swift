// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

/// Turns the session's events into lines a screen reader reads well.
///
/// Each focus and each announcement gets a line of its own, prefixed only where a prefix helps
/// (`Hint:`, `Error:`); a new screen is listed whole, its items numbered. Nothing is redrawn and the
/// cursor never moves: the terminal's scrollback is the transcript of the game. The renderer remembers
/// what it was shown in ``context``, for the parser and for `help`.
package struct ConsoleRenderer: Sendable {
    /// What the events showed so far.
    package private(set) var context = ShownGame()
    /// Solved levels at the last `progress` event, to tell only about changes.
    private var solvedCount: Int?
    /// The rotor's name and item just shown, which the announcement after a rotor event repeats.
    private var rotorWords: [String] = []
    /// Whether anything was announced since the screen on show arrived: `again` repeats it if so, and
    /// the screen's opening otherwise.
    package private(set) var announcedSinceScreen = false
    /// The element whose actions this reply listed already (on focus): activating it then says nothing
    /// more of them.
    private var actionsListed: String?
    /// Whether each of the last ten seconds gets its line (for a countdown drawn in place); otherwise
    /// only 10, 5, 3 and 1 do, at least two seconds apart, so a reader can follow them.
    package var countdownEverySecond = false

    /// The seconds said of the last ten, unless ``countdownEverySecond``.
    static let countdownMarks: Set<Int> = [10, 5, 3, 1]

    /// Whether a hint's unlocking was said and the player has not asked for a hint since: the next
    /// unlockings are counted, not said, so notices do not pile up during a timed room.
    private var hintNoticed = false
    /// The unlockings not said since the last notice; each hint asked for says one of them.
    private var hintsUnsaid = 0
    /// The last notice that a hint unlocked: said again as it is, not as a hint.
    private var noticeText: String?

    /// Creates a renderer that has seen nothing yet.
    package init() {}

    /// Renders the events that answer one command, or that came unasked (a hint unlocking).
    ///
    /// - Parameters:
    ///   - events: The session's events, in order.
    ///   - command: The command they answer, if any: `state` shows progress in full, and a move to where the
    ///     focus already is, or a quiet `wait`, still gets a line, so the player hears an answer.
    /// - Returns: The lines to write, in order.
    package mutating func render(_ events: [StampedEvent], answering command: Command? = nil) -> [ConsoleLine] {
        var lines: [ConsoleLine] = []
        for stamped in events {
            lines += render(stamped.event, answering: command)
        }
        // Moving to where the focus already is changes nothing, so the engine says nothing; say where it is.
        if lines.isEmpty, let focus = context.focus, let command, Self.movesFocus(command) {
            lines.append(ConsoleLine(focusLine(focus)))
        }
        if lines.isEmpty, case .wait = command { lines.append(ConsoleLine(words(.timePasses))) }
        return lines
    }

    private static func movesFocus(_ command: Command) -> Bool {
        if case .game(.focus) = command { return true }
        return command == .game(.first) || command == .game(.last)
    }

    private mutating func render(_ event: Event, answering command: Command?) -> [ConsoleLine] {
        let before = context
        let repeatedWords = rotorWords
        rotorWords = []
        context.apply(event)
        switch event {
        case .game(.screen):
            announcedSinceScreen = false
            hintNoticed = false
            hintsUnsaid = 0
        case .game(.announce(let announcement)) where announcement.category != .echo: announcedSinceScreen = true
        default: break
        }
        switch event {
        case .hello where command.map(Self.isHello) ?? false:
            // The answer to the console's own hello: the game was named when it started.
            return []
        case .game where command.map(Self.isHello) ?? false:
            // A chapter page that now names the keys: `list` reads it as it is now.
            return []
        case .hello(let hello):
            return [ConsoleLine(hello.adventureTitle, style: .title), ConsoleLine(words(.welcome))]
        case .game(let gameEvent):
            return render(gameEvent, answering: command, before: before, repeatedWords: repeatedWords)
        case .progress(let summary, _):
            return progress(summary, full: command == .state)
        case .error(let error):
            let message = friendly(error, answering: command) ?? Self.sentence(error.message)
            return [ConsoleLine(words(.error, ["message": message]), style: .error)]
        case .done:
            actionsListed = nil
            return []
        case .bye:
            return [ConsoleLine(words(.goodbye))]
        case .ended(let reason, _):
            return reason == .escaped ? [ConsoleLine(words(.escaped), style: .correct)] : []
        case .role:
            return controlChanged(from: before.control, to: context.control)
        case .validActions, .observation, .snapshot, .idle:
            return []
        }
    }

    /// In a shared game, what changed for this console: said when it starts watching, when nobody plays
    /// any more (its next move takes the game), and when it takes the game; nothing for a console that
    /// played from the start.
    private func controlChanged(
        from before: ShownGame.SharedControl?,
        to now: ShownGame.SharedControl?
    ) -> [ConsoleLine] {
        guard let now, now != before else { return [] }
        switch now.role {
        case .observer:
            return [ConsoleLine(words(now.isFree ? .controlFree : .watching))]
        case .controller:
            return before == nil ? [] : [ConsoleLine(words(.playing))]
        }
    }

    private static func isHello(_ command: Command) -> Bool {
        if case .hello = command { return true }
        return false
    }

    private mutating func render(
        _ event: GameEvent,
        answering command: Command?,
        before: ShownGame,
        repeatedWords: [String]
    ) -> [ConsoleLine] {
        switch event {
        case .screen(let screen):
            // A new screen is said in full: title, story, question, every item.
            return [ConsoleLine(heading(of: screen), style: .title)] + items(of: screen, spoken: true)
        case .focus(let focus):
            // A field's new text comes back as a focus event; the player just typed it, so it is not repeated.
            if before.focus?.element.id == focus.element.id, before.focus?.screen == focus.screen {
                return []
            }
            return [ConsoleLine(focusLine(focus))]
        case .announce(let announcement):
            if announcement.category == .hint, let notice = hintAnnouncement(announcement, answering: command) {
                return notice
            }
            if case .game(.activate) = command, announcement.category == .feedback, let list = context.actions,
                list.element == context.focus?.element.id
            {
                // Activating an object with actions names them: the console's numbered list, once a reply
                // (focusing the object by its number in the same line listed them already).
                return actionsListed == list.element ? [] : [ConsoleLine(actionsLine(list))]
            }
            return self.announcement(
                announcement,
                repeating: repeatedWords,
                asked: command == .game(.repeatAnnouncement)
            )
        case .rotor(let rotor):
            rotorWords = [rotor.rotor] + (rotor.item.map { [$0] } ?? [])
            let stepped = before.rotor.map { $0.element == rotor.element && $0.rotor == rotor.rotor } ?? false
            return [ConsoleLine(rotorLine(rotor, stepped: stepped))]
        case .actions(let list):
            actionsListed = list.element
            return [ConsoleLine(actionsLine(list))]
        case .result(let result):
            // A door with a rotor says the code it was tried with: its value.
            let tried = before.focusedElement.flatMap { $0.rotors.isEmpty ? nil : $0.value }.flatMap {
                $0.isEmpty ? nil : $0
            }
            switch result.outcome {
            case .correct:
                return [
                    ConsoleLine(tried.map { words(.tryingRight, ["code": $0]) } ?? words(.correct), style: .correct)
                ]
            case .wrong:
                return [ConsoleLine(tried.map { words(.tryingWrong, ["code": $0]) } ?? words(.wrong), style: .wrong)]
            case .malformed: return []
            }
        case .sound(let cue):
            switch cue {
            case .boundary:
                guard let focus = context.focus else { return [] }
                return [ConsoleLine(words(focus.index == focus.count ? .lastItem : .firstItem))]
            case .chapter, .solved, .wrong, .hint, .locked, .escaped, .assistiveLost, .assistiveBack, .dial,
                .torchLastMinute, .torchCountdown, .torchOut:
                // These go with lines of their own; only the bump at either end of a screen has none.
                return []
            }
        case .ended(let reason):
            switch reason {
            case .escaped: return [ConsoleLine(words(.escaped), style: .correct)]
            case .quit, .eof: return []
            }
        case .elementChanged(let element):
            // Only the focused element is read out, and only when time changed it: a gesture's own
            // announcement says what it did (the typed text, the dial's number, the action's result).
            // The listing shows every element as it is now.
            guard command == nil, let focus = context.focus, focus.element.id == element.id else { return [] }
            return [ConsoleLine(focusLine(focus))]
        case .timer(let timer):
            // Arriving in a timed room (or starting it over) says its limit; the announcements say the rest.
            guard !timer.paused, timer.remainingMs == timer.limitMs else { return [] }
            return [ConsoleLine(words(.timedRoom, ["time": words.duration(milliseconds: timer.limitMs)]))]
        case .ambient:
            // A terminal plays no sounds; the chapter's heading says where the player is.
            return []
        }
    }

    private mutating func progress(_ summary: ProgressSummary, full: Bool) -> [ConsoleLine] {
        let solved = summary.completed.count
        defer { solvedCount = solved }
        let count = words.counting(
            solved,
            one: .levelsSolvedOne,
            many: .levelsSolvedMany,
            ["total": "\(summary.total)"]
        )
        if full {
            // The level on show, which is not the furthest one reached when the menu took the player back.
            let place =
                summary.onScreen.map { ($0.chapter, $0.level) }
                ?? summary.chapter.flatMap { chapter in
                    summary.level.map { (chapter, $0) }
                }
            guard let (chapter, level) = place else { return [ConsoleLine(count)] }
            return [ConsoleLine(words(.whereYouAre, ["chapter": "\(chapter)", "level": "\(level)", "solved": count]))]
        }
        guard solved != (solvedCount ?? 0) else { return [] }
        return [ConsoleLine(words(.progress, ["solved": count]))]
    }

    // MARK: - Lines that need no events

    /// The commands, with what magic tap and escape do on the current screen: the ones a player needs in
    /// every room, short enough for a screen reader to read before they scroll away (at most 20 lines),
    /// and a line saying `help more` gives the others; or (`more`) the others.
    ///
    /// - Parameter more: Whether to list the commands `help` leaves out.
    /// - Returns: The lines.
    package func help(more: Bool = false) -> [ConsoleLine] {
        let magicTap = context.screen?.magicTap?.label
        let escape = context.screen?.escape?.label
        let verbs = ConsoleVerb.allCases.filter { ConsoleVerb.essentials.contains($0) != more }
        return [ConsoleLine(words(.helpTitle), style: .title)]
            + verbs.map { ConsoleLine($0.helpLine(gestures: magicTap, escape, in: words)) }
            + (more ? [] : [ConsoleLine(words(.helpMore))])
    }

    /// The current screen's items, numbered, and the focus.
    package func listing() -> [ConsoleLine] {
        guard let screen = context.screen else { return [ConsoleLine(words(.nothingOnScreen))] }
        var lines = [ConsoleLine(heading(of: screen), style: .title)] + items(of: screen, spoken: true)
        if let focus = context.focus { lines.append(ConsoleLine(focusLine(focus))) }
        return lines
    }

    /// The focus, if there is one.
    package func focusLines() -> [ConsoleLine] {
        context.focus.map { [ConsoleLine(focusLine($0))] } ?? []
    }

    /// The focused item's custom actions.
    package func actionsListing() -> [ConsoleLine] {
        guard let list = context.actions else { return [ConsoleLine(words(.noActions))] }
        return [ConsoleLine(actionsLine(list))]
    }

    // MARK: - Wording

    /// The console's own words, in the adventure's language.
    var words: ConsoleWords { context.words }

    func heading(of screen: Screen) -> String {
        words.counting(screen.elements.count, one: .headingOne, many: .headingMany, ["title": screen.title])
    }

    func items(of screen: Screen, spoken: Bool) -> [ConsoleLine] {
        screen.elements.enumerated().map { index, element in
            var text = "\(index + 1). \(describe(element))"
            if !element.rotors.isEmpty { text += ", " + words(.withRotor) }
            if !element.actions.isEmpty { text += ", " + words(.withActions) }
            return ConsoleLine(text, style: .item, spoken: spoken)
        }
    }

    /// `2 of 5: Lower the bucket, button`, and how to use a text field.
    func focusLine(_ focus: FocusState) -> String {
        let position = words(.position, ["index": "\(focus.index)", "count": "\(focus.count)"])
        var text = words(.focus, ["position": position, "description": describe(focus.element)])
        if let hint = focus.element.hint { text += ". " + Self.sentence(hint) }
        if focus.element.traits.contains(.textField) { text += ". " + words(.typeYourAnswer) }
        return text
    }

    /// An element as a screen reader says it: label, value, role and state.
    func describe(_ element: Element) -> String {
        var parts = [element.label]
        if let value = element.value {
            if !value.isEmpty {
                parts.append(value)
            } else if element.traits.contains(.textField) {
                parts.append(words(.empty))
            }
        }
        // An unavailable item whose value says its state ("locked") is said by it alone: not
        // "locked, button, unavailable".
        if element.traits.contains(.notEnabled), let value = element.value, !value.isEmpty {
            return parts.joined(separator: ", ")
        }
        parts += element.traits.compactMap { $0.spokenRole.map { words($0) } }
        return parts.joined(separator: ", ")
    }

    func rotorLine(_ rotor: RotorState, stepped: Bool) -> String {
        let position = rotor.itemIndex.map { words(.position, ["index": "\($0)", "count": "\(rotor.itemCount)"]) }
        if stepped, let item = rotor.item, let position {
            return words(.rotorStep, ["rotor": rotor.rotor, "position": position, "item": item])
        }
        let rotorPosition = words(.position, ["index": "\(rotor.rotorIndex)", "count": "\(rotor.rotorCount)"])
        let name = words(.rotorName, ["rotor": rotor.rotor, "position": rotorPosition])
        guard let item = rotor.item, let position else {
            return words(.rotorNoneChosen, ["name": name, "count": "\(rotor.itemCount)"])
        }
        return words(.rotorChosen, ["name": name, "item": item, "position": position])
    }

    func actionsLine(_ list: ActionList) -> String {
        let names = list.actions.enumerated().map { "\($0.offset + 1) \($0.element)" }
        return words(.actionsList, ["list": names.joined(separator: ", ")])
    }

    func announcement(
        _ announcement: Announcement,
        repeating repeatedWords: [String],
        asked: Bool = false
    ) -> [ConsoleLine] {
        let text = announcement.text
        switch announcement.category {
        case .echo:
            return []
        case .feedback where repeatedWords.contains(text):
            return []
        case .hint:
            let named = AnswerFolding.fold(text).hasPrefix(words(.hintWord))
            return [ConsoleLine(named ? text : words(.hint, ["text": text]), style: .hint)]
        case .error:
            return [ConsoleLine(words(.error, ["message": text]), style: .error)]
        case .time:
            // The last ten seconds come as bare numbers: each gets its words.
            guard let seconds = Int(text.filter { !$0.isWhitespace }), (1...10).contains(seconds) else {
                return [ConsoleLine(text, style: .time)]
            }
            // `again` says the second it is asked at; time says only some.
            if !asked, !countdownEverySecond, !Self.countdownMarks.contains(seconds) { return [] }
            return [
                ConsoleLine(words.counting(seconds, one: .secondsLeftOne, many: .secondsLeftMany), style: .countdown)
            ]
        case .narrative, .feedback:
            return [ConsoleLine(text)]
        }
    }

    /// A hint announcement: the unlocking notice, said once until the player asks for a hint, without a
    /// `Hint:` prefix (it is no hint); and after a hint asked for, whether another one waits.
    ///
    /// - Returns: The lines, or `nil` when the announcement is said as any other.
    private mutating func hintAnnouncement(_ announcement: Announcement, answering command: Command?) -> [ConsoleLine]?
    {
        switch command {
        case nil, .wait:
            // Unasked (time passing, a wait): the notice that a hint unlocked.
            guard !hintNoticed else {
                hintsUnsaid += 1
                return []
            }
            hintNoticed = true
            noticeText = announcement.text
            return [ConsoleLine(announcement.text, style: .hint)]
        case .game(.repeatAnnouncement):
            return announcement.text == noticeText ? [ConsoleLine(announcement.text, style: .hint)] : nil
        default:
            // Asked for (`hint`, or a gesture that gives one).
            hintNoticed = false
            let lines = self.announcement(announcement, repeating: [])
            guard hintsUnsaid > 0 else { return lines }
            hintsUnsaid -= 1
            hintNoticed = true
            return lines + [ConsoleLine(words(.anotherHintReady), style: .hint)]
        }
    }

    /// The console's own words for an engine refusal whose wording is a developer's, if it has some.
    private func friendly(_ error: ProtocolError, answering command: Command?) -> String? {
        switch command {
        case .game(.adjust) where error.code == .notNow:
            return words(.notAdjustable)
        case .game(.goto(let chapter, let level)) where error.code == .invalidParams:
            // The engine's chapter message ends with the count it allows: "… between 1 and 7".
            let count = String(error.message.reversed().prefix { $0.isNumber }.reversed())
            switch error.field {
            case "chapter": return words(.noSuchChapter, ["chapter": "\(chapter)", "count": count])
            case "level": return words(.noSuchLevel, ["chapter": "\(chapter)", "level": "\(level)"])
            default: return nil
            }
        default:
            return nil
        }
    }

    /// A message with a capital first letter and a full stop at the end.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        var text = first.uppercased() + message.dropFirst()
        if let last = text.last, !".!?".contains(last) { text += "." }
        return text
    }
}

extension Trait {
    /// What a screen reader says for the trait, or `nil` when it says nothing.
    fileprivate var spokenRole: ConsoleWords.Key? {
        switch self {
        case .button: .roleButton
        case .header: .roleHeading
        case .staticText: nil
        case .textField: .roleTextField
        case .adjustable: .roleAdjustable
        case .notEnabled: .stateUnavailable
        case .selected: .stateSelected
        }
    }
}
