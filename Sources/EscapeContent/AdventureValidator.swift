// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON

/// The rules an adventure must follow beyond its shape: unique ids, exactly one right answer, and so on.
enum AdventureValidator {
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

    /// What the level's kind finds wrong with its content.
    private static func puzzleProblems(_ puzzle: Puzzle, at path: String) -> [ContentError.Problem] {
        puzzle.content.problems().map { .init(path: path + $0.path, message: $0.message) }
    }

    /// The optional sentences that the adventure's own levels need.
    private static func messageProblems(in adventure: Adventure) -> [ContentError.Problem] {
        let levels = adventure.chapters.flatMap(\.levels)
        let messages = adventure.messages
        var needed: [(String, String?)] = []
        if levels.contains(where: { $0.puzzle.kind == "dials" }) { needed.append(("tryGesture", messages.tryGesture)) }
        let feminine = levels.contains { level in
            (level.puzzle.content as? CustomActionPuzzle)?.objects.contains { $0.gender == .feminine } ?? false
        }
        if feminine { needed.append(("noActionYetFeminine", messages.noActionYetFeminine)) }
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

    /// Every string of the file (a value or a key, wherever it is) longer than the text limit, counted in
    /// Unicode code points: a letter with a million combining marks is a million and one characters; and
    /// every string value against the adventure schema's rules (see ``stringProblem(_:key:atRoot:)``).
    static func checkTexts(in value: JSONValue, at path: String, into problems: inout [ContentError.Problem]) {
        var steps: [PathStep] = []
        checkTexts(in: value, root: path, steps: &steps, into: &problems)
    }

    /// One step down a JSON path; the path is spelled out only for a problem (building it for every
    /// string of an adventure was most of the validation's cost).
    private enum PathStep {
        case index(Int)
        case key(String)
        case keyItself
    }

    private static func checkTexts(
        in value: JSONValue,
        root: String,
        steps: inout [PathStep],
        into problems: inout [ContentError.Problem]
    ) {
        switch value {
        case .string(let text):
            // A value (a key is no value), named by its key or an item of an array.
            var key: String?
            var isValue = true
            switch steps.last {
            case .key(let name)?: key = name
            case .keyItself?: isValue = false
            case .index?, nil: key = nil
            }
            if isValue, let problem = stringProblem(text, key: key, atRoot: steps.count == 1) {
                problems.append(.init(path: spell(root, steps), message: problem))
            }
            // No more UTF-8 bytes than the limit means no more code points either: most texts stop here.
            guard text.utf8.count > AdventureLimits.textLength else { return }
            let length = text.unicodeScalars.count
            if length > AdventureLimits.textLength {
                problems.append(
                    .init(
                        path: spell(root, steps),
                        message: "the text is \(length) characters long; the limit is \(AdventureLimits.textLength)"
                    )
                )
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                steps.append(.index(index))
                checkTexts(in: item, root: root, steps: &steps, into: &problems)
                steps.removeLast()
            }
        case .object(let object):
            for key in object.keys.sorted() {
                steps.append(.keyItself)
                checkTexts(in: .string(key), root: root, steps: &steps, into: &problems)
                steps.removeLast()
                steps.append(.key(key))
                if let item = object[key] { checkTexts(in: item, root: root, steps: &steps, into: &problems) }
                steps.removeLast()
            }
        case .null, .bool, .int, .uint, .double:
            break
        }
    }

    /// The adventure schema's rules for a string value.
    ///
    /// Every text at least one character long, every id of the form `^[a-z0-9][a-z0-9-]*$` and at most
    /// 64 characters, the locale two or three lowercase letters. An empty title, label or button name would be a silent element to a
    /// screen reader; an id such as `../../etc` could name a file elsewhere.
    private static func stringProblem(_ text: String, key: String?, atRoot: Bool) -> String? {
        switch key {
        case "ambient":
            return nil  // a sound cue's name, checked as the chapter is read (with the same pattern)
        case "id":
            let bytes = Array(text.utf8)
            let allowed = bytes.allSatisfy { isLowercaseLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
            guard let first = bytes.first, isLowercaseLetterOrDigit(first), allowed else {
                return "\(describe(text)) is not an id: use lowercase letters a-z, digits and hyphens, starting "
                    + "with a letter or a digit"
            }
            if bytes.count > idLength {
                return "the id is \(bytes.count) characters long; the limit is \(idLength)"
            }
            return nil
        case "locale" where atRoot:
            let bytes = Array(text.utf8)
            guard (2...3).contains(bytes.count), bytes.allSatisfy({ (0x61...0x7A).contains($0) }) else {
                return "\(describe(text)) is not a language code: two or three lowercase letters, such as en or fr"
            }
            return nil
        default:
            if text.isEmpty { return "must not be empty: a screen reader would meet a silent element" }
            return controlProblem(text)
        }
    }

    /// A control character or a bidirectional override in a text: the first one, named, with its position.
    ///
    /// Texts reach terminals, Braille displays and speech as they are: ESC or a C1 control would let a
    /// shared adventure clear the screen, retitle the window or write the clipboard (OSC 52), BEL rings,
    /// and an override (U+202A-U+202E, U+2066-U+2069) reorders what a sighted helper reads. Texts are
    /// single lines; front ends wrap them.
    static func controlProblem(_ text: String) -> String? {
        for (offset, scalar) in text.unicodeScalars.enumerated() where TerminalSafety.isRefused(scalar) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
            return "contains the control character U+\(padded) (\(TerminalSafety.name(of: scalar))) at character "
                + "\(offset + 1): terminals and screen readers would act on it; remove it"
        }
        return nil
    }

    /// The longest id: 64 characters.
    static let idLength = 64

    private static func isLowercaseLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
    }

    /// A string for a message: quoted, and cut short when long.
    private static func describe(_ text: String) -> String {
        let shown = text.unicodeScalars.count > 40 ? String(text.unicodeScalars.prefix(40)) + "…" : text
        let printable = shown.unicodeScalars.map {
            $0.isASCII && $0.value >= 0x20 ? String($0) : $0.escaped(asASCII: true)
        }
        return "\"" + printable.joined() + "\""
    }

    private static func spell(_ root: String, _ steps: [PathStep]) -> String {
        var path = root
        for step in steps {
            switch step {
            case .index(let index): path += "[\(index)]"
            case .key(let key): path += "." + TerminalSafety.sanitized(key)
            case .keyItself: path += " (a key)"
            }
        }
        return path
    }

    /// Every count over its limit in ``AdventureLimits``.
    private static func limitProblems(in adventure: Adventure) -> [ContentError.Problem] {
        var problems: [ContentError.Problem] = []
        func count(_ value: Int, _ limit: Int, _ path: String, _ what: String) {
            if value > limit {
                problems.append(.init(path: path, message: "too many \(what): \(value); the limit is \(limit)"))
            }
        }
        count(adventure.chapters.count, AdventureLimits.chapters, "$.chapters", "chapters")
        count(adventure.intro.count, AdventureLimits.introPages, "$.intro", "pages")
        for (chapterIndex, chapter) in adventure.chapters.enumerated() {
            let chapterPath = "$.chapters[\(chapterIndex)]"
            count(chapter.levels.count, AdventureLimits.levelsPerChapter, "\(chapterPath).levels", "levels")
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
                for size in level.puzzle.content.sizes() {
                    count(size.count, size.limit, "\(path).puzzle\(size.path)", size.what)
                }
            }
        }
        return problems
    }
}
