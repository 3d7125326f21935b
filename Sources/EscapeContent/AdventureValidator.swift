import EscapeCore

/// How big an adventure may be, so a hostile or broken file cannot make the engine or a Braille
/// display choke; each limit is documented in Protocol/README.md.
public enum AdventureLimits {
    /// Chapters in an adventure.
    public static let chapters = 50
    /// Levels in a chapter.
    public static let levelsPerChapter = 50
    /// Pages of the introduction.
    public static let introPages = 20
    /// Hints of a level.
    public static let hints = 10
    /// Answers of a closed question, clues of a rotor level, objects of a custom-action level.
    public static let choices = 20
    /// Codes of a rotor, accepted answers of an open question, actions of an object.
    public static let items = 100
    /// Characters in any one text (a story, a label, a hint).
    public static let textLength = 4000
    /// Dials of one lock.
    public static let dials = 8
    /// Seconds a timed level may last (and at least 10).
    public static let timeLimit = 3600
}

/// The rules an adventure must follow beyond its shape: unique ids, exactly one right answer, and so on.
enum AdventureValidator {
    /// Element ids the engine itself puts on level screens.
    static let reservedIDs: Set<String> = ["title", "story", "question", "answer", "door", "prompt", "try"]

    static func problems(in adventure: Adventure) -> [ContentError.Problem] {
        var problems: [ContentError.Problem] = []
        func check(_ condition: Bool, _ path: String, _ message: String) {
            if !condition { problems.append(.init(path: path, message: message)) }
        }
        check(
            adventure.format == Adventure.currentFormat,
            "$.format",
            "format \(adventure.format) is not supported; this engine reads format \(Adventure.currentFormat)"
        )
        check(!adventure.intro.isEmpty, "$.intro", "needs at least one page")
        check(!adventure.chapters.isEmpty, "$.chapters", "needs at least one chapter")
        problems += limitProblems(in: adventure)
        problems += messageProblems(in: adventure)
        var chapterIDs: Set<String> = []
        var levelIDs: Set<String> = []
        for (chapterIndex, chapter) in adventure.chapters.enumerated() {
            let chapterPath = "$.chapters[\(chapterIndex)]"
            check(chapterIDs.insert(chapter.id).inserted, "\(chapterPath).id", "duplicate chapter id \"\(chapter.id)\"")
            check(!chapter.levels.isEmpty, "\(chapterPath).levels", "needs at least one level")
            for (levelIndex, level) in chapter.levels.enumerated() {
                let levelPath = "\(chapterPath).levels[\(levelIndex)]"
                check(levelIDs.insert(level.id).inserted, "\(levelPath).id", "duplicate level id \"\(level.id)\"")
                check(
                    level.hints.allSatisfy { !$0.isEmpty },
                    "\(levelPath).hints",
                    "hints must not be empty strings"
                )
                problems += puzzleProblems(level.puzzle, at: "\(levelPath).puzzle")
            }
        }
        return problems
    }

    private static func puzzleProblems(_ puzzle: Puzzle, at path: String) -> [ContentError.Problem] {
        var problems: [ContentError.Problem] = []
        func check(_ condition: Bool, _ subpath: String, _ message: String) {
            if !condition { problems.append(.init(path: path + subpath, message: message)) }
        }
        switch puzzle {
        case .closedQuestion(let question):
            check(question.answers.count >= 2, ".answers", "needs at least two answers")
            check(
                question.answers.filter { $0.correct == true }.count == 1,
                ".answers",
                "exactly one answer must have \"correct\": true"
            )
            problems += idProblems(question.answers.map(\.id), at: path + ".answers")
        case .openQuestion(let question):
            check(!question.accepted.isEmpty, ".accepted", "needs at least one accepted answer")
            for (index, answer) in question.accepted.enumerated() {
                check(
                    !Engine.normalizedAnswer(answer).isEmpty,
                    ".accepted[\(index)]",
                    "has no letters or digits, so no typed answer can match it"
                )
            }
        case .rotor(let rotor):
            check(!rotor.clues.isEmpty, ".clues", "needs at least one clue")
            check(rotor.codes.count >= 2, ".codes", "needs at least two codes")
            check(Set(rotor.codes).count == rotor.codes.count, ".codes", "codes must be different")
            check(rotor.codes.contains(rotor.answer), ".answer", "\"\(rotor.answer)\" is not one of the codes")
        case .customActions(let actions):
            check(!actions.objects.isEmpty, ".objects", "needs at least one object")
            problems += idProblems(actions.objects.map(\.id), at: path + ".objects")
            for (index, object) in actions.objects.enumerated() {
                let names = object.actions.map(\.name)
                check(names.count >= 2, ".objects[\(index)].actions", "needs at least two actions")
                check(Set(names).count == names.count, ".objects[\(index)].actions", "action names must be different")
                check(
                    names.contains(object.correct),
                    ".objects[\(index)].correct",
                    "\"\(object.correct)\" is not one of the object's actions"
                )
            }
        case .dials(let lock):
            check(!lock.dials.isEmpty, ".dials", "needs at least one dial")
            problems += idProblems(lock.dials.map(\.id), at: path + ".dials")
            check(
                lock.combination.count == lock.dials.count,
                ".combination",
                "has \(lock.combination.count) values for \(lock.dials.count) dials"
            )
            for (index, dial) in lock.dials.enumerated() {
                check(dial.values.count >= 2, ".dials[\(index)].values", "needs at least two values")
                check(
                    Set(dial.values).count == dial.values.count,
                    ".dials[\(index)].values",
                    "values must be different"
                )
                check(
                    dial.values.contains(dial.start),
                    ".dials[\(index)].start",
                    "\"\(dial.start)\" is not one of the values"
                )
                if index < lock.combination.count {
                    check(
                        dial.values.contains(lock.combination[index]),
                        ".combination[\(index)]",
                        "\"\(lock.combination[index])\" is not one of dial \(dial.id)'s values"
                    )
                }
            }
            check(
                lock.dials.map(\.start) != lock.combination,
                ".combination",
                "the dials start at the combination, so the lock opens untouched"
            )
        }
        return problems
    }

    /// The optional sentences that the adventure's own levels need.
    private static func messageProblems(in adventure: Adventure) -> [ContentError.Problem] {
        let levels = adventure.chapters.flatMap(\.levels)
        let messages = adventure.messages
        var needed: [(String, String?)] = []
        if levels.contains(where: { $0.puzzle.kind == "dials" }) { needed.append(("tryGesture", messages.tryGesture)) }
        if levels.contains(where: { $0.timeLimit != nil }) {
            needed += [
                ("timeLeftMinutes", messages.timeLeftMinutes), ("timeLeftOneMinute", messages.timeLeftOneMinute),
                ("timeLeftSeconds", messages.timeLeftSeconds), ("countdown", messages.countdown),
                ("timeUp", messages.timeUp),
            ]
        }
        return needed.filter { $0.1 == nil }.map {
            .init(path: "$.messages.\($0.0)", message: "is needed by this adventure's levels")
        }
    }

    /// Every count and text over its limit in ``AdventureLimits``.
    private static func limitProblems(in adventure: Adventure) -> [ContentError.Problem] {
        var problems: [ContentError.Problem] = []
        func count(_ value: Int, _ limit: Int, _ path: String, _ what: String) {
            if value > limit {
                problems.append(.init(path: path, message: "too many \(what): \(value); the limit is \(limit)"))
            }
        }
        func text(_ value: String, _ path: String) {
            if value.count > AdventureLimits.textLength {
                problems.append(
                    .init(
                        path: path,
                        message:
                            "the text is \(value.count) characters long; the limit is \(AdventureLimits.textLength)"
                    )
                )
            }
        }
        count(adventure.chapters.count, AdventureLimits.chapters, "$.chapters", "chapters")
        count(adventure.intro.count, AdventureLimits.introPages, "$.intro", "pages")
        for (index, page) in adventure.intro.enumerated() { text(page.text, "$.intro[\(index)].text") }
        text(adventure.ending.text, "$.ending.text")
        for (chapterIndex, chapter) in adventure.chapters.enumerated() {
            let chapterPath = "$.chapters[\(chapterIndex)]"
            count(chapter.levels.count, AdventureLimits.levelsPerChapter, "\(chapterPath).levels", "levels")
            text(chapter.description, "\(chapterPath).description")
            for (levelIndex, level) in chapter.levels.enumerated() {
                let path = "\(chapterPath).levels[\(levelIndex)]"
                count(level.hints.count, AdventureLimits.hints, "\(path).hints", "hints")
                if let limit = level.timeLimit, !(10...AdventureLimits.timeLimit).contains(limit) {
                    problems.append(
                        .init(
                            path: "\(path).timeLimit",
                            message: "must be between 10 and \(AdventureLimits.timeLimit) seconds, not \(limit)"
                        )
                    )
                }
                text(level.story, "\(path).story")
                switch level.puzzle {
                case .closedQuestion(let question):
                    count(question.answers.count, AdventureLimits.choices, "\(path).puzzle.answers", "answers")
                case .openQuestion(let question):
                    count(question.accepted.count, AdventureLimits.items, "\(path).puzzle.accepted", "answers")
                case .rotor(let rotor):
                    count(rotor.clues.count, AdventureLimits.choices, "\(path).puzzle.clues", "clues")
                    count(rotor.codes.count, AdventureLimits.items, "\(path).puzzle.codes", "codes")
                case .dials(let lock):
                    count(lock.dials.count, AdventureLimits.dials, "\(path).puzzle.dials", "dials")
                    for (index, dial) in lock.dials.enumerated() {
                        count(
                            dial.values.count,
                            AdventureLimits.items,
                            "\(path).puzzle.dials[\(index)].values",
                            "values"
                        )
                    }
                case .customActions(let puzzle):
                    count(puzzle.objects.count, AdventureLimits.choices, "\(path).puzzle.objects", "objects")
                    for (index, object) in puzzle.objects.enumerated() {
                        count(
                            object.actions.count,
                            AdventureLimits.items,
                            "\(path).puzzle.objects[\(index)].actions",
                            "actions"
                        )
                    }
                }
            }
        }
        return problems
    }

    private static func idProblems(_ ids: [String], at path: String) -> [ContentError.Problem] {
        var seen: Set<String> = []
        var problems: [ContentError.Problem] = []
        for (index, id) in ids.enumerated() {
            if id.isEmpty || reservedIDs.contains(id) || id.hasPrefix("clue-") {
                problems.append(
                    .init(path: "\(path)[\(index)].id", message: "\"\(id)\" is empty or reserved by the engine")
                )
            }
            if !seen.insert(id).inserted {
                problems.append(.init(path: "\(path)[\(index)].id", message: "duplicate id \"\(id)\""))
            }
        }
        return problems
    }
}
