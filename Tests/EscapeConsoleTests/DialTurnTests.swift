// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeCore
import EscapeRuntime
import Testing

/// A wheel turned many steps in one line is told once: its name and where it stopped.
@Suite struct DialTurnTests {
    /// On the Bell Gate, the left wheel focused.
    private func atTheLeftWheel() throws -> SteppedConsole {
        var (driver, _) = Support.console(at: "locks-bell")
        let number = try #require(driver.context.screen?.elements.firstIndex { $0.id == "left-wheel" })
        _ = driver.enter("\(number + 1)")
        #expect(driver.context.focusedElement?.id == "left-wheel")
        return driver
    }

    @Test(arguments: [("+4", "Left wheel: 4."), ("- 3", "Left wheel: 7."), ("increase 9", "Left wheel: 9.")])
    func aTurnOfManyStepsIsOneLineWithTheWheelsNameAndValue(typed: String, said: String) throws {
        var driver = try atTheLeftWheel()
        let lines = driver.enter(typed).map(\.text)
        #expect(lines == [said], "\(typed)")
    }

    @Test func oneStepSaysTheValueAsBefore() throws {
        var driver = try atTheLeftWheel()
        let one = driver.enter("+").map(\.text)
        #expect(one.count == 1)
        #expect(one.first?.contains("1") == true)
    }

    @Test func ninetyNineStepsSayOneLine() throws {
        var driver = try atTheLeftWheel()
        #expect(driver.enter("- 99").map(\.text) == ["Left wheel: 1."])
    }
}
