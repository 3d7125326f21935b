// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Testing

/// Issue 23, item 11: answer buttons keep their order when the game resumes from its save.
struct AnswerOrderTests {
    /// The answer buttons on show, in order.
    private func answers(_ game: GameHarness) -> [String] {
        game.screen.elements.filter { $0.traits.contains(.button) }.map(\.id)
    }

    /// Solves the closed question on show by activating its right answer.
    private func solveClosedQuestion(_ game: inout GameHarness) throws {
        let position = try #require(game.engine.progress.current)
        let level = GameHarness.adventure.chapters[position.chapter].levels[position.level]
        let question = try #require(level.puzzle.content as? ClosedQuestion)
        let right = try #require(question.answers.first { $0.correct == true })
        try game.send(.activate(element: right.id))
    }

    /// The closed-question levels of chapter 1 after its first, each as shown in an unbroken game,
    /// then as shown when the game starts again from the save written on arriving there.
    @Test func aResumedLevelShowsItsAnswersAsTheyWereShown() throws {
        var game = GameHarness()
        try game.jump(toChapter: 1)
        var checked = 0
        var differedWithoutOrders = 0
        for _ in 0..<3 {
            try solveClosedQuestion(&game)
            guard let position = game.engine.progress.current, position.chapter == 0,
                GameHarness.adventure.chapters[position.chapter].levels[position.level].puzzle.content
                    is ClosedQuestion
            else { break }
            let shown = answers(game)
            let saved = try #require(game.saves.last)
            #expect(saved.current == position, "the save names the level on show")
            let resumed = GameHarness(progress: saved)
            #expect(answers(resumed) == shown, "level \(position): the order after a resume")
            // The defect as it was: a save without the orders shuffles again from the seed.
            var forgotten = saved
            forgotten.answerOrders = [:]
            if answers(GameHarness(progress: forgotten)) != shown { differedWithoutOrders += 1 }
            checked += 1
        }
        #expect(checked >= 2, "chapter 1 has closed questions after its first level")
        #expect(differedWithoutOrders > 0, "without the orders in the save, a resumed level looked different")
    }

    /// The order is kept only for levels of this adventure, and only when it is the level's answers.
    @Test func anOrderThatIsNotTheLevelsAnswersIsIgnored() throws {
        let first = GameHarness.adventure.chapters[0].levels[0]
        let question = try #require(first.puzzle.content as? ClosedQuestion)
        let ids = question.answers.map(\.id)
        var progress = Progress(completed: [], current: LevelPosition(chapter: 0, level: 0))
        progress.completed = [GameHarness.adventure.chapters[0].levels[0].id]
        progress.current = LevelPosition(chapter: 0, level: 0)
        for bad in [ids.dropLast().map { $0 }, ids + ids.prefix(1), ids.map { $0 + "x" }, []] {
            progress.answerOrders = [first.id: bad, "no-such-level": ids.reversed()]
            let game = GameHarness(progress: progress)
            #expect(Set(answers(game)) == Set(ids), "a bad order \(bad) falls back to a shuffle")
            #expect(game.engine.progress.answerOrders["no-such-level"] == nil)
        }
        progress.answerOrders = [first.id: ids.reversed()]
        #expect(answers(GameHarness(progress: progress)) == ids.reversed())
    }
}
