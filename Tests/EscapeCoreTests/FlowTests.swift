// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

struct FlowTests {
    @Test func freshGameStartsOnTheFirstIntroPage() {
        let game = GameHarness()
        #expect(game.screen.id == "intro-1")
        #expect(game.screen.kind == .intro)
        #expect(game.focusID == "title")
        #expect(game.screen.magicTap?.action == .continueIntro)
        #expect(game.screen.escape?.action == .skipIntro)
        let opening = game.engine.opening()
        #expect(opening.count == 2)
    }

    @Test func introPagesFollowOneAnotherThenTheFirstChapter() throws {
        var game = GameHarness()
        let pages = GameHarness.adventure.intro.count
        for page in 2...pages {
            let events = try game.send(.activate(element: "continue"))
            #expect(events.screenIDs == ["intro-\(page)"])
        }
        let events = try game.send(.magicTap)
        #expect(events.screenIDs == ["chapter-cellar"])
        #expect(game.screen.elements.map(\.id) == ["title", "text", "begin"])
    }

    @Test func escapeSkipsTheIntroduction() throws {
        var game = GameHarness()
        try game.send(.escape)
        #expect(game.screen.id == "chapter-cellar")
    }

    @Test func navigationStopsAtTheEdgesWithASound() throws {
        var game = GameHarness()
        let before = game.engine.generation
        #expect(try game.send(.previous) == [.sound(.boundary)])
        #expect(game.engine.generation == before)
        try game.send(.last)
        #expect(game.focusID == "continue")
        #expect(try game.send(.next) == [.sound(.boundary)])
        try game.send(.first)
        #expect(game.focusID == "title")
        let events = try game.send(.next)
        #expect(events.count == 1)
        #expect(game.focusID == "text")
        #expect(game.engine.generation == before + 3)
    }

    @Test func focusOnAnUnknownElementIsRefusedAndChangesNothing() throws {
        var game = GameHarness()
        let before = game.engine.generation
        let refusal = game.refuse(.focus(element: "nowhere"))
        #expect(refusal?.code == .invalidParams)
        #expect(refusal?.field == "element")
        #expect(game.engine.generation == before)
        #expect(game.focusID == "title")
    }

    @Test func activatingTextSaysNothingHappens() throws {
        var game = GameHarness()
        let events = try game.send(.activate(element: "text"))
        #expect(events.announcements == [GameHarness.adventure.messages.nothingToActivate])
    }

    @Test func solvingTheLastLevelOfAChapterOpensTheNextChapter() throws {
        var game = GameHarness()
        try game.jump(toChapter: 1)
        for answer in ["senses", "water", "oil-jar"] { try game.send(.activate(element: answer)) }
        let events = try game.send(.activate(element: "lower"))
        #expect(events.outcomes == [.correct])
        #expect(events.screenIDs == ["chapter-stones"])
        #expect(events.contains(.sound(.chapter)))
        #expect(game.saves.last?.current == LevelPosition(chapter: 1, level: 0))
    }

    @Test func solvingTheLastLevelEndsTheGame() throws {
        // Everything solved but the last level: the finale's open door, three objects to handle.
        let levels = GameHarness.adventure.chapters.flatMap(\.levels)
        let last = LevelPosition(
            chapter: GameHarness.adventure.chapters.count - 1,
            level: GameHarness.adventure.chapters[GameHarness.adventure.chapters.count - 1].levels.count - 1
        )
        var game = GameHarness(progress: Progress(completed: Set(levels.dropLast().map(\.id)), current: last))
        let puzzle = try #require(levels.last?.puzzle.content as? CustomActionPuzzle)
        for object in puzzle.objects {
            try game.send(.focus(element: object.id))
            try game.send(.action(.name(object.correct)))
        }
        #expect(game.screen.kind == .end)
        #expect(game.engine.progress.current == nil)
        #expect(game.engine.progressSummary.completed.count == levels.count)
        #expect(game.screen.magicTap?.action == .replay)
    }

    @Test func replayStartsOverAndSavesTheReset() throws {
        var game = GameHarness(progress: Progress(completed: ["cellar-door"], current: nil))
        #expect(game.screen.kind == .end)
        let events = try game.send(.magicTap)
        #expect(events.screenIDs == ["intro-1"])
        #expect(game.saves == [.fresh])
        #expect(game.engine.progress == .fresh)
    }

    @Test func aRestoredGameResumesAtItsLevelWithAWelcome() {
        let game = GameHarness(
            progress: Progress(completed: ["cellar-door"], current: LevelPosition(chapter: 0, level: 1))
        )
        #expect(game.screen.id == "level-cellar-water")
        let opening = game.engine.opening()
        guard case .event(.announce(let welcome)) = opening.first else {
            Issue.record("the opening starts with a welcome back")
            return
        }
        #expect(welcome.text.contains("The Singing Wall"))
    }

    @Test func aSaveNamingUnknownPlacesIsSanitized() {
        let game = GameHarness(progress: Progress(completed: ["nope"], current: LevelPosition(chapter: 9, level: 9)))
        #expect(game.engine.progress.completed.isEmpty)
        #expect(game.engine.progress.current == LevelPosition(chapter: 0, level: 0))
    }

    @Test func repeatSaysTheLastAnnouncementAgain() throws {
        var game = GameHarness()
        #expect(game.refuse(.repeatAnnouncement)?.code == .notNow)
        try game.jump(toChapter: 1)
        try game.send(.activate(element: "moonlight"))
        let events = try game.send(.repeatAnnouncement)
        #expect(events.announcements == ["No moonlight reaches this deep. The door stays shut."])
    }

    @Test func adjustIsRefusedWhereNothingIsAdjustable() {
        var game = GameHarness()
        #expect(game.refuse(.adjust(.increment))?.code == .notNow)
    }

    /// A game on each kind of screen: every intro page, a chapter page, every level, the menu and
    /// the end.
    private static func everyScreen() throws -> [GameHarness] {
        let adventure = GameHarness.adventure
        var games: [GameHarness] = []
        var game = GameHarness()
        for _ in adventure.intro.indices.dropLast() {
            games.append(game)
            try game.send(.activate(element: "continue"))
        }
        games.append(game)
        try game.send(.escape)
        games.append(game)
        for chapter in adventure.chapters.indices {
            for level in adventure.chapters[chapter].levels.indices {
                let position = LevelPosition(chapter: chapter, level: level)
                games.append(GameHarness(progress: Progress(completed: ["any"], current: position)))
            }
        }
        try game.send(.menu)
        games.append(game)
        games.append(GameHarness(progress: Progress(completed: [], current: nil)))
        return games
    }

    @Test func everyScreenWideGestureAScreenOffersIsCarriedOut() throws {
        let games = try Self.everyScreen()
        #expect(Set(games.map(\.screen.kind)) == Set(ScreenKind.allCases).subtracting([.assistive]))
        for game in games {
            for (command, gesture) in [(GameCommand.magicTap, game.screen.magicTap), (.escape, game.screen.escape)] {
                var copy = game
                if gesture == nil {
                    #expect(copy.refuse(command)?.code == .notNow, "\(command) on \(game.screen.id)")
                } else {
                    #expect(copy.refuse(command) == nil, "\(command) on \(game.screen.id)")
                }
            }
        }
    }
}

/// A command aimed at an element is one command: when its gesture is refused after the focus moved
/// to the element, the engine is as it was before (the session no longer keeps a checkpoint of its
/// own for one command).
struct AimedRefusalTests {
    @Test(arguments: [
        GameCommand.input(text: "lantern", element: "continue"),
        GameCommand.activate(element: "no-such-element"),
    ])
    func aRefusedAimedGestureLeavesTheEngineAsItWas(command: GameCommand) throws {
        var game = GameHarness()
        try game.send(.next)
        let before = game.engine.snapshot
        let focusBefore = game.engine.focus
        #expect(game.refuse(command) != nil)
        #expect(game.engine.snapshot == before)
        #expect(game.engine.focus == focusBefore)
        // And the game goes on from there.
        try game.send(.next)
        #expect(game.engine.focus.index == focusBefore.index + 1)
    }
}
