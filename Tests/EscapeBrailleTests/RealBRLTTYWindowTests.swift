// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealBRLTTYSteps {
    /// `efb braille` on `adventure`, messages shown for 5 s each as players have them by default.
    func flashingGame(
        _ display: VirtualDisplay,
        adventure: String? = nil,
        arguments: [String] = []
    ) throws -> RunningEFB {
        var all = [
            "braille", "--host", display.brlapiHost, "--auth", "none", "--seed", "1", "--memory-save", "--flash-time",
            "5",
        ]
        if let adventure { all += ["--adventure", adventure] }
        return try RunningEFB(all + arguments)
    }

    /// A new folder of the test's own for its adventure and saves.
    func scratchFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-braille-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// From the one intro page of a trimmed adventure to its one level, whatever the display's width:
    /// each element's label starts its first window.
    func enterTrimmedLevel(_ display: VirtualDisplay, levelTitle: String) throws {
        // Shown once is enough: on a loaded machine BRLTTY may drop the new connection and the game, back
        // on the display, covers the title with "Welcome back." (the next key removes it and does its job).
        // Read as the display's reader reads it: with a contracted table the history holds dots.
        try waitUntil(timeout: 15, "the display to show Darkness") {
            display.readHistory(from: 0).contains { $0.hasPrefix("Darkness") }
        }
        try display.press("BOT") { $0.hasPrefix("Continue") }
        try display.press("ROUTE 1") { $0.hasPrefix("Chapter 1:") }
        try display.press("BOT") { $0.hasPrefix("Begin") }
        try display.press("ROUTE 1") { $0.hasPrefix(String(levelTitle.prefix(display.width))) }
    }

    /// Whether a display line is one number of the last ten seconds' countdown.
    static func isCountdownNumber(_ line: String) -> Bool {
        let shown = line.trimmingCharacters(in: .whitespaces)
        return !shown.isEmpty && shown.allSatisfy(\.isNumber)
    }

    /// Presses `key` and waits until the display has shown, since the press, what `expected` accepts
    /// (a message may have covered it again since).
    func pressAndSee(_ display: VirtualDisplay, _ key: String, _ expected: @escaping (String) -> Bool) throws {
        let before = display.history.count
        try display.press(key)
        do {
            try waitUntil(timeout: 30, "the display to show the effect of \(key)") {
                display.history.dropFirst(before).contains(where: expected)
            }
        } catch {
            throw TestFailure("\(error); recently: \(display.history.suffix(6))")
        }
    }

}

/// Against a real BRLTTY: messages never take a key, the caret always in view, reading
/// backwards, small displays, the table's own numbers, reconnecting to the same window, and a display
/// attached to a shared game.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYWindowTests: RealBRLTTYSteps {
    // Defect 1: every second of the last ten is a message; a key pressed on it used to only dismiss it,
    // so the answer could not be typed nor submitted before the torch went out. Now a key removes the
    // message and does its own job: the level is solved during its countdown from the display.
    //
    // Most of the answer is typed before the countdown, so that a loaded machine (a key every 120 ms,
    // each shown through BRLTTY) still has time for the rest within the last ten seconds: the last
    // letter and Enter, each pressed on a number of the countdown. The old code swallowed both.
    @Test func aLevelIsSolvedDuringItsCountdownFromTheDisplay() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let adventure = try Self.trimmedAdventure(chapter: 1, level: 0, in: folder) { $0["timeLimit"] = 30 }
        let display = try VirtualDisplay()
        try display.start()
        let game = try flashingGame(display, adventure: adventure)
        defer {
            game.stop()
            display.stop()
        }
        try enterTrimmedLevel(display, levelTitle: "The Stone of Memory")
        try pressAndSee(display, "BOT") { $0.hasPrefix("Your answer:") }
        var typed = ""
        for character in "glas" {
            typed.append(character)
            let expected = "Your answer: " + typed
            try pressAndSee(display, "PASSCHAR 0x" + String(character.asciiValue ?? 0, radix: 16)) {
                $0.hasPrefix(expected)
            }
        }
        try display.waitFor(timeout: 40, "the countdown") { Self.isCountdownNumber($0) }
        let countdownStarted = display.history.count - 1
        try pressAndSee(display, "PASSCHAR 0x73") { $0.hasPrefix("Your answer: glass") }
        try pressAndSee(display, "KEY_ENTER") { $0.hasPrefix("The stone sighs") }
        let during = Array(display.history[countdownStarted...])
        #expect(!during.contains { $0.hasPrefix("The torch gutters out") }, "solved before the torch went out")
        // Both keys went while the countdown ran: a number showed before the first, and the verdict came
        // before the torch went out.
        #expect(Self.isCountdownNumber(during[0]), "\(during)")
    }

    // Defect 1: a message never consumes a routing key: on a closed question the answer under it plays.
    @Test func aRoutingKeyOnAMessageAlsoActivates() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let adventure = try Self.trimmedAdventure(chapter: 0, level: 0, in: folder)
        let display = try VirtualDisplay()
        try display.start()
        let game = try flashingGame(display, adventure: adventure, arguments: ["--flash-time", "0"])
        defer {
            game.stop()
            display.stop()
        }
        try enterTrimmedLevel(display, levelTitle: "The First Door")
        try focus(display, startingWith: "My other senses")
        // A message over the right answer (no hint yet): the routing key removes it and activates the answer.
        try display.press("CSRTRK") { !$0.hasPrefix("My other senses") }
        try pressAndSee(display, "ROUTE 1") { $0.hasPrefix("The door swings open") }
        try display.waitFor(timeout: 10, "the door to open") { _ in
            display.history.contains { $0.hasPrefix("The door swings open") }
        }
    }

    // Defect 2: on 20 cells the answer field's window always holds the caret with the answer around it.
    // Run by ``RealBRLTTYLongTests``, beside the others.
    func theAnswerFieldsWindowFollowsTheCaretOnTwentyCells() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let adventure = try Self.trimmedAdventure(chapter: 1, level: 0, in: folder)
        let display = try VirtualDisplay()
        try display.start(columns: 20)
        let game = try flashingGame(display, adventure: adventure)
        defer {
            game.stop()
            display.stop()
        }
        try enterTrimmedLevel(display, levelTitle: "The Stone of Memory")
        try display.press("BOT") { $0.hasPrefix("Your answer:") }
        try type("gla", on: display)
        try display.waitFor(prefix: "Your answer: gla")
        try type("ss, the clear", on: display)
        try display.waitFor(timeout: 10, "the caret's window") {
            $0.hasSuffix("the clear") || $0.contains("the clear ")
        }
        try display.press("KEY_BACKSPACE") { $0.contains("the clea") && !$0.contains("the clear") }
    }

    // Defect 3: FWINLT at an element's first window shows the previous element's last window, so
    // reading backwards is reading forwards reversed.
    @Test func panningBackIsPanningForwardReversed() throws {
        let display = try VirtualDisplay()
        try display.start()
        let game = try flashingGame(display)
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        try display.press("LNDN") { $0.hasPrefix("You wake on cold stone.") }
        var forward = [display.text]
        while !display.text.hasPrefix("Continue") {
            let shown = display.text
            try display.press("FWINRT") { $0 != shown }
            forward.append(display.text)
            #expect(forward.count < 20)
            if forward.count >= 20 { return }
        }
        var backward = [display.text]
        for _ in 1..<forward.count {
            let shown = display.text
            try display.press("FWINLT") { $0 != shown }
            backward.append(display.text)
        }
        #expect(backward == forward.reversed(), "backwards: \(backward); forwards: \(forward)")
    }

    // Defect 4: on 20 cells each element's label starts its first window, the door's too when a rotor
    // is on it; role and position are short and come after.
    @Test func onTwentyCellsTheLabelStartsTheFirstWindow() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let adventure = try Self.trimmedAdventure(chapter: 2, level: 0, in: folder)
        let display = try VirtualDisplay()
        try display.start(columns: 20)
        let game = try flashingGame(display, adventure: adventure)
        defer {
            game.stop()
            display.stop()
        }
        try enterTrimmedLevel(display, levelTitle: "The Iron Door")
        let label = "Iron door, locked"
        try display.press("BOT") { $0.hasPrefix(label) }
        // Turning the rotor shows the window with the change; the first window still starts with the label.
        try pressAndSee(display, "NXPGRPH") { $0.contains("Clues") }
        try pressAndSee(display, "FWINLT") { $0.hasPrefix(label) }
    }

    // Defect 8: after BRLTTY restarts the display comes back to the window the player was reading.
    @Test func aReconnectComesBackToTheSameWindow() throws {
        let display = try VirtualDisplay()
        try display.start()
        let game = try flashingGame(display)
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        try display.press("LNDN") { $0.hasPrefix("You wake on cold stone.") }
        try display.press("FWINRT") { $0.hasPrefix("lies beside you") }
        let window = display.text
        display.stop()
        try waitUntil(timeout: 20, "efb to notice BRLTTY went away") {
            game.standardError.contains("Lost the Braille display")
        }
        let restarted = try VirtualDisplay(brlapiNumber: Int(display.brlapiHost.split(separator: ":")[1]))
        try restarted.start()
        defer { restarted.stop() }
        try restarted.waitFor(timeout: 30, "the game to say it is back") { $0.hasPrefix("Welcome back.") }
        try restarted.waitFor(timeout: 15, "the window the player was reading") { $0 == window }
    }

    // Defect 9: BRLTTY's key help and preferences menu used to show only their title, then the game
    // covered them (and took their keys). On the game's own terminal they are BRLTTY's screens while
    // they are open: they show past their title, their keys are theirs, the game neither covers them
    // nor moves, and when they close the display shows the game again, once, as it was. Learn mode's
    // descriptions stay until the next key, and leaving it shows the game once.
    @Test func brlttysKeyHelpAndMenuShowOverTheGameOnItsTerminal() throws {
        let display = try VirtualDisplay()
        try display.start()
        // The game on virtual terminal 40 (BrlAPI's CONTROLVT), as on a console. This BRLTTY has no
        // screen driver: its key help and menu are terminals of their own (1 + page, 3 + menu).
        var environment = ProcessInfo.processInfo.environment
        for graphical in ["WINDOWPATH", "DISPLAY", "WAYLAND_DISPLAY"] { environment[graphical] = nil }
        environment["CONTROLVT"] = "40"
        let game = try RunningEFB(
            ["braille", "--host", display.brlapiHost, "--auth", "none", "--seed", "1", "--memory-save"],
            environment: environment
        )
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness hdr 1/3", timeout: 15)
        try display.press("LNDN") { $0.hasPrefix("You wake on cold stone.") }
        let before = display.text
        let opened = display.history.count

        // The key help's title, then (FWINRT ends the title) its text, read with its own keys.
        try display.press("HELP") { $0 == "Help Screen" }
        try display.press("FWINRT") { $0.hasPrefix("Help: Virtual") }
        try display.press("LNDN") { $0.isEmpty }
        try display.press("LNDN") { $0 == "No help available for this driver." }
        try display.press("HELP") { $0 == before }
        // The preferences menu the same way: its first item after the title, LNDN moves in the menu.
        try display.press("PREFMENU") { $0 == "Preferences Menu" }
        try display.press("FWINRT") { $0.hasPrefix("Save on Exit") }
        try display.press("LNDN") { $0.hasPrefix("Menu Options") }
        try display.press("PREFMENU") { $0 == before }
        // Learn mode describes the keys; leaving it shows the game.
        try display.press("LEARN") { $0 == "Learn Mode" }
        try display.press("LNDN") { $0 == "LNDN: go down one line" }
        try display.press("LEARN") { $0 == before }

        // Nothing of the game showed while BRLTTY's screens were open, and the game came back once after
        // each: BRLTTY's keys did not move it.
        let shown = display.readHistory(from: opened)
        let games = shown.filter { !$0.hasPrefix("Help") && !$0.hasPrefix("No help") && !$0.isEmpty }.filter {
            !$0.hasPrefix("Preferences Menu") && !$0.hasPrefix("Save on Exit") && !$0.hasPrefix("Menu Options")
        }.filter { !$0.hasPrefix("Learn Mode") && !$0.hasPrefix("LNDN:") }
        #expect(games == [before, before, before], "the display showed: \(shown)")
        // The game's keys are the game's again.
        try display.press("LNDN") { $0.hasPrefix("Continue btn 3/3") }
        #expect(!game.standardError.contains("Lost the Braille display"))
    }
}

extension RealBRLTTYWindowTests {
    // Defect 5: chapter 2's page says what the keys do in a text field: a routing key moves the caret,
    // Enter or the routing key at the caret submits.
    @Test func chapterTwosKeysSayWhatARoutingKeyDoesInAField() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let adventure = try Self.trimmedAdventure(chapter: 1, level: 0, in: folder)
        let display = try VirtualDisplay()
        try display.start()
        let game = try flashingGame(display, adventure: adventure)
        defer {
            game.stop()
            display.stop()
        }
        try display.waitFor(prefix: "Darkness", timeout: 15)
        try display.press("BOT") { $0.hasPrefix("Continue") }
        try display.press("ROUTE 1") { $0.hasPrefix("Chapter 1:") }
        try display.press("LNDN") { $0.hasPrefix("The stones") }
        let start = display.history.count - 1
        try step(display, key: "FWINRT", limit: 60) { $0.hasPrefix("Begin") }
        let page = display.history[start...].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(page.contains("the routing key at the caret"), "\(page)")
    }

    #if Louis
    // Defect 10: with a contracted table, positions are in the table's own number forms (UEB's number
    // sign), not computer braille.
    @Test func positionsUseTheTablesNumberForms() throws {
        let translator = try LouisTranslator(table: "en-ueb-g2")
        let display = try VirtualDisplay()
        try display.start()
        let game = try flashingGame(display, arguments: ["--braille-table", "en-ueb-g2"])
        defer {
            game.stop()
            display.stop()
        }
        let title = String(translator.translate(Array("Darkness"), style: .contracted).cells)
        let position = String(translator.translate(Array("1/3"), style: .contracted).cells)
        try display.waitFor(timeout: 15, "the title with its position in UEB") { _ in
            display.shown.hasPrefix(title + " hdr " + position)
        }
        #expect(position.first == "\u{283C}", "UEB's number sign leads: \(position)")
    }
    #endif
}
