// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

/// Every loop over time advances: whatever the options say, letting time pass ends, and says each
/// hint once.
struct TimeAlwaysAdvancesTests {
    private func atFirstLevel(_ options: EngineOptions) throws -> GameHarness {
        var game = GameHarness(options: options)
        try game.send(.escape)
        try game.send(.activate(element: "begin"))
        return game
    }

    /// Before: an interval of 0 ms (what `--hint-interval 0.0009` became) made the time advance
    /// notice the first hint for ever, appending effects until memory ran out.
    @Test(arguments: [Int64(0), -5, 1])
    func aZeroOrNegativeIntervalStillUnlocksEachHintOnce(interval: Int64) throws {
        var game = try atFirstLevel(EngineOptions(hintInterval: interval, seed: 1))
        let hints = GameHarness.adventure.chapters[0].levels[0].hints.count
        let events = game.wait(0) + game.wait(1) + game.wait(1_000)
        #expect(events.filter { $0 == .sound(.hint) }.count == hints)
        #expect(game.engine.nextDeadline == nil)
    }
}
