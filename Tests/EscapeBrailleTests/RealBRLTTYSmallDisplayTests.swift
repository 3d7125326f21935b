// SPDX-License-Identifier: Apache-2.0
#if Louis
import EscapeBraille
import EscapeContent
import EscapeCore
import EscapeTestSupport
import Foundation
import Testing

/// Whether the long whole-game display tests run: `scripts/test` runs them in a step of their own.
let longDisplayTests = ProcessInfo.processInfo.environment["EFB_LONG_BRAILLE_TESTS"] == "1"

/// Chapters 1 and 2 and one timed level on a 20-cell display through a real BRLTTY, with BRLTTY's text
/// table and with a contracted table; only display keys, and no key pressed while the display shows
/// something the test has not read.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps"),
    .enabled(if: longDisplayTests, "the long display tests run with EFB_LONG_BRAILLE_TESTS=1 (scripts/test does)")
)
struct RealBRLTTYSmallDisplayTests {
    /// Chapters 1 and 2 of the shipped English adventure, then The Thirsty Flame (a timed open question)
    /// as a third chapter, its time cut to 14 s so that its last ten seconds come soon.
    static func smallAdventure(in folder: URL) throws -> String {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/EscapeContent/Adventures/en.json")
        var adventure = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as? [String: Any]
        )
        let chapters = try #require(adventure["chapters"] as? [[String: Any]])
        var timed = chapters[5]
        var levels = try #require(timed["levels"] as? [[String: Any]])
        levels[1]["timeLimit"] = 14
        timed["levels"] = [levels[1]]
        adventure["chapters"] = [chapters[0], chapters[1], timed]
        adventure["id"] = "issue-22-small-display"
        let file = folder.appendingPathComponent("small-display.json")
        try JSONSerialization.data(withJSONObject: adventure).write(to: file)
        return file.path
    }

    @Test(arguments: ["brltty", "en-ueb-g2"])
    func playsChaptersOneAndTwoAndATimedLevelOnTwentyCells(table: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-small-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.smallAdventure(in: folder)
        let translator = table == "brltty" ? nil : try LouisTranslator(table: table)
        let display = try VirtualDisplay()
        if let translator { display.reader = try ContractedReader(translator: translator, locale: "en").read }
        try display.start(columns: 20)
        display.strict = true
        let game = try RunningEFB([
            "braille", "--host", display.brlapiHost, "--auth", "none", "--seed", "1", "--memory-save",
            "--flash-time", "0", "--adventure", path, "--braille-table", table, "--trace",
        ])
        display.follow(game)
        defer {
            game.stop()
            display.stop()
        }
        do {
            try play(on: SmallDisplayPlayer(display: display, translator: translator))
        } catch {
            Issue.record("efb said on standard error (its last lines, traced): \(game.standardError(last: 60))")
            throw error
        }
    }

    private func play(on player: SmallDisplayPlayer) throws {
        let adventure = try AdventureLoader.bundled(locale: "en")
        let display = player.display
        try display.waitFor(prefix: "Darkness", timeout: 15)
        // Each element's label starts its first window; the short role and position follow.
        #expect(display.text == "Darkness hdr 1/3")
        for _ in adventure.intro.indices {
            try player.press("BOT") { $0.hasPrefix("Continue") }
            try player.press("ROUTE 1") { !$0.hasPrefix("Continue") }
        }
        for (chapterIndex, chapter) in adventure.chapters.prefix(2).enumerated() {
            try display.waitFor(prefix: "Chapter \(chapterIndex + 1):")
            try player.press("BOT") { $0.hasPrefix("Begin btn 3/3") }
            try player.press("ROUTE 1") { player.starts($0, with: chapter.levels[0].title) }
            for (levelIndex, level) in chapter.levels.enumerated() {
                let next =
                    levelIndex + 1 < chapter.levels.count
                    ? chapter.levels[levelIndex + 1].title : "Chapter \(chapterIndex + 2):"
                switch level.puzzle.content {
                case let question as ClosedQuestion:
                    let answer = try #require(question.answers.first { $0.correct == true })
                    try player.focus(answer.label, under: level.title)
                    // The answer may be read on its second window, which its label does not start.
                    let shown = display.text
                    try player.press("ROUTE 1") { $0 != shown && !player.starts($0, with: answer.label) }
                case let question as OpenQuestion:
                    try player.focus(question.field + ":", under: level.title)
                    try player.type(question.accepted[0])
                    // The caret's window may not start with the field's name: wait for the key's effect.
                    let typed = display.text
                    try player.press("KEY_ENTER") { $0 != typed && !$0.hasPrefix(question.field) }
                default:
                    Issue.record("chapters 1 and 2 have closed and open questions only")
                }
                try player.readMessages(until: next)
            }
        }
        // The timed level: solved during its last ten seconds, from the display.
        let timed = try #require(adventure.chapters[5].levels[1].puzzle.content as? OpenQuestion)
        try player.press("BOT") { $0.hasPrefix("Begin btn 3/3") }
        try player.press("ROUTE 1") { player.starts($0, with: adventure.chapters[5].levels[1].title) }
        try display.waitFor(timeout: 20, "the last ten seconds") { RealBRLTTYTests.isCountdownNumber($0) }
        let countdown = display.history.count - 1
        try player.pressDuringCountdown("BOT") { $0.hasPrefix(timed.field) }
        for key in player.keys(for: timed.accepted[0]) {
            // The key removed the number and typed: the field showed, until the next number.
            try player.pressDuringCountdown(key) { $0.hasPrefix(timed.field) }
        }
        try player.pressDuringCountdown("KEY_ENTER") { $0.hasPrefix("The flame") || !$0.hasPrefix(timed.field) }
        // The history holds what BRLTTY was given (dots, with a contracted table): read it as text.
        try display.waitFor(timeout: 15, "the level solved") { _ in
            display.readHistory(from: countdown).contains {
                player.starts($0, with: adventure.chapters[5].levels[1].solved)
            }
        }
        #expect(!display.readHistory(from: countdown).contains { $0.hasPrefix("The torch gutters out") })
    }
}

/// A player at a 20-cell display: reads what it shows before every key.
struct SmallDisplayPlayer {
    let display: VirtualDisplay
    let translator: LouisTranslator?

    /// Whether `shown` starts `text` as far as a 20-cell window can show it.
    func starts(_ shown: String, with text: String) -> Bool {
        let words = text.split(separator: " ")
        guard let first = words.first else { return shown.isEmpty }
        // The first word (cut to the window) always starts it; two words when both fit.
        let lead = words.count > 1 && first.count + words[1].count + 1 <= 20 ? "\(first) \(words[1])" : String(first)
        return shown.hasPrefix(String(lead.prefix(20)))
    }

    /// Presses `key` (the display refuses it when something showed that was not read) and waits until
    /// the display shows what `expected` accepts.
    func press(_ key: String, until expected: @escaping (String) -> Bool) throws {
        try display.press(key, until: expected)
    }

    /// As ``press(_:until:)`` while the countdown runs: a number that came between reading and pressing
    /// is read, then the key goes (what the key is does not depend on it: messages are passive), and
    /// the effect may already be covered by the next number, so it is looked for in what was shown.
    func pressDuringCountdown(_ key: String, until expected: @escaping (String) -> Bool) throws {
        let before = display.history.count
        for _ in 0..<5 {
            _ = display.text
            do {
                try display.press(key)
                break
            } catch is UnreadDisplay {
                continue
            }
        }
        do {
            // What BRLTTY was given is dots with a contracted table: the test reads it as text.
            try waitUntil(timeout: 30, "the effect of \(key)") {
                display.readHistory(from: before).contains(where: expected)
            }
        } catch {
            throw TestFailure("\(error); recently: \(display.readHistory(from: before).suffix(6))")
        }
    }

    /// Moves from the top (the header `title`) until the focused element's text starts with `label`,
    /// read whole.
    func focus(_ label: String, under title: String) throws {
        // On 20 cells a long title's first window has no room for "hdr": the title is what shows.
        if !starts(display.text, with: label) { try press("TOP") { starts($0, with: title) } }
        for _ in 0..<10 {
            if try reads(label) { return }
            let shown = display.text
            try press("LNDN") { $0 != shown }
        }
        Issue.record("no element reads \"\(label)\"; the display shows \"\(display.text)\"")
    }

    /// Whether the focused element's text starts with `label`: its windows are read with FWINRT for as
    /// long as they agree with the label (on 20 cells, "The jar that smells" starts three answers, and
    /// only the second window tells them apart).
    func reads(_ label: String) throws -> Bool {
        var read = display.text
        while read.count < label.count, label.hasPrefix(read) {
            let shown = display.text
            try press("FWINRT") { $0 != shown }
            read += " " + display.text
        }
        return read.hasPrefix(label)
    }

    /// Reads every message to its end with FWINRT until `prefix` starts the display.
    func readMessages(until next: String) throws {
        for _ in 0..<40 where !starts(display.text, with: next) {
            let shown = display.text
            try press("FWINRT") { $0 != shown }
        }
        try display.waitFor("\(next)") { starts($0, with: next) }
    }

    /// The keys that type `text`: each character through BRLTTY's text table, or with a contracted
    /// table the dots of its contracted form, one cell a key.
    func keys(for text: String) -> [String] {
        if let translator {
            return translator.translate(Array(text), style: .contracted).cells.map {
                "PASSDOTS \(($0.unicodeScalars.first?.value ?? 0x2800) - 0x2800)"
            }
        }
        return text.map { "PASSCHAR 0x" + String($0.unicodeScalars.first?.value ?? 0x20, radix: 16) }
    }

    /// Types `text` one key at a time, reading the field after each.
    func type(_ text: String) throws {
        for key in keys(for: text) {
            let shown = display.text
            try press(key) { $0 != shown }
        }
    }
}
#endif
