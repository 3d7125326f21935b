// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeContent
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import Foundation
import Testing

/// A view fed by a real session, as the front end feeds it, with time under the test's control.
struct ViewHarness {
    let session: SessionHost
    var view: BrailleView
    var now: Int64 = 0
    private var requests = 0

    /// A new game, or one saved at the first level of chapter `chapter` with the chapters before it solved.
    init(
        columns: Int = 40,
        rows: Int = 1,
        flashMilliseconds: Int64 = 5000,
        chapter: Int? = nil,
        hintInterval: Int64 = 30_000,
        locale: String = "en",
        translator: any BrailleTranslator = PlainBrailleTranslator()
    ) throws {
        let adventure = try AdventureLoader.bundled(locale: locale)
        var save: SaveData?
        if let chapter {
            let solved = adventure.chapters.prefix(chapter - 1).flatMap { $0.levels.map(\.id) }
            save = SaveData(
                adventureID: adventure.id,
                completed: solved,
                current: adventure.chapters[chapter - 1].levels[0].id
            )
        }
        session = SessionHost(
            adventure: adventure,
            options: EngineOptions(hintInterval: hintInterval, seed: 1),
            store: InMemorySaveStore(save),
            clock: VirtualClock()
        )
        view = BrailleView(
            size: DisplaySize(columns: columns, rows: rows),
            options: .init(flashMilliseconds: flashMilliseconds),
            translator: translator
        )
        view.apply(session.start(), now: now)
        // As the front end says hello: protocol 1.1, for `time` announcements and `elementChanged`.
        send(.hello(BrailleFrontEnd.hello))
        // A saved game opens with "Welcome back": the player's first key dismisses it.
        dismissMessages()
    }

    /// Reads the messages on the display to their end with FWINRT, which past a message's end removes
    /// it and does nothing else (a routing key would also activate what is under it).
    mutating func dismissMessages() {
        while !view.flashes.isEmpty { press(.command(.fullWindowRight)) }
    }

    var text: String { view.frame.text.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }

    /// Presses a key: what the view asks of the engine is sent, and the events come back.
    @discardableResult
    mutating func press(_ key: BrailleKey) -> [GameCommand] {
        let commands = view.handle(key, now: now)
        for command in commands { send(.game(command)) }
        return commands
    }

    mutating func send(_ command: Command) {
        requests += 1
        view.apply(session.handle(Request(id: .int(requests), command: command)), now: now)
    }

    mutating func advance(_ milliseconds: Int64) {
        now += milliseconds
        view.tick(now: now)
    }
}

@Suite struct BrailleViewTests {
    @Test func showsTheFocusedElementWithRoleAndPosition() throws {
        var game = try ViewHarness()
        #expect(game.text == "Darkness hdr 1/3")
        game.press(.command(.bottom))
        #expect(game.text == "Continue btn 3/3")
        #expect(game.view.frame.cells.count == 40)
        #expect(game.view.frame.cursor == nil)
    }

    @Test func pansALongTextAtWordBoundariesThenMovesOn() throws {
        var game = try ViewHarness(columns: 20)
        game.press(.command(.lineDown))
        #expect(game.text == "You wake on cold")
        game.press(.command(.fullWindowRight))
        #expect(game.text == "stone. Your lantern")
        game.press(.command(.fullWindowLeft))
        #expect(game.text == "You wake on cold")
        for _ in 0..<30 where !game.text.hasPrefix("Continue") { game.press(.command(.fullWindowRight)) }
        #expect(game.text == "Continue btn 3/3")
    }

    @Test func pansIntoTheHintAfterTheLabel() {
        var view = BrailleView(size: DisplaySize(columns: 20))
        let element = Element(id: "lever", label: "Lever", hint: "Pull it towards you.", traits: [.button])
        let focus = FocusState(screen: "level-x", element: element, index: 1, count: 2)
        view.apply([StampedEvent(seq: 1, replyTo: nil, generation: 1, event: .game(.focus(focus)))], now: 0)
        #expect(view.frame.text.hasPrefix("Lever btn 1/2"))
        #expect(view.handle(.command(.fullWindowRight), now: 0).isEmpty)
        #expect(view.frame.text.hasPrefix("Pull it towards you."))
        #expect(view.handle(.command(.fullWindowRight), now: 0) == [.next])
    }

    // Issue 22, defect 7, as CI met it: FWINLT at the start of an element while following another player
    // moved nothing, yet made the element the other player moved to next open at its last window.
    @Test func aFollowersPanPastTheStartLeavesTheNextElementOpeningAtItsStart() {
        var view = BrailleView(size: DisplaySize(columns: 20))
        func focus(_ element: Element, _ index: Int, seq: Int) {
            let state = FocusState(screen: "intro", element: element, index: index, count: 2)
            view.apply([StampedEvent(seq: seq, replyTo: nil, generation: 1, event: .game(.focus(state)))], now: 0)
        }
        view.apply(
            [StampedEvent(seq: 1, replyTo: nil, generation: 1, event: .role(.observer, controlFree: false))],
            now: 0
        )
        focus(Element(id: "title", label: "Darkness", traits: [.header]), 1, seq: 2)
        #expect(view.handle(.command(.fullWindowLeft), now: 0).isEmpty)
        let story = Element(id: "story", label: "You wake on cold stone. Your lantern is gone.", traits: [.staticText])
        focus(story, 2, seq: 3)
        #expect(view.frame.text.hasPrefix("You wake on cold"), "\(view.frame.text)")
    }

    @Test func usesEveryRowOfAMultiRowDisplay() throws {
        var game = try ViewHarness(columns: 20, rows: 2)
        game.press(.command(.lineDown))
        let frame = game.view.frame.text
        #expect(frame.count == 40)
        #expect(frame.hasPrefix("You wake on cold    stone. Your lantern"))
    }

    @Test func flashesAnnouncementsForTheirTimeThenShowsTheFocusAgain() throws {
        var game = try ViewHarness()
        game.send(.game(.hint))
        #expect(game.text == "This level has no hints.")
        #expect(game.view.nextDeadline == 5000)
        game.advance(4999)
        #expect(game.text == "This level has no hints.")
        game.advance(1)
        #expect(game.text == "Darkness hdr 1/3")
        #expect(game.view.nextDeadline == nil)
    }

    @Test func panningAMessageRestartsItsTimer() throws {
        var game = try ViewHarness(columns: 12)
        game.send(.game(.hint))
        // Three windows of 12 cells ("This level", "has no", "hints."): its time for each of them.
        #expect(game.view.nextDeadline == 15_000)
        game.advance(4000)
        game.press(.command(.fullWindowRight))
        #expect(game.text == "has no")
        // From the pan, its time for this window and the one left.
        #expect(game.view.nextDeadline == 14_000)
        game.advance(9999)
        #expect(game.text == "has no")
        game.advance(1)
        #expect(game.text == "Darkness hdr")
    }

    @Test func queuedMessagesAreShownInOrderAndAKeyDismissesOne() throws {
        var game = try ViewHarness(flashMilliseconds: 0)
        game.send(.game(.hint))
        game.send(.game(.repeatAnnouncement))
        #expect(game.view.flashes.count == 2)
        game.advance(60_000)
        #expect(game.text == "This level has no hints.")
        // Messages are passive: panning past one's end removes it, and does nothing else.
        #expect(game.press(.command(.fullWindowRight)).isEmpty)
        #expect(game.text == "This level has no hints.")
        #expect(game.press(.command(.fullWindowRight)).isEmpty)
        #expect(game.text == "Darkness hdr 1/3")
    }

    @Test func typesAnAnswerWithTheCaretAndSubmitsIt() throws {
        var game = try ViewHarness(chapter: 2)
        game.press(.command(.bottom))
        #expect(game.text == "Your answer:  edt 4/4")
        #expect(game.view.frame.cursor == 13)
        for character in "glsas" { game.press(.character(character)) }
        game.press(.backspace)
        #expect(game.text == "Your answer: glsa edt 4/4")
        // Routing inside the text moves the caret; a second press there submits.
        #expect(game.press(.route(cell: 15)).isEmpty)
        #expect(game.view.frame.cursor == 15)
        game.press(.delete)
        #expect(game.text == "Your answer: gla edt 4/4")
        game.press(.arrow(.left))
        game.press(.arrow(.right))
        game.press(.arrow(.right))
        game.press(.character("s"))
        game.press(.character("s"))
        #expect(game.text == "Your answer: glass edt 4/4")
        let commands = game.press(.enter)
        #expect(commands == [.input(text: "glass", element: nil), .activate(element: nil)])
        #expect(game.text.hasPrefix("The stone sighs, satisfied"))
    }

    @Test func showsTheRotorWithTheDoorAndStepsThroughIt() throws {
        var game = try ViewHarness(columns: 80, chapter: 3)
        game.press(.command(.bottom))
        #expect(game.text.hasPrefix("Iron door, locked"))
        game.press(.command(.nextParagraph))
        game.press(.command(.nextDifferentLine))
        // The rotor's own words are on the display already: no flash to dismiss on every turn.
        #expect(game.view.flashes.isEmpty)
        // The door first, then its rotor and the rotor's item.
        #expect(game.text.hasPrefix("Iron door, locked btn "))
        #expect(game.text.contains(" Codes") || game.text.contains(" Clues: "))
    }

    @Test func selectsACustomActionAndPerformsIt() throws {
        var game = try ViewHarness(columns: 80, flashMilliseconds: 0, chapter: 4)
        for _ in 0..<5 where !game.text.hasPrefix("Bellows") { game.press(.command(.lineDown)) }
        #expect(game.text.hasPrefix("Bellows: not handled yet btn 3/5 2 act"))
        game.press(.command(.nextPrompt))
        #expect(game.text.hasPrefix("Bellows: not handled yet; Pump act 1/2 btn 3/5"))
        game.press(.command(.previousPrompt))
        #expect(game.text.hasPrefix("Bellows: not handled yet; Fold away act 2/2 btn 3/5"))
        game.press(.command(.nextPrompt))
        #expect(game.press(.route(cell: 3)) == [.action(.index(1))])
        #expect(game.text == "Air rushes into the forge.")
    }

    @Test func aChosenActionIsNeverSplitAcrossWindows() throws {
        // "Bucket of coal: not handled yet; Kick over act 1/3" is longer than 40 cells: the action's
        // window starts with it instead of cutting "Kick" from "over".
        var game = try ViewHarness(columns: 40, flashMilliseconds: 0, chapter: 4)
        for _ in 0..<5 where !game.text.hasPrefix("Bucket of coal") { game.press(.command(.lineDown)) }
        #expect(game.text.hasPrefix("Bucket of coal: not handled yet"))
        for _ in 0..<3 where !game.text.contains("Kick over") { game.press(.command(.nextPrompt)) }
        #expect(game.text.hasPrefix("Kick over act "))
        game.press(.command(.fullWindowLeft))
        #expect(game.text == "Bucket of coal: not handled yet;")
    }

    @Test func saysWhenThereIsNoActionToChoose() throws {
        var game = try ViewHarness()
        #expect(game.press(.command(.nextPrompt)).isEmpty)
        #expect(game.text == "No custom actions here.")
    }

    @Test func routingOutsideATextFieldActivates() throws {
        var game = try ViewHarness()
        game.press(.command(.bottom))
        #expect(game.press(.route(cell: 5)) == [.activate(element: nil)])
        #expect(game.text == "How to play hdr 1/3")
    }
}

/// What the display shows is what is true now, and keys act on what the player read.
@Suite struct BrailleViewFreshnessTests {
    // MARK: 1. Messages do not go stale

    @Test func aNewTimeLeftReplacesTheOneOnTheDisplay() throws {
        var game = try ViewHarness(chapter: 6, hintInterval: 600_000)
        game.send(.wait(milliseconds: 60_000))
        #expect(game.text == "2 minutes of torchlight left.")
        game.send(.wait(milliseconds: 60_000))
        #expect(game.view.flashes == ["One minute of torchlight left."])
    }

    @Test func anAssertiveAnnouncementReplacesTheMessages() throws {
        var game = try ViewHarness(chapter: 2)
        game.press(.command(.bottom))
        game.send(.game(.hint))
        game.send(.game(.repeatAnnouncement))
        #expect(game.view.flashes.count == 2)
        // A wrong answer's verdict is assertive.
        game.send(.game(.input(text: "stone", element: nil)))
        game.send(.game(.activate(element: nil)))
        #expect(game.view.flashes.count == 1)
        #expect(game.view.flashes.first?.contains("hint") == false)
    }

    // Issue 44, item 2: before, the message waiting cut the one on the display 5 s after it came, at
    // 20 cells a time left shown only in its first window. Now a message waits only while the one shown
    // could still be read: its time for each window the player has not read.
    @Test func aWaitingMessageWaitsOnlyWhileTheOneShownIsRead() throws {
        var game = try ViewHarness(columns: 12)
        game.send(.game(.hint))
        game.advance(3000)
        game.send(.game(.repeatAnnouncement))
        #expect(game.view.nextDeadline == 15_000)
        game.advance(1000)
        game.press(.command(.fullWindowRight))
        #expect(game.view.nextDeadline == 14_000)
        game.advance(9999)
        #expect(game.text == "has no")
        game.advance(1)
        #expect(game.text == "This level")
        // What comes while one waits joins it: at most one message waits.
        game.send(.game(.repeatAnnouncement))
        game.send(.game(.repeatAnnouncement))
        #expect(game.view.flashes.count == 2)
    }

    // Issue 44, item 2: a time left that waited behind another message is not shown late ("15 seconds
    // left." at 11.9 s); the next one the game says is true.
    @Test func aTimeLeftThatWaitedTooLongIsNotShown() throws {
        var game = try ViewHarness(chapter: 6, hintInterval: 600_000)
        game.send(.game(.hint))
        let first = game.view.flashes
        #expect(first.count == 1)
        game.send(.wait(milliseconds: 60_000))
        #expect(game.view.flashes == first + ["2 minutes of torchlight left."])
        game.advance(5000)
        #expect(game.view.flashes.isEmpty, "\(game.view.flashes)")
    }

    @Test func aTimeLeftThatWaitedLessThanASecondIsShown() throws {
        var game = try ViewHarness(chapter: 6, hintInterval: 600_000)
        game.send(.game(.hint))
        game.advance(4500)
        game.send(.wait(milliseconds: 60_000))
        game.advance(500)
        #expect(game.view.flashes == ["2 minutes of torchlight left."])
    }

    // MARK: 2. Messages are passive (issue 22): a key removes the message and does its own job

    @Test func aKeyOnAMessageRemovesItAndDoesItsJob() throws {
        var game = try ViewHarness(flashMilliseconds: 0)
        game.send(.game(.hint))
        #expect(game.text == "This level has no hints.")
        #expect(game.press(.command(.lineDown)) == [.next])
        game.dismissMessages()
        #expect(game.text.hasPrefix("You wake on cold stone."))
    }

    @Test func typingOnAMessageTypesInTheField() throws {
        var game = try ViewHarness(chapter: 2)
        game.press(.command(.bottom))
        game.send(.game(.hint))
        #expect(!game.view.flashes.isEmpty)
        game.press(.character("g"))
        #expect(game.view.flashes.isEmpty)
        #expect(game.text == "Your answer: g edt 4/4")
    }

    // MARK: 3. A typed answer is kept while the player is on the level

    @Test func keepsTheTypedAnswerWhenMovingAwayAndBack() throws {
        var game = try ViewHarness(chapter: 2)
        game.press(.command(.bottom))
        for character in "gla" { game.press(.character(character)) }
        game.press(.command(.lineUp))
        game.press(.command(.lineDown))
        #expect(game.text == "Your answer: gla edt 4/4")
        #expect(game.view.frame.cursor == 16)
    }

    @Test func keepsTheTypedAnswerThroughTheMenuAndTheAssistiveScreen() throws {
        var game = try ViewHarness(chapter: 2)
        game.press(.command(.bottom))
        for character in "gla" { game.press(.character(character)) }
        game.press(.command(.info))
        game.press(.command(.back))
        game.send(.game(.assistive(active: false)))
        game.send(.game(.assistive(active: true)))
        for _ in 0..<3 where !game.view.flashes.isEmpty { game.press(.route(cell: 1)) }
        game.press(.command(.bottom))
        #expect(game.text == "Your answer: gla edt 4/4")
    }

    // MARK: 4. A change shows

    @Test func aChangeShowsTheWindowOfItsFirstChangedLetter() throws {
        var game = try ViewHarness(columns: 20, chapter: 3)
        game.press(.command(.bottom))
        game.press(.command(.nextParagraph))
        game.press(.command(.nextDifferentLine))
        // The rotor's item changed: its window, not the door's label, shows.
        let first = game.text
        #expect(first.contains("Clues: "))
        game.press(.command(.fullWindowRight))
        #expect(game.text != first)
        game.press(.command(.nextDifferentLine))
        #expect(game.text != first)
        #expect(!game.text.hasPrefix("Iron door"))
    }

    // MARK: 5. Only the caret's cell or Enter submits

    @Test func routingOnTheLabelOrPastTheTextDoesNotSubmit() throws {
        var game = try ViewHarness(chapter: 2)
        game.press(.command(.bottom))
        for character in "glass" { game.press(.character(character)) }
        #expect(game.press(.route(cell: 2)).isEmpty)
        #expect(game.view.frame.cursor == 13)
        #expect(game.press(.route(cell: 30)).isEmpty)
        #expect(game.view.frame.cursor == 18)
        #expect(game.press(.route(cell: 36)).isEmpty)
        #expect(game.text == "Your answer: glass edt 4/4")
        #expect(game.press(.route(cell: 18)) == [.input(text: "glass", element: nil), .activate(element: nil)])
    }

    // MARK: 6. The caret always has a cell

    @Test func theCaretHasACellWhenTheTextFillsTheLine() throws {
        var game = try ViewHarness(columns: 20, chapter: 2)
        game.press(.command(.bottom))
        for character in "abcdefg" { game.press(.character(character)) }
        #expect(game.view.frame.cursor != nil)
        game.press(.character("h"))
        #expect(game.view.frame.cursor != nil)
    }
}

/// Issue 44, item 3: Escape in an answer that holds text keeps it; either end of a screen is said.
@Suite struct BrailleViewEdgeTests {
    @Test func escapeKeepsATypedAnswerAndOnAnEmptyOneOpensTheMenu() throws {
        var game = try ViewHarness(flashMilliseconds: 0, chapter: 2)
        game.press(.command(.bottom))
        for letter in "ab" { game.press(.character(letter)) }
        #expect(game.press(.escape).isEmpty)
        #expect(game.view.flashes == ["Your answer is kept. INFO opens the level menu."])
        game.press(.end)
        #expect(game.text.hasPrefix("Your answer: ab"))
        game.press(.backspace)
        game.press(.backspace)
        #expect(game.press(.escape) == [.escape])
        #expect(game.view.screen?.kind == .menu)
    }

    @Test func eitherEndOfTheScreenIsSaidInTheGamesLanguage() throws {
        var game = try ViewHarness(flashMilliseconds: 0)
        game.press(.command(.lineUp))
        #expect(game.view.flashes == ["First item."])
        game.dismissMessages()
        game.press(.command(.bottom))
        game.press(.command(.fullWindowRight))
        #expect(game.view.flashes == ["Last item."])
        var french = try ViewHarness(flashMilliseconds: 0, locale: "fr")
        french.press(.command(.fullWindowLeft))
        #expect(french.view.flashes == ["Premier élément."])
    }
}

/// Issue 44, item 4: small displays and the level menu, and a chosen action that waits for the player.
@Suite struct BrailleViewSmallDisplayTests {
    // Before, every level of the menu read "Level 5.3: The" in its first window of 20 cells.
    @Test func eachLevelOfTheMenuShowsItsTitleFirstOnTwentyCells() throws {
        var game = try ViewHarness(columns: 20, flashMilliseconds: 0)
        game.send(.game(.menu))
        game.press(.command(.top))
        let adventure = try AdventureLoader.bundled(locale: "en")
        let titles = adventure.chapters.flatMap { $0.levels.map(\.title) }
        var seen: [String] = []
        for _ in 0..<80 {
            game.press(.command(.lineDown))
            if game.view.focus?.element.id.hasPrefix("level-") == true { seen.append(game.text) }
        }
        #expect(seen.count == titles.count)
        for (shown, title) in zip(seen, titles) {
            let words = title.split(separator: " ")
            #expect(shown.hasPrefix(String(words[0])), "\(shown) for \(title)")
            #expect(!shown.hasPrefix("Level"), "\(shown)")
        }
        // At 40 cells the menu reads as before: the level's number first.
        var wide = try ViewHarness(columns: 40, flashMilliseconds: 0)
        wide.send(.game(.menu))
        wide.press(.command(.top))
        wide.press(.command(.lineDown))
        wide.press(.command(.lineDown))
        #expect(wide.text.hasPrefix("Level 1.1: "), "\(wide.text)")
    }

    // Before, a locked level read "locked btn dim": the state twice.
    @Test func aLockedLevelSaysLockedNotDimToo() throws {
        var game = try ViewHarness(columns: 80, flashMilliseconds: 0)
        game.send(.game(.menu))
        var texts: [String] = []
        for _ in 0..<40 {
            game.press(.command(.lineDown))
            texts.append(game.text)
        }
        let locked = texts.filter { $0.contains(": locked") }
        #expect(!locked.isEmpty)
        #expect(locked.allSatisfy { $0.contains("locked btn ") && !$0.contains("dim") }, "\(locked)")
    }

    // Before, the chosen action was forgotten as soon as the focus left the object.
    @Test func aChosenActionIsKeptWhenTheFocusLeavesTheObject() throws {
        var game = try ViewHarness(columns: 80, flashMilliseconds: 0, chapter: 4)
        for _ in 0..<5 where !game.text.hasPrefix("Bellows") { game.press(.command(.lineDown)) }
        game.press(.command(.nextPrompt))
        #expect(game.text.hasPrefix("Bellows: not handled yet; Pump act 1/2 btn 3/5"))
        game.press(.command(.lineDown))
        #expect(!game.text.hasPrefix("Bellows"))
        game.press(.command(.lineUp))
        #expect(game.text.hasPrefix("Bellows: not handled yet; Pump act 1/2 btn 3/5"), "\(game.text)")
        // Performed, the choice is done with: back on the object, nothing is chosen.
        #expect(game.press(.enter) == [.action(.index(1))])
        game.dismissMessages()
        game.press(.command(.lineDown))
        game.press(.command(.lineUp))
        #expect(game.text.hasPrefix("Bellows") && !game.text.contains("act 1/2"), "\(game.text)")
    }
}
