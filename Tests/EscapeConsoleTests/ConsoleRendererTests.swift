// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// What the player reads, step by step, on real sessions.
struct ConsoleRendererTests {
    @Test func theOpeningNamesTheGameAndListsTheFirstScreen() {
        var driver = SteppedConsole(host: Support.session())
        let lines = driver.start()
        #expect(
            lines.map(\.text) == [
                "Escape From Blindness",
                "Type help for the commands, or q to quit.",
                "Darkness, 3 items:",
                "1. Darkness, heading",
                "2. You wake on cold stone. Your lantern lies beside you, its glass cracked and its flame long gone. "
                    + "Somewhere above, wind moves through a passage you cannot see. You will never see this place. "
                    + "You will hear it, touch it, and think your way out of it.",
                "3. Continue, button",
                "1 of 3: Darkness, heading",
            ]
        )
        // A new screen is said in full: the title, the story, every item and the focus.
        #expect(lines.filter(\.spoken).map(\.text) == lines.map(\.text))
        #expect(lines.allSatisfy { !$0.formatted(color: false).contains("\u{1B}") })
    }

    @Test func helpFitsAScreenReadersScreenAndHelpMoreHasTheRest() {
        var driver = SteppedConsole(host: Support.session())
        _ = driver.start()
        let help = driver.enter("help").map(\.text)
        let more = driver.enter("help more").map(\.text)
        #expect(help.count <= 20, "\(help.count) lines: \(help)")
        #expect(help.last?.hasPrefix("help more:") == true)
        // Every command is in one list or the other, and none in both.
        #expect(help.count - 2 + more.count - 1 == 33, "\(help)\n\(more)")
        #expect(Set(help.dropFirst()).isDisjoint(with: more.dropFirst()))
        #expect(driver.enter("help all").map(\.text) == more)
    }

    @Test func moving() {
        var (driver, _) = Support.console()
        #expect(driver.enter("n").map(\.text) == ["2 of 3: " + Support.adventure.intro[0].text])
        #expect(driver.enter("l").map(\.text) == ["3 of 3: Continue, button"])
        #expect(driver.enter("n").map(\.text) == ["That is the last item."])
        #expect(driver.enter("l").map(\.text) == ["3 of 3: Continue, button"])
        #expect(driver.enter("1").map(\.text) == ["1 of 3: Darkness, heading"])
        #expect(driver.enter("p").map(\.text) == ["That is the first item."])
        #expect(driver.enter("a").map(\.text) == ["Nothing happens."])
    }

    @Test func aWrongAnswerThenTheRightOne() throws {
        var (driver, opening) = Support.console(at: "cellar-door")
        #expect(opening.first == "Chapter 1: The Cellar of Echoes, 3 items:")
        #expect(opening.contains("The First Door, 6 items:"))
        let screen = try #require(driver.context.screen)
        let moon = try #require(screen.elements.firstIndex { $0.label == "The light of the moon" }) + 1
        let senses = try #require(screen.elements.firstIndex { $0.label == "My other senses" }) + 1
        #expect(opening.contains("\(moon). The light of the moon, button"))
        #expect(
            driver.enter("a \(moon)").map(\.text) == [
                "\(moon) of 6: The light of the moon, button",
                "Wrong.",
                "No moonlight reaches this deep. The door stays shut.",
            ]
        )
        // Issue 23, item 10: `again` keeps the verdict.
        #expect(
            driver.enter("again").map(\.text) == ["Wrong.", "No moonlight reaches this deep. The door stays shut."]
        )
        let solved = driver.enter("a \(senses)")
        #expect(
            Array(solved.map(\.text).prefix(5)) == [
                "\(senses) of 6: My other senses, button",
                "Correct.",
                "The door swings open with a long, dry creak. Cooler air flows in from the next room.",
                "Progress: 1 of 25 levels solved.",
                "The Singing Wall, 6 items:",
            ]
        )
        #expect(solved.map(\.style).prefix(2) == [.plain, .correct])
        #expect(solved.last?.text == "1 of 6: The Singing Wall, heading")
    }

    /// Issue 23, item 7: unlockings do not pile up; the next hint asked for says another one waits.
    @Test func hintUnlockingsAreSaidOnceUntilAHintIsAsked() {
        var (driver, _) = Support.console(at: "cellar-door")
        #expect(driver.enter("wait 30").map(\.text) == ["A new hint is ready. Ask for it whenever you like."])
        #expect(driver.enter("wait 30").map(\.text) == ["Time passes."])
        #expect(
            driver.enter("h").map(\.text) == [
                "Hint 1 of 2: The answer is not something you carry in your hands.", "Another hint is ready too.",
            ]
        )
        #expect(driver.enter("h").map(\.text).first?.hasPrefix("Hint 2 of 2: ") == true)
    }

    @Test func hintsArePrefixedOnce() {
        var (driver, _) = Support.console(at: "cellar-door")
        #expect(driver.enter("h").map(\.text) == ["Hint: No hint yet — wait a little."])
        let unlocked = driver.enter("wait 30")
        #expect(unlocked.map(\.text) == ["A new hint is ready. Ask for it whenever you like."])
        #expect(unlocked.map(\.style) == [.hint])
        #expect(
            driver.enter("magic").map(\.text) == ["Hint 1 of 2: The answer is not something you carry in your hands."]
        )
        #expect(
            driver.enter("again").map(\.text) == ["Hint 1 of 2: The answer is not something you carry in your hands."]
        )
        #expect(driver.enter("wait 1").map(\.text) == ["Time passes."])
    }

    /// Issue 23, item 10: refusals are said in the console's words, with no `Error:` prefix.
    @Test func refusalsAreErrors() {
        var (driver, _) = Support.console(at: "cellar-door")
        let refused = driver.enter("r")
        #expect(refused.map(\.text) == ["The focused element has no rotor."])
        #expect(refused.map(\.style) == [.error])
        #expect(driver.enter("g 4 1").map(\.text) == ["Level 4.1 is not unlocked yet."])
        #expect(
            driver.enter("g 9 1").map(\.text) == [
                "There is no chapter 9; the game has 7. Type goto, a chapter and a level, such as goto 2 1."
            ]
        )
        #expect(
            driver.enter("g 1 9").map(\.text) == [
                "Chapter 1 has no level 9. Type goto, a chapter and a level, such as goto 2 1."
            ]
        )
        #expect(
            driver.enter("+").map(\.text) == ["This item does not turn; + and - turn items said to be adjustable."]
        )
    }

    @Test func aTextFieldTakesTheTypedAnswer() {
        var (driver, _) = Support.console(at: "stones-memory")
        #expect(
            driver.enter("4").map(\.text) == [
                "4 of 4: Your answer, empty, text field. Type your answer and press Enter."
            ]
        )
        #expect(
            driver.enter("sand").map(\.text) == [
                "Wrong.",
                "The stone stays silent. Think back to the very first thing you learned about your lantern.",
            ]
        )
        let solved = driver.enter("The GLASS").map(\.text)
        #expect(
            solved.prefix(4) == [
                "Correct.", "The stone sighs, satisfied, and rolls aside.", "Progress: 5 of 25 levels solved.",
                "The Counting Stone, 4 items:",
            ]
        )
        #expect(
            driver.enter("type three").map(\.text).prefix(2) == [
                "4 of 4: Your answer, empty, text field. Type your answer and press Enter.", "Correct.",
            ]
        )
    }

    @Test func theRotorSaysEachStepOnce() {
        var (driver, _) = Support.console(at: "vault-iron")
        let screen = driver.context.screen
        let door = (screen?.elements.count ?? 0)
        #expect(
            driver.enter("\(door)").map(\.text) == [
                "\(door) of \(door): Iron door, locked, button",
                "Rotor Codes (1 of 2): 5 items, none chosen yet. Type down or up to step through them.",
            ]
        )
        #expect(driver.enter("down").map(\.text) == ["Codes 1 of 5: 123"])
        #expect(driver.enter("down").map(\.text) == ["Codes 2 of 5: 135"])
        #expect(
            driver.enter("r").map(\.text) == [
                "Rotor Clues (2 of 2): 3 items, none chosen yet. Type down or up to step through them."
            ]
        )
        #expect(
            driver.enter("up").map(\.text) == [
                "Clues 3 of 3: The third note says: each digit is two more than the one before it."
            ]
        )
        #expect(driver.enter("r back").map(\.text) == ["Rotor Codes (1 of 2): 135, 2 of 5."])
        // The door says which code it was tried with.
        #expect(driver.enter("up").map(\.text) == ["Codes 1 of 5: 123"])
        #expect(driver.enter("").map(\.text).first == "Trying 123: wrong.")
        #expect(driver.enter("down").map(\.text) == ["Codes 2 of 5: 135"])
        #expect(
            driver.enter("").map(\.text).prefix(2) == [
                "Trying 135: right.", "The iron door gives way with a groan that echoes through the vault.",
            ]
        )
    }

    @Test func actionsAreListedAndPerformed() {
        var (driver, opening) = Support.console(at: "workshop-forge")
        #expect(opening.contains("3. Bellows, not handled yet, button, with actions"))
        #expect(
            driver.enter("3").map(\.text) == [
                "3 of 5: Bellows, not handled yet, button",
                "Actions: 1 Pump, 2 Fold away. Type action and a number or a name.",
            ]
        )
        #expect(
            driver.enter("actions").map(\.text) == ["Actions: 1 Pump, 2 Fold away. Type action and a number or a name."]
        )
        #expect(driver.enter("action pump").map(\.text) == ["Air rushes into the forge."])
        #expect(driver.enter("1").map(\.text) == ["1 of 5: The Cold Forge, heading"])
        #expect(driver.enter("actions").map(\.text) == ["The focused item has no actions."])
    }

    @Test func stateShowsEverythingAndProgressInFull() {
        var (driver, opening) = Support.console(at: "cellar-water")
        #expect(opening.contains("Welcome back. You were at The Singing Wall."))
        #expect(opening.contains("Progress: 1 of 25 levels solved."))
        let lines = driver.enter("where").map(\.text)
        #expect(lines.first == "The Singing Wall, 6 items:")
        #expect(lines.suffix(2) == ["1 of 6: The Singing Wall, heading", "Chapter 1, level 2. 1 of 25 levels solved."])
        #expect(driver.enter("list").map(\.text) == Array(lines.dropLast()))
    }

    @Test func helpSaysWhatTheGesturesDoHere() {
        var (driver, _) = Support.console(at: "cellar-door")
        let help = driver.enter("help").map(\.text)
        #expect(help.first == "Commands (short form first):")
        #expect(help.contains("magic: the magic tap. Here: Hear a hint."))
        #expect(help.contains("esc, escape: the escape gesture. Here: Open the level menu."))
        #expect(help.contains("q, quit: stop playing. Progress is saved each time a door opens."))
        _ = driver.enter("m")
        let inTheMenu = driver.enter("?").map(\.text)
        #expect(inTheMenu.contains("magic: the magic tap. It does nothing here."))
        #expect(inTheMenu.contains("esc, escape: the escape gesture. Here: Close the menu."))
    }

    @Test func theMenuShowsStates() {
        var (driver, _) = Support.console(at: "cellar-water")
        let menu = driver.enter("m").map(\.text)
        #expect(menu.first == "Level menu, 34 items:")
        #expect(menu.contains("3. Level 1.1: The First Door, complete, button"))
        #expect(menu.contains("4. Level 1.2: The Singing Wall, current, button, selected"))
        // Issue 23, item 10: a locked level is said locked, not "locked, button, unavailable".
        #expect(menu.contains("5. Level 1.3: The Three Jars, locked"))
        #expect(menu.last == "4 of 34: Level 1.2: The Singing Wall, current, button, selected")
    }

    @Test func quitSaysGoodbye() {
        var (driver, _) = Support.console()
        #expect(driver.enter("q").map(\.text) == ["Goodbye."])
        #expect(driver.isFinished)
    }

    @Test func colourIsAddedOnlyWhenAsked() {
        let hint = ConsoleLine("Hint: listen.", style: .hint)
        #expect(hint.formatted(color: false) == "Hint: listen.")
        #expect(hint.formatted(color: true) == "\u{1B}[36mHint: listen.\u{1B}[0m")
        #expect(ConsoleLine("1. Begin, button", style: .item).formatted(color: true) == "1. Begin, button")
    }
}

/// Taking back moves and starting over, on real sessions.
struct ConsoleUndoTests {
    @Test func undoTakesBackEachMoveOfTheLevel() {
        var (driver, _) = Support.console(at: "locks-bell")
        #expect(driver.enter("undo").map(\.text) == ["There is nothing to undo on this level."])
        _ = driver.enter("4")
        #expect(driver.enter("+").map(\.text) == ["1"])
        #expect(driver.enter("+").map(\.text) == ["2"])
        // Issue 23, item 10: undo says what it took back.
        #expect(driver.enter("u").map(\.text) == ["Undone: +.", "4 of 6: Left wheel, 1, adjustable"])
        #expect(driver.enter("u").map(\.text) == ["Undone: +.", "4 of 6: Left wheel, 0, adjustable"])
        #expect(driver.enter("u").map(\.text) == ["There is nothing to undo on this level."])
        #expect(driver.context.screen?.elements[3].value == "0")
    }

    /// A gesture on a level costs no snapshot blob of the whole game: the game in the process keeps a
    /// value for `undo` to bring back, with no JSON and no base64 (issue 46, item 3).
    @Test func aGestureOnALevelAsksForNoSnapshot() {
        var (driver, _) = Support.console(at: "locks-bell")
        #expect(driver.commands(of: "4") == [.game(.focus(element: "left-wheel"))])
        #expect(!driver.commands(of: "+").contains(.snapshot))
        #expect(driver.enter("u").map(\.text) == ["Undone: +.", "4 of 6: Left wheel, 0, adjustable"])
    }

    @Test func startingOverWaitsForYes() {
        var (driver, _) = Support.console(at: "stones-memory")
        let question = "Starting over erases your progress. Type yes to start over, or anything else to keep playing."
        #expect(driver.enter("replay").map(\.text) == [question])
        #expect(driver.enter("n").map(\.text) == ["Your progress is kept."])
        #expect(driver.enter("replay").map(\.text) == [question])
        #expect(driver.enter("Yes").map(\.text).contains("A new game begins. Your earlier progress has been cleared."))
    }
}

/// What an attached console says as a shared game's control changes hands (`role` events).
struct ConsoleSharedControlTests {
    private func said(_ roles: [(ClientRole, Bool)], locale: String = "en") -> [[String]] {
        var renderer = ConsoleRenderer()
        let hello = ServerHello(
            protocolVersion: 1,
            version: .v1_1,
            versions: [.v1_0, .v1_1],
            engineVersion: "0.1.0",
            locale: locale,
            adventureID: "escape-from-blindness",
            adventureTitle: "Escape",
            capabilities: []
        )
        _ = renderer.render([StampedEvent(seq: 1, replyTo: nil, generation: 0, event: .hello(hello))])
        return roles.map { role, free in
            let event = StampedEvent(seq: 2, replyTo: nil, generation: 0, event: .role(role, controlFree: free))
            return renderer.render([event]).map(\.text)
        }
    }

    @Test func aFollowerIsToldWhenControlComesFreeAndWhenItTakesIt() {
        #expect(
            said([(.observer, false), (.observer, false), (.observer, true), (.controller, false)]) == [
                ["You are following this game; another player has control."],
                [],
                ["Control is free: your next move plays the game."],
                ["You have control of the game now."],
            ]
        )
    }

    @Test func theFirstPlayerHearsNothingOfControl() {
        #expect(said([(.controller, false)]) == [[]])
    }

    @Test func inFrench() {
        #expect(
            said([(.observer, false), (.observer, true), (.controller, false)], locale: "fr") == [
                ["Tu suis cette partie\u{202F}; un autre joueur la mène."],
                ["La main est libre\u{00A0}: ton prochain geste joue la partie."],
                ["Tu mènes la partie maintenant."],
            ]
        )
    }
}

/// Issue 23, item 10: an object's actions are said once, whether it is activated by its number (`a 4`:
/// focused and activated in one line) or after focusing it.
@Suite struct ConsoleActionsOnceTests {
    private static let listed = "Actions: 1 Pump, 2 Fold away. Type action and a number or a name."

    @Test func activatingAnObjectByItsNumberListsItsActionsOnce() {
        var console = Support.console(at: "workshop-forge").driver
        let lines = console.enter("a 3").map(\.text)
        #expect(lines == ["3 of 5: Bellows, not handled yet, button", Self.listed])
    }

    @Test func activatingTheFocusedObjectListsItsActionsAgainOnlyAsAsked() {
        var console = Support.console(at: "workshop-forge").driver
        #expect(console.enter("3").map(\.text) == ["3 of 5: Bellows, not handled yet, button", Self.listed])
        // Enter on an empty line activates: the player asked for the list, and hears it once, numbered.
        #expect(console.enter("").map(\.text) == [Self.listed])
        #expect(console.enter("a").map(\.text) == [Self.listed])
    }
}

/// Whatever a text carries, the terminal gets no command from it: a game served by another build or
/// a crafted event could bring ESC, OSC 52 (the clipboard), BEL, C1 controls or bidi overrides.
struct TerminalSafetyTests {
    @Test func aConsoleLineDropsEveryControlCharacter() {
        let line = ConsoleLine("A\u{1B}]52;c;ZXZpbA==\u{07}B\u{9B}2J C\u{202E}D\u{2066}E\tF\nG\u{7F}")
        #expect(line.text == "A]52;c;ZXZpbA==B2J CDE F G")
        #expect(!line.formatted(color: false).unicodeScalars.contains { TerminalSafety.isRefused($0) })
        let colored = ConsoleLine("x\u{1B}[31m", style: .error).formatted(color: true)
        #expect(colored == "\u{1B}[31mx[31m\u{1B}[0m")  // only the console's own colour codes
    }

    @Test func plainTextIsLeftAsItIs() {
        for text in ["", "Chapitre 1\u{00A0}: La cave", "«\u{00A0}Bonjour\u{202F}!\u{00A0}»", "émoji 🕯️ — “quotes”"] {
            #expect(TerminalSafety.sanitized(text) == text)
            #expect(ConsoleLine(text).text == text)
        }
    }

    @Test func theByteScanAgreesWithTheScalarRule() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = [
            "a", " ", "\u{1B}", "\u{07}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{2029}", "\u{202A}", "\u{202E}",
            "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "é", "🕯",
        ]
        for _ in 0..<2000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                scalars.append(alphabet.randomElement(using: &generator)!)
            }
            let text = String(scalars)
            let refused = text.unicodeScalars.contains { TerminalSafety.isRefused($0) }
            #expect(
                (TerminalSafety.sanitized(text) != text) == refused || text.unicodeScalars.isEmpty,
                "\(text.debugDescription)"
            )
            #expect(!TerminalSafety.sanitized(text).unicodeScalars.contains { TerminalSafety.isRefused($0) })
        }
    }
}
