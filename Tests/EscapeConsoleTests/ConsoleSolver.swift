// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeCore
import EscapeRuntime

/// Plays a whole adventure at the console, a typed line at a time, with the content's own answers, as a
/// player would type them: items by their number in the listing, actions by their verb, and the
/// console's own words in the adventure's language where it has them.
struct ConsoleSolver {
    /// One typed line and the lines the console answered.
    struct Step {
        var typed: String
        var answer: [String]
    }

    let adventure: Adventure
    /// The word to type for each command, in the adventure's language.
    let say: (String) -> String

    /// Plays `console` to the end screen; returns every step.
    func play(_ console: inout SteppedConsole, limit: Int = 2000) -> [Step] {
        var steps: [Step] = []
        var pending: [String] = []
        while console.host.engine.screen.kind != .end && steps.count < limit {
            if pending.isEmpty { pending = next(console) }
            let line = pending.removeFirst()
            steps.append(Step(typed: line, answer: console.enter(line).map(\.text)))
        }
        return steps
    }

    /// The lines to type next on the screen on show.
    private func next(_ console: SteppedConsole) -> [String] {
        let engine = console.host.engine
        let screen = engine.screen
        func number(_ id: String) -> String {
            "\((screen.elements.firstIndex { $0.id == id } ?? 0) + 1)"
        }
        switch screen.kind {
        case .intro, .menu, .assistive:
            return [say("escape")]
        case .chapter:
            return [say("activate") + " " + number("begin")]
        case .end:
            return []
        case .level:
            let id = String(screen.id.dropFirst("level-".count))
            guard let level = adventure.chapters.flatMap(\.levels).first(where: { $0.id == id }) else { return [] }
            switch level.puzzle.content {
            case let question as ClosedQuestion:
                return [say("activate") + " " + number(question.answers.first { $0.correct == true }?.id ?? "")]
            case let question as OpenQuestion:
                return [say("type") + " " + question.accepted[0]]
            case let rotor as RotorPuzzle:
                if engine.focus.element.id != "door" { return [number("door")] }
                if engine.rotor?.rotor != rotor.rotor { return [say("rotor")] }
                if engine.rotor?.item != rotor.answer { return [say("item")] }
                return [say("activate")]
            case let puzzle as CustomActionPuzzle:
                var lines: [String] = []
                for object in puzzle.objects {
                    lines += [
                        number(object.id), "action " + verb(of: object.correct, among: object.actions.map(\.name)),
                    ]
                }
                return lines
            case let lock as DialsPuzzle:
                for (dial, target) in zip(lock.dials, lock.combination)
                where screen.elements.first(where: { $0.id == dial.id })?.value != target {
                    return engine.focus.element.id == dial.id ? ["+"] : [number(dial.id)]
                }
                return [say("magic")]
            default:
                return []
            }
        }
    }

    /// The shortest form of `name` that names it alone: its verb, or the whole name.
    private func verb(of name: String, among names: [String]) -> String {
        let words = name.split { $0 == " " || $0 == "'" }
        for word in words where word.count > 2 {
            if ActionMatch.matches(String(word), among: names) == .one(name) { return String(word) }
        }
        return name
    }
}
