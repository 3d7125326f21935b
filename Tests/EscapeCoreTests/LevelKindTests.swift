// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

struct ClosedQuestionTests {
    @Test func aWrongAnswerGivesItsFeedbackAndStays() throws {
        var game = GameHarness()
        try game.jump(toChapter: 1)
        let events = try game.send(.activate(element: "chalk-map"))
        #expect(events.outcomes == [.wrong])
        #expect(events.contains(.sound(.wrong)))
        #expect(events.announcements.last?.contains("chalk map") == true)
        #expect(game.screen.id == "level-cellar-door")
        #expect(game.saves.isEmpty)
    }

    @Test func aWrongAnswerWithoutItsOwnFeedbackUsesThePuzzles() throws {
        var game = GameHarness()
        try game.jump(toChapter: 1)
        try game.send(.activate(element: "senses"))
        let events = try game.send(.activate(element: "chimney-wind"))
        #expect(events.announcements == ["The riddle waits. Touch the wall again and think of what makes it wet."])
    }

    @Test func theRightAnswerSolvesSavesAndMovesOn() throws {
        var game = GameHarness()
        try game.jump(toChapter: 1)
        let events = try game.send(.activate(element: "senses"))
        #expect(events.outcomes == [.correct])
        #expect(events.screenIDs == ["level-cellar-water"])
        #expect(game.saves.count == 1)
        #expect(
            game.saves.first?.hasSameEarnings(
                as: Progress(completed: ["cellar-door"], current: LevelPosition(chapter: 0, level: 1))
            ) == true
        )
        #expect(
            game.saves.first?.answerOrders["cellar-water"]
                == game.screen.elements.filter { $0.traits.contains(.button) }.map(\.id)
        )
    }

    @Test func answersAreShuffledBySeedAndTheSameSeedGivesTheSameOrder() throws {
        func order(seed: UInt64) -> [String] {
            var game = GameHarness(options: EngineOptions(seed: seed))
            try? game.jump(toChapter: 1)
            game = GameHarness(
                options: EngineOptions(seed: seed),
                progress: Progress(completed: [], current: LevelPosition(chapter: 0, level: 3))
            )
            return game.screen.elements.dropFirst(3).map(\.id)
        }
        #expect(order(seed: 7) == order(seed: 7))
        let orders = Set((1...8).map { order(seed: $0) })
        #expect(orders.count > 1)
        for answers in orders { #expect(answers.sorted() == ["higher", "lower", "same", "silent"]) }
    }
}

struct OpenQuestionTests {
    private func atFirstStone() throws -> GameHarness {
        var game = GameHarness()
        try game.jump(toChapter: 2)
        return game
    }

    @Test func anEmptyAnswerIsMalformed() throws {
        var game = try atFirstStone()
        try game.send(.input(text: "   ", element: "answer"))
        let events = try game.send(.activate(element: nil))
        #expect(events.outcomes == [.malformed])
        #expect(game.screen.id == "level-stones-memory")
    }

    @Test func inputIsEchoedAndShownAsTheFieldsValue() throws {
        var game = try atFirstStone()
        let events = try game.send(.input(text: "sand", element: "answer"))
        #expect(events.contains(.announce(Announcement("sand", category: .echo))))
        #expect(game.engine.focus.element.value == "sand")
    }

    @Test func inputIsRefusedOutsideATextField() throws {
        var game = try atFirstStone()
        #expect(game.refuse(.input(text: "glass", element: nil))?.code == .notNow)
    }

    @Test func aWrongAnswerKeepsTheTypedText() throws {
        var game = try atFirstStone()
        try game.send(.input(text: "sand", element: "answer"))
        let events = try game.send(.activate(element: nil))
        #expect(events.outcomes == [.wrong])
        #expect(game.engine.focus.element.value == "sand")
    }

    @Test(arguments: ["glass", "  The GLASS ", "the  glass.", "GLASS!"])
    func acceptedAnswersIgnoreCaseSpacesAndPunctuation(_ typed: String) throws {
        var game = try atFirstStone()
        try game.send(.input(text: typed, element: "answer"))
        #expect(try game.send(.activate(element: nil)).outcomes == [.correct])
    }

    @Test(arguments: [("Café", "cafe"), ("ÉLAN", "elan"), ("  a   b ", "a b"), ("naïve!", "naive"), ("", "")])
    func normalizationFoldsDiacritics(_ pair: (String, String)) {
        #expect(Engine.normalizedAnswer(pair.0) == pair.1)
    }

    @Test func anAnswerWithoutItsAccentIsAccepted() throws {
        var game = GameHarness(progress: Progress(completed: [], current: LevelPosition(chapter: 1, level: 3)))
        try game.send(.input(text: "CAFE", element: "answer"))
        #expect(try game.send(.activate(element: nil)).outcomes == [.correct])
    }
}

struct RotorTests {
    private func atIronDoor() throws -> GameHarness {
        var game = GameHarness()
        try game.jump(toChapter: 3)
        try game.send(.focus(element: "door"))
        return game
    }

    @Test func theDoorOffersCodesAndClues() throws {
        let game = try atIronDoor()
        #expect(game.engine.focus.element.rotors == ["Codes", "Clues"])
        #expect(game.engine.rotor?.rotor == "Codes")
        #expect(game.engine.rotor?.item == nil)
    }

    @Test func rotorCommandsNeedAnElementWithARotor() throws {
        var game = try atIronDoor()
        try game.send(.first)
        #expect(game.refuse(.rotor(.next))?.code == .notNow)
        #expect(game.refuse(.rotorItem(.next))?.code == .notNow)
    }

    @Test func activatingBeforeChoosingIsMalformed() throws {
        var game = try atIronDoor()
        #expect(try game.send(.activate(element: nil)).outcomes == [.malformed])
    }

    @Test func turningAndSteppingAnnounceEachItem() throws {
        var game = try atIronDoor()
        var events = try game.send(.rotor(.next))
        #expect(events.announcements == ["Clues"])
        events = try game.send(.rotorItem(.next))
        #expect(events.announcements == ["The first note says: my code has three digits, all different."])
        try game.send(.rotor(.previous))
        events = try game.send(.rotorItem(.previous))
        #expect(events.announcements == ["975"])
        #expect(game.engine.rotor?.itemIndex == 5)
        events = try game.send(.rotorItem(.next))
        #expect(events.announcements == ["123"])
        #expect(game.engine.focus.element.value == "123")
    }

    @Test func aWrongCodeIsRefusedAndTheRightOneOpens() throws {
        var game = try atIronDoor()
        try game.send(.rotorItem(.next))
        #expect(try game.send(.activate(element: nil)).outcomes == [.wrong])
        try game.send(.rotorItem(.next))
        let events = try game.send(.activate(element: nil))
        #expect(events.outcomes == [.correct])
        #expect(events.screenIDs == ["level-vault-silver"])
    }
}

struct CustomActionTests {
    private func atForge() throws -> GameHarness {
        var game = GameHarness()
        try game.jump(toChapter: 4)
        return game
    }

    @Test func objectsListTheirActions() throws {
        var game = try atForge()
        let events = try game.send(.focus(element: "bellows"))
        #expect(events.contains(.actions(ActionList(element: "bellows", actions: ["Pump", "Fold away"]))))
        let activated = try game.send(.activate(element: nil))
        #expect(activated.announcements == ["This object has actions: Pump, Fold away."])
    }

    @Test func anActionOutOfRangeOrUnknownIsRefused() throws {
        var game = try atForge()
        try game.send(.focus(element: "bellows"))
        #expect(game.refuse(.action(.index(3)))?.field == "index")
        #expect(game.refuse(.action(.name("Dance")))?.field == "name")
        try game.send(.first)
        #expect(game.refuse(.action(.index(1)))?.code == .notNow)
    }

    @Test func noVerdictUntilEveryObjectIsHandled() throws {
        var game = try atForge()
        try game.send(.focus(element: "bellows"))
        let events = try game.send(.action(.name("Pump")))
        #expect(events.outcomes.isEmpty)
        #expect(events.announcements == ["Air rushes into the forge."])
        #expect(game.engine.focus.element.value == "Pump")
    }

    @Test func aCompleteWrongSetResetsEveryChoice() throws {
        var game = try atForge()
        for object in ["bellows", "coal", "barrel"] {
            try game.send(.focus(element: object))
            if object == "barrel" {
                let events = try game.send(.action(.index(1)))
                #expect(events.outcomes == [.wrong])
            } else {
                try game.send(.action(.index(1)))
            }
        }
        let values = game.screen.elements.dropFirst(2).map(\.value)
        #expect(values == Array(repeating: GameHarness.adventure.messages.noActionYet, count: 3))
    }

    @Test func theRightSetInAnyOrderSolves() throws {
        var game = try atForge()
        try game.send(.focus(element: "barrel"))
        try game.send(.action(.name("Leave it alone")))
        try game.send(.focus(element: "coal"))
        try game.send(.action(.name("Kick over")))
        try game.send(.action(.name("Pour into the forge")))
        try game.send(.focus(element: "bellows"))
        let events = try game.send(.action(.name("Pump")))
        #expect(events.outcomes == [.correct])
        #expect(events.screenIDs == ["level-workshop-hatch"])
    }
}
