// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The Braille front end against a real BRLTTY, with the test acting as the display through BRLTTY's
/// virtual driver: only display keys go in, and only what the display shows is checked.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYTests: RealBRLTTYSteps {
    /// Run by ``RealBRLTTYLongTests``, beside the others.
    func playsTheWholeGameWithDisplayKeysOnly() throws {
        let display = try VirtualDisplay()
        try display.start()
        display.strict = true
        let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        display.follow(game)
        defer {
            game.stop()
            display.stop()
        }
        do {
            try playEverything(display, game)
        } catch {
            Issue.record(
                "efb said on standard error (its last lines, traced): \(game.standardError(last: 60)); exit: \(game.process.isRunning ? "running" : "\(game.process.terminationStatus)")"
            )
            throw error
        }
    }

    private func playEverything(_ display: VirtualDisplay, _ game: RunningEFB) throws {
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        #expect(game.standardError.contains("Connected to BRLTTY (40 cells)"))

        // A long paragraph is word-wrapped and panned, then its end moves on.
        try display.press("LNDN") { $0.hasPrefix("You wake on cold stone.") }
        #expect(display.text == "You wake on cold stone. Your lantern")
        try display.press("FWINRT") { $0.hasPrefix("lies beside you") }
        try display.press("FWINLT") { $0.hasPrefix("You wake on cold stone.") }

        // The introduction: the last element of each page goes on.
        for next in ["How to play hdr 1/3", "Help along the way hdr 1/3", "Chapter 1: The Cellar of Echoes hdr 1/3"] {
            try display.press("BOT") { $0.hasPrefix("Continue btn 3/3") }
            try display.press("ROUTE 1") { $0.hasPrefix(next) }
        }

        // Chapter 1: closed questions. A wrong answer flashes its feedback until a key dismisses it.
        try beginChapter(display, firstLevel: "The First Door")
        try focus(display, startingWith: "The light of the moon")
        try display.press("ROUTE 1") { $0.hasPrefix("No moonlight reaches this deep.") }
        // Panning reads the message; past its end it goes (any other key would also do its own job).
        try dismissMessages(display, until: "The light of the moon btn")
        let closed = [
            ("My other senses", "The Singing Wall"), ("Running water", "The Three Jars"),
            ("The jar that smells of lamp oil", "The Stair of Notes"),
            ("Lower than the third", "Chapter 2: The Hall of Speaking Stones"),
        ]
        for (answer, next) in closed {
            try focus(display, startingWith: answer)
            try display.press("ROUTE 1") { !$0.hasPrefix(answer) }
            try dismissMessages(display, until: next)
        }

        // Chapter 2: open questions typed on the Braille keyboard; Backspace corrects, Enter submits.
        try beginChapter(display, firstLevel: "The Stone of Memory")
        try display.press("BOT") { $0.hasPrefix("Your answer:  edt 4/4") }
        try type("glasz", on: display)
        try display.press("KEY_BACKSPACE") { $0.hasPrefix("Your answer: glas edt") }
        try type("s", on: display)
        try display.press("KEY_ENTER") { $0.hasPrefix("The stone sighs") }
        try dismissMessages(display, until: "The Counting Stone")
        let open = [
            ("three", "The Stone of Longing"), ("light", "The Carved Word"),
            ("café", "Chapter 3: The Vault of Numbers"),
        ]
        for (answer, next) in open {
            try display.press("BOT") { $0.hasPrefix("Your answer:  edt") }
            try type(answer, on: display)
            try display.press("KEY_ENTER") { !$0.hasPrefix("Your answer") }
            try dismissMessages(display, until: next)
        }

        // Chapter 3: rotors. The rotor and its item show with the door; a routing key tries the code.
        try beginChapter(display, firstLevel: "The Iron Door")
        for (code, next) in [("135", "The Silver Door"), ("43", "Chapter 4: The Workshop of Hands")] {
            try display.press("BOT") { $0.contains("door, locked btn") }
            try step(display, key: "NXPGRPH") { $0.contains(" Codes") }
            try step(display, key: "NXDIFLN") { Self.shows($0, door: "door, locked", rotor: "Codes", code: code) }
            try display.press("ROUTE 1") { !Self.shows($0, door: "door, locked", rotor: "Codes", code: code) }
            try dismissMessages(display, until: next)
        }

        // From chapter 4 on, every level as the adventure file has it: custom actions chosen with the
        // prompt keys, dials turned with the adjust keys and tried with HOME (magic tap), and the
        // torch's timed levels.
        let adventure = try AdventureLoader.bundled(locale: "en")
        for (chapterIndex, chapter) in adventure.chapters.enumerated().dropFirst(3) {
            try display.waitFor(prefix: "Chapter \(chapterIndex + 1): \(chapter.title) hdr")
            try beginChapter(display, firstLevel: chapter.levels[0].title)
            for (levelIndex, level) in chapter.levels.enumerated() {
                let next =
                    levelIndex + 1 < chapter.levels.count
                    ? "\(chapter.levels[levelIndex + 1].title) hdr"
                    : chapterIndex + 1 < adventure.chapters.count
                        ? "Chapter \(chapterIndex + 2): \(adventure.chapters[chapterIndex + 1].title) hdr"
                        : "\(adventure.ending.title) hdr"
                try solve(level, on: display)
                try dismissMessages(display, until: next)
            }
        }
        try display.press("BOT") { $0.hasPrefix("Play again btn 3/3") }
    }

    @Test func reconnectsAfterBRLTTYRestartsAndResumesWhereThePlayerWas() throws {
        let display = try VirtualDisplay()
        try display.start()
        let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        try display.press("INFO") { $0.hasPrefix("Level 1.1: The First Door: current btn") }
        try display.press("BACK") { $0.hasPrefix("Darkness hdr 1/3") }
        try display.press("LNDN") { $0.hasPrefix("You wake on cold stone.") }
        let before = display.text

        display.stop()
        try waitUntil(timeout: 20, "efb to notice BRLTTY went away") {
            game.standardError.contains("Lost the Braille display")
        }
        let restarted = try VirtualDisplay(brlapiNumber: Int(display.brlapiHost.split(separator: ":")[1]))
        try restarted.start()
        defer { restarted.stop() }
        try restarted.waitFor(timeout: 30, "the game to say it is back") { $0.hasPrefix("Welcome back.") }
        try restarted.press("FWINLT") { $0 == before }
        #expect(game.standardError.contains("BRLTTY is back"))
        // Nothing was lost: the game goes on from there.
        try restarted.press("LNDN") { $0.hasPrefix("Continue btn 3/3") }
    }

    @Test func waitsForBRLTTYAtStartAndSaysHowToStartIt() throws {
        let display = try VirtualDisplay()
        let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        defer {
            game.stop()
            display.stop()
        }
        try waitUntil(timeout: 10, "the waiting message") { game.standardError.contains("Waiting for BRLTTY") }
        #expect(game.standardError.contains("sudo systemctl start brltty"))
        #expect(game.process.isRunning)
        try display.start()
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
    }

    @Test func keepsTheSaveAcrossRunsAndRestoresTheLevel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-braille-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let save = folder.appendingPathComponent("progress.json").path
        let display = try VirtualDisplay()
        try display.start()
        defer { display.stop() }
        do {
            let game = try brailleGame(host: display.brlapiHost, arguments: ["--save", save])
            defer { game.stop() }
            try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
            try display.press("BACK") { $0.hasPrefix("Chapter 1: The Cellar of Echoes hdr") }
            try beginChapter(display, firstLevel: "The First Door")
            try focus(display, startingWith: "My other senses")
            try display.press("ROUTE 1") { !$0.hasPrefix("My other senses") }
            try dismissMessages(display, until: "The Singing Wall")
            #expect(FileManager.default.fileExists(atPath: save))
        }
        let again = try brailleGame(host: display.brlapiHost, arguments: ["--save", save])
        defer { again.stop() }
        try display.waitFor(timeout: 15, "the saved level") { $0.hasPrefix("The Singing Wall hdr") }
    }

    @Test func saysInPlainWordsWhenBRLTTYRefusesTheKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("brlapi.key")
        try Data("a secret only the right players know\n".utf8).write(to: key)
        let display = try VirtualDisplay(auth: "keyfile:\(key.path)")
        try display.start()
        defer { display.stop() }

        let refused = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        defer { refused.stop() }
        try waitUntil(timeout: 10, "the refusal message") { refused.standardError.contains("refused this program") }
        #expect(refused.standardError.contains("brlapi group"))
        #expect(refused.process.isRunning)
        refused.stop()

        let welcome = try brailleGame(
            host: display.brlapiHost,
            arguments: ["--memory-save", "--auth", "keyfile:\(key.path)"]
        )
        defer { welcome.stop() }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
    }

    @Test func followsTheDisplaySizeEvenDuringAMessageAndSurvivesNoCells() throws {
        let display = try VirtualDisplay()
        try display.start()
        let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        try display.resize(columns: 20)
        try display.waitFor("20 cells") { $0 == "Darkness hdr 1/3" && display.width == 20 }
        try display.press("CSRTRK") { $0 == "This level has no" }
        try display.resize(columns: 30)
        try display.waitFor("the message laid out again") { $0 == "This level has no hints." }
        // BRLTTY takes a display of no cells without passing the size on to its clients: efb, checking the
        // size every second, keeps reading the last one (seen with BRLTTY 6.5: a log line added for a size
        // of 0 never came in 15 s). With no sign to wait for, none is waited for: the display grows again
        // at once. What efb does with a size of no cells is checked without BRLTTY, by BrailleFrontEndTests'
        // writesNothingToADisplayOfNoCellsAndFollowsItWhenItGrows.
        try display.resize(columns: 0)
        #expect(game.process.isRunning)
        try display.resize(columns: 40)
        try display.waitFor("the message on 40 cells") { $0 == "This level has no hints." && display.width == 40 }
        try display.press("FWINLT") { $0 == "Darkness hdr 1/3" }
        #expect(game.process.isRunning)
        #expect(!game.standardError.contains("Lost the Braille display"))
    }

    @Test func aMultiRowDisplayShowsTheTextOnEveryRow() throws {
        let display = try VirtualDisplay()
        try display.start(columns: 20, rows: 2)
        let game = try brailleGame(host: display.brlapiHost, arguments: ["--memory-save"])
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        #expect(game.standardError.contains("(20×2 cells)"))
        // Two rows of 20, each broken at a word: BRLTTY shows them one after the other.
        try display.press("LNDN") { $0 == "You wake on cold    stone. Your lantern" }
        try display.press("FWINRT") { $0.hasPrefix("lies beside you,") }
    }

}

/// What the suites against a real BRLTTY share.
///
/// The steps a player takes on the display, and the trimmed adventures and games they play. Each suite
/// conforms, so suites run side by side, each serialized within itself (one BRLTTY per test).
protocol RealBRLTTYSteps {}

extension RealBRLTTYSteps {
    // MARK: Steps a player takes

    /// Solves a level with display keys only, from what the adventure file says; answers are typed
    /// with `typeAnswer` (default: characters through BRLTTY's text table).
    func solve(
        _ level: Level,
        on display: VirtualDisplay,
        words: ShownWords = .english,
        typeAnswer: ((String) throws -> Void)? = nil
    ) throws {
        let colon = words.colon
        switch level.puzzle.content {
        case let question as ClosedQuestion:
            let answer = try #require(question.answers.first { $0.correct == true })
            try focus(display, startingWith: answer.label, words: words)
            try display.press("ROUTE 1") { !$0.hasPrefix(String(answer.label.prefix(24))) }
        case let question as OpenQuestion:
            try focus(display, startingWith: question.field + colon.dropLast(), words: words)
            if let typeAnswer {
                try typeAnswer(question.accepted[0])
            } else {
                try type(question.accepted[0], on: display)
            }
            try display.press("KEY_ENTER") { !$0.hasPrefix(question.field + colon.dropLast()) }
        case let rotor as RotorPuzzle:
            try display.press("BOT") { $0.hasPrefix(rotor.door) }
            try step(display, key: "NXPGRPH") { $0.contains(" \(rotor.rotor)") }
            try step(display, key: "NXDIFLN", limit: rotor.codes.count + 1) {
                Self.shows($0, door: rotor.door, rotor: rotor.rotor, code: rotor.answer, words: words)
            }
            try display.press("ROUTE 1") {
                !Self.shows($0, door: rotor.door, rotor: rotor.rotor, code: rotor.answer, words: words)
            }
        case let puzzle as CustomActionPuzzle:
            for object in puzzle.objects {
                try focus(display, startingWith: object.label, words: words)
                // The chosen action follows the label (and value), whole: when it does not fit after
                // them, its window starts with it.
                let chosen = { (shown: String) in
                    shown.contains(words.semicolon + "\(object.correct) act ")
                        || shown.contains(colon + "\(object.correct) act ") || shown.hasPrefix("\(object.correct) act ")
                }
                try step(display, key: "NXPROMPT") { chosen($0) }
                try display.press("ROUTE 1") { !chosen($0) }
                if object != puzzle.objects.last { try dismissMessages(display, until: object.label) }
            }
        case let lock as DialsPuzzle:
            for (dial, target) in zip(lock.dials, lock.combination) {
                try focus(display, startingWith: dial.label + colon.dropLast(), words: words)
                let start = dial.values.firstIndex(of: dial.start) ?? 0
                let goal = dial.values.firstIndex(of: target) ?? 0
                let up = (goal - start + dial.values.count) % dial.values.count
                let key = up <= dial.values.count - up ? "ATTRUP" : "ATTRDN"
                try step(display, key: key, limit: dial.values.count) {
                    $0.hasPrefix("\(dial.label)\(colon)\(target) \(words.adjustable)")
                }
            }
            let shown = display.text
            try display.press("HOME") { $0 != shown }
        default:
            Issue.record("no keys for the kind \(level.puzzle.kind)")
        }
    }

    /// Whether the display shows the door with `code` chosen: after the door's name, or first when the
    /// whole does not fit on the display.
    fileprivate static func shows(
        _ text: String,
        door: String,
        rotor: String,
        code: String,
        words: ShownWords = .english
    ) -> Bool {
        text.contains("\(door)\(words.colon)\(code) \(words.button)")
            || text.hasPrefix("\(rotor)\(words.colon)\(code) ")
    }

    func beginChapter(_ display: VirtualDisplay, firstLevel: String) throws {
        try display.press("BOT") { $0.hasPrefix("Begin btn 3/3") }
        try display.press("ROUTE 1") { $0.hasPrefix("\(firstLevel) hdr") }
    }

    /// Moves down from the top until the focused element starts with `label`.
    func focus(_ display: VirtualDisplay, startingWith wholeLabel: String, words: ShownWords = .english) throws {
        // A long label wraps: its start is what shows.
        let label = String(wholeLabel.prefix(24))
        if !display.text.hasPrefix(label) { try display.press("TOP") { $0.contains(" \(words.heading) 1/") } }
        for _ in 0..<10 where !display.text.hasPrefix(label) {
            let shown = display.text
            try display.press("LNDN") { $0 != shown }
        }
        #expect(display.text.hasPrefix(label))
    }

    /// Presses `key` until the display shows what `expected` accepts.
    func step(
        _ display: VirtualDisplay,
        key: String,
        limit: Int = 8,
        until expected: @escaping (String) -> Bool
    ) throws {
        for _ in 0..<limit where !expected(display.text) {
            let shown = display.text
            try display.press(key) { $0 != shown }
        }
        try display.waitFor("the display after \(key)", expected)
    }

    /// Reads flash messages to their end with FWINRT (past a message's end it goes; any other key
    /// would also do its own job) until `prefix` shows.
    func dismissMessages(_ display: VirtualDisplay, until prefix: String, limit: Int = 12) throws {
        for _ in 0..<limit where !display.text.hasPrefix(prefix) {
            let shown = display.text
            try display.press("FWINRT") { $0 != shown }
        }
        try display.waitFor(prefix: prefix)
    }

    /// Types on the Braille keyboard: each character arrives through BRLTTY's text table.
    func type(_ text: String, on display: VirtualDisplay) throws {
        for character in text {
            guard let scalar = character.unicodeScalars.first else { continue }
            let shown = display.text
            try display.press("PASSCHAR 0x" + String(scalar.value, radix: 16)) { $0 != shown }
        }
    }
}

/// The display's own words as a test reads them back from BRLTTY: a no-break space (French spacing)
/// reads as a space.
struct ShownWords: Sendable {
    var colon: String
    var semicolon: String
    var button: String
    var heading: String
    var adjustable: String

    static let english = ShownWords(colon: ": ", semicolon: "; ", button: "btn", heading: "hdr", adjustable: "adj")
    static let french = ShownWords(colon: " : ", semicolon: " ; ", button: "bout", heading: "tit", adjustable: "régl")

    static func of(locale: String) -> ShownWords { locale == "fr" ? .french : .english }
}
