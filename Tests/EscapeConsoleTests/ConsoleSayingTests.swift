// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeCore
import EscapeRuntime
import EscapeTestSupport
import Foundation
import Testing

/// `again` says again what answered the player's last move: after a wrong answer its verdict with it,
/// also when a notice nobody asked for (a hint unlocked) came in between; a notice alone is said as the
/// notice it is, not as a hint.
@Suite struct AgainTests {
    static let notice = "A new hint is ready. Ask for it whenever you like."

    @Test func afterAWrongAnswerAgainKeepsTheVerdict() {
        var (driver, _) = Support.console(at: "cellar-door")
        let wrong = driver.enter("a 5").map(\.text)
        #expect(wrong.contains("Wrong."), "\(wrong)")
        let again = driver.enter("again").map(\.text)
        #expect(again.first == "Wrong.", "\(again)")
    }

    @Test func afterAHintNoticeAgainSaysTheWrongAnswerNotTheNotice() {
        var (driver, _) = Support.console(at: "cellar-door")
        let wrong = driver.enter("a 5").map(\.text)
        let verdict = Array(wrong.drop { $0 != "Wrong." })
        let waited = driver.enter("wait 31").map(\.text)
        #expect(waited.contains(Self.notice), "\(waited)")
        let again = driver.enter("again").map(\.text)
        #expect(again == verdict, "\(again)")
    }

    @Test func aNoticeAloneIsSaidAgainAsANoticeNotAsAHint() {
        var (driver, _) = Support.console(at: "cellar-door")
        _ = driver.enter("wait 31")
        let again = driver.enter("again").map(\.text)
        #expect(again == [Self.notice], "\(again)")
    }
}

/// `where` names the level on show, also after the menu took the player back to an earlier one.
@Suite struct WhereTests {
    @Test func whereNamesTheLevelOnShowAfterTheMenuWentBack() {
        var (driver, _) = Support.console(at: "stones-memory")
        let before = driver.enter("where").map(\.text)
        #expect(before.contains { $0.hasPrefix("Chapter 2, level 1.") }, "\(before)")
        let went = driver.enter("goto 1 2").map(\.text)
        #expect(went.contains { $0.contains("The Singing Wall") }, "\(went)")
        let said = driver.enter("where").map(\.text)
        #expect(said.contains { $0.hasPrefix("Chapter 1, level 2.") }, "\(said)")
    }
}

/// Items named as they are called, and numbers on a text field.
@Suite struct ItemNameTests {
    @Test func anItemIsActivatedOrFocusedByItsName() throws {
        var (driver, _) = Support.console(at: "cellar-door")
        let labels = try #require(driver.context.screen?.elements.map(\.label))
        let other = try #require(labels.last)
        let focused = driver.enter("focus \(other.lowercased())").map(\.text)
        #expect(driver.context.focusedElement?.label == other, "\(focused)")
        // The first word of a name is enough when no other item starts with it.
        var (again, _) = Support.console(at: "cellar-door")
        let said = again.enter("a my other").map(\.text)
        #expect(said.contains("Correct."), "\(said)")
    }

    @Test func aNameThatIsNoItemIsRefusedWithHowToList() {
        var (driver, _) = Support.console(at: "cellar-door")
        let said = driver.enter("a lamp oil").map(\.text)
        #expect(said == [#"No item here is called "lamp oil". Type look to list them, then a and a number or a name."#])
    }

    @Test func aBareNumberOnATextFieldMovesAndSaysNothingWasAnswered() throws {
        var (driver, _) = Support.console(at: "stones-memory")
        let field = try #require(driver.context.screen?.elements.firstIndex { $0.traits.contains(.textField) })
        _ = driver.enter("\(field + 1)")
        #expect(driver.context.isOnTextField)
        let said = driver.enter("1").map(\.text)
        #expect(said.last == "Nothing was answered: a number moves to an item. To answer 1, type: type 1", "\(said)")
        #expect(!driver.context.isOnTextField)
    }
}

/// What an interactive-fiction player reaches for: `x`, `z`, `history`, `review N`, `save`, `restore`.
@Suite struct FictionVerbTests {
    @Test func examineReadsTheFocusedItemOrGoesToOne() throws {
        var (driver, _) = Support.console(at: "cellar-door")
        let focus = driver.enter("x").map(\.text)
        #expect(focus == ["1 of 6: The First Door, heading"], "\(focus)")
        let third = driver.enter("x 4").map(\.text)
        #expect(third.contains { $0.hasPrefix("4 of 6: My other senses, button") }, "\(third)")
        let named = driver.enter("examine moon").map(\.text)
        #expect(named.contains { $0.hasPrefix("6 of 6: The light of the moon, button") }, "\(named)")
    }

    @Test func zPassesTenSecondsAndThreeBringTheFirstHint() {
        var (driver, _) = Support.console(at: "cellar-door")
        var said: [String] = []
        for _ in 1...3 { said += driver.enter("z").map(\.text) }
        #expect(said.contains("A new hint is ready. Ask for it whenever you like."), "\(said)")
    }

    @Test func historyAndReviewSayTheLastLinesAgain() {
        var (driver, _) = Support.console(at: "cellar-door")
        _ = driver.enter("n")
        let wrong = driver.enter("a 5").map(\.text)
        let history = driver.enter("history").map(\.text)
        #expect(history.suffix(wrong.count) == ArraySlice(wrong), "\(history)")
        #expect(history.count == 10)
        #expect(driver.enter("review 2").map(\.text) == Array(wrong.suffix(2)))
        #expect(
            driver.enter("review 0").map(\.text) == [
                "Type review and how many lines to hear again, from 1 to 100, such as review 5."
            ]
        )
    }

    @Test func saveSaysWhereAndRestoreSaysItComesBackByItself() {
        var (driver, _) = Support.console(at: "cellar-door")
        #expect(
            driver.enter("save").map(\.text).first?.hasPrefix(
                "This game keeps no save (it was started with --memory-save): progress ends with it."
            ) == true
        )
        #expect(driver.enter("load").map(\.text).last?.hasPrefix("Your progress also comes back by itself") == true)
    }
}

/// `efb play` tells `save` the file it saves in.
@Suite struct SavePlaceTests {
    @Test func saveNamesTheSaveFile() throws {
        let folder = try temporaryFolder("save-place")
        defer { try? FileManager.default.removeItem(at: folder) }
        let save = folder.appendingPathComponent("progress.json").path
        let result = try runEFB(
            ["play", "--seed", "1", "--clock", "virtual", "--locale", "en", "--save", save],
            input: "save\nq\n"
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Your progress is saved by itself each time a door opens, in \(save)."),
            "\(result.stdout)"
        )
    }
}
