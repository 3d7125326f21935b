// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

/// The adventure's closing text ends with every key the front end named, so the player keeps them.
@Suite struct ClosingKeysTests {
    private func closingText(keys: [Gesture: String]) -> String? {
        let levels = GameHarness.adventure.chapters.flatMap(\.levels)
        var game = GameHarness(progress: Progress(completed: Set(levels.map(\.id)), current: nil))
        _ = game.engine.nameKeys(keys)
        #expect(game.screen.kind == .end)
        return game.screen.elements.first { $0.id == "text" }?.label
    }

    @Test func theEndListsEveryNamedKeyInTheGesturesOrder() throws {
        let text = try #require(
            closingText(keys: [.hint: "CSRTRK", .next: "LNDN", .pan: "FWINRT", .previous: "LNUP"])
        )
        #expect(text.hasPrefix(GameHarness.adventure.ending.text))
        #expect(
            text.hasSuffix(
                "All your keys, to keep for another game: next: LNDN, previous: LNUP, read on: FWINRT, hint: CSRTRK."
            )
        )
    }

    @Test func withoutKeyNamesTheEndIsTheEndingAlone() {
        #expect(closingText(keys: [:]) == GameHarness.adventure.ending.text)
    }
}
