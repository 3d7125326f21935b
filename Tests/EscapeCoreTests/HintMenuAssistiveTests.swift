// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

struct HintTests {
    private func atFirstLevel(
        _ options: EngineOptions = EngineOptions(hintInterval: 30_000, seed: 1)
    ) throws -> GameHarness {
        var game = GameHarness(options: options)
        try game.send(.escape)
        try game.send(.activate(element: "begin"))
        return game
    }

    @Test func hintsUnlockOneByOneOnTheClock() throws {
        var game = try atFirstLevel()
        #expect(try game.send(.hint).announcements == ["No hint yet — wait a little."])
        #expect(game.engine.nextDeadline == 30_000)
        #expect(game.wait(29_999).isEmpty)
        let ready = game.wait(1)
        #expect(ready.contains(.sound(.hint)))
        #expect(ready.announcements == [GameHarness.adventure.messages.hintReady])
        #expect(game.wait(1).isEmpty)
        #expect(
            try game.send(.hint).announcements == ["Hint 1 of 2: The answer is not something you carry in your hands."]
        )
        // Issue 23, item 7: asked again before the next hint wakes, the game says when it wakes.
        #expect(
            try game.send(.hint).announcements == [
                "Hint 1 of 2: The answer is not something you carry in your hands. The next hint wakes in 30 seconds."
            ]
        )
        #expect(game.wait(30_000).announcements.count == 1)
        #expect(try game.send(.hint).announcements.first?.hasPrefix("Hint 2 of 2") == true)
        #expect(game.engine.nextDeadline == nil)
    }

    @Test func aHintAskedAgainSaysWhenTheNextWakesInSecondsMinutesOrAMoment() throws {
        var game = try atFirstLevel(EngineOptions(hintInterval: 300_000, seed: 1))
        _ = game.wait(300_000)
        let first = "Hint 1 of 2: The answer is not something you carry in your hands."
        #expect(try game.send(.hint).announcements == [first])
        #expect(try game.send(.hint).announcements == [first + " The next hint wakes in 5 minutes."])
        _ = game.wait(179_001)
        // 120.999 s: whole minutes from two on, rounded up.
        #expect(try game.send(.hint).announcements == [first + " The next hint wakes in 3 minutes."])
        _ = game.wait(1_000)
        #expect(try game.send(.hint).announcements == [first + " The next hint wakes in 2 minutes."])
        _ = game.wait(118_500)
        #expect(try game.send(.hint).announcements == [first + " The next hint wakes in 2 seconds."])
        _ = game.wait(1_000)
        #expect(try game.send(.hint).announcements == [first + " The next hint wakes in a moment."])
        _ = game.wait(500)
        #expect(try game.send(.hint).announcements.first?.hasPrefix("Hint 2 of 2") == true)
        // Every hint awake: nothing is said of a next one.
        #expect(try game.send(.hint).announcements.first?.hasSuffix("wakes in a moment.") == false)
        #expect(try game.send(.hint).announcements.first?.contains("next hint") == false)
    }

    @Test func magicTapOnALevelAsksForAHint() throws {
        var game = try atFirstLevel()
        #expect(try game.send(.magicTap).announcements == ["No hint yet — wait a little."])
    }

    @Test func theIntervalIsConfigurable() throws {
        var game = try atFirstLevel(EngineOptions(hintInterval: 5_000, seed: 1))
        #expect(game.wait(5_000).announcements.count == 1)
    }

    @Test func allHintsCanUnlockAtOnce() throws {
        var game = try atFirstLevel(EngineOptions(hintsAtOnce: true, seed: 1))
        #expect(game.engine.nextDeadline == nil)
        #expect(try game.send(.hint).announcements.first?.hasPrefix("Hint 1 of 2") == true)
        #expect(try game.send(.hint).announcements.first?.hasPrefix("Hint 2 of 2") == true)
    }

    @Test func aLevelWithoutHintsSaysSo() throws {
        var adventure = GameHarness.adventure
        adventure.chapters[0].levels[0].hints = []
        var game = GameHarness(
            adventure: adventure,
            progress: Progress(completed: [], current: LevelPosition(chapter: 0, level: 0))
        )
        game.now = 1_000_000
        #expect(try game.send(.hint).announcements == ["This level has no hints."])
    }

    @Test func screensOtherThanLevelsHaveNoHints() throws {
        var game = GameHarness()
        #expect(try game.send(.hint).announcements == ["This level has no hints."])
    }
}

struct MenuTests {
    @Test func theMenuMarksLevelsCompleteCurrentAndLocked() throws {
        var game = GameHarness(
            progress: Progress(completed: ["cellar-door"], current: LevelPosition(chapter: 0, level: 1))
        )
        let events = try game.send(.menu)
        #expect(events.screenIDs == ["menu"])
        #expect(game.focusID == "level-cellar-water")
        let values = Dictionary(uniqueKeysWithValues: game.screen.elements.map { ($0.id, $0.value) })
        #expect(values["level-cellar-door"] == "complete")
        #expect(values["level-cellar-water"] == "current")
        #expect(values["level-cellar-jars"] == "locked")
        let locked = try #require(game.screen.elements.first { $0.id == "level-cellar-jars" })
        #expect(locked.traits.contains(.notEnabled))
        #expect(game.screen.elements.last?.id == "back")
    }

    @Test func escapeClosesTheMenuBackToTheSameFocus() throws {
        var game = GameHarness(progress: Progress(completed: [], current: LevelPosition(chapter: 1, level: 0)))
        try game.send(.input(text: "half typed", element: "answer"))
        try game.send(.menu)
        #expect(game.refuse(.menu)?.code == .notNow)
        let events = try game.send(.escape)
        #expect(events.screenIDs == ["level-stones-memory"])
        #expect(game.focusID == "answer")
        #expect(game.engine.focus.element.value == "half typed")
    }

    @Test func activatingALockedLevelSaysItIsLocked() throws {
        var game = GameHarness(progress: Progress(completed: [], current: LevelPosition(chapter: 0, level: 0)))
        try game.send(.menu)
        let events = try game.send(.activate(element: "level-workshop-hatch"))
        #expect(events.announcements == [GameHarness.adventure.messages.levelLocked])
        #expect(game.screen.id == "menu")
    }

    @Test func activatingACompletedLevelReplaysIt() throws {
        var game = GameHarness(
            progress: Progress(completed: ["cellar-door"], current: LevelPosition(chapter: 0, level: 1))
        )
        try game.send(.menu)
        try game.send(.activate(element: "level-cellar-door"))
        #expect(game.screen.id == "level-cellar-door")
    }

    @Test func gotoChecksRangeAndLocks() throws {
        var game = GameHarness()
        #expect(game.refuse(.goto(chapter: 9, level: 1))?.field == "chapter")
        #expect(game.refuse(.goto(chapter: 1, level: 9))?.field == "level")
        #expect(game.refuse(.goto(chapter: 2, level: 1))?.code == .locked)
        try game.send(.goto(chapter: 1, level: 1))
        #expect(game.screen.id == "level-cellar-door")
    }
}

struct AssistiveTests {
    @Test func losingAssistiveTechnologyShowsItsScreenAndReturnsExactly() throws {
        var game = GameHarness(progress: Progress(completed: [], current: LevelPosition(chapter: 2, level: 0)))
        try game.send(.focus(element: "door"))
        try game.send(.rotorItem(.next))
        let lost = try game.send(.assistive(active: false))
        #expect(lost.screenIDs == ["assistive"])
        #expect(game.screen.magicTap == nil && game.screen.escape == nil)
        #expect(try game.send(.assistive(active: false)).isEmpty)
        #expect(game.refuse(.rotorItem(.next))?.code == .notNow)
        #expect(game.refuse(.menu)?.code == .notNow)
        #expect(game.refuse(.magicTap)?.code == .notNow)
        try game.send(.next)
        let back = try game.send(.assistive(active: true))
        #expect(back.screenIDs == ["level-vault-iron"])
        #expect(game.focusID == "door")
        #expect(game.engine.rotor?.item == "123")
    }

    @Test func theResumeButtonReturnsToo() throws {
        var game = GameHarness()
        try game.send(.assistive(active: false))
        try game.send(.activate(element: "resume"))
        #expect(game.screen.id == "intro-1")
    }

    @Test func reportingActiveWhenNothingWasLostChangesNothing() throws {
        var game = GameHarness()
        let before = game.engine.generation
        #expect(try game.send(.assistive(active: true)).isEmpty)
        #expect(game.engine.generation == before)
    }
}
