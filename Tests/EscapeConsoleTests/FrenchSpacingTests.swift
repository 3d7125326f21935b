// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeCore
import EscapeRuntime
import EscapeTestSupport
import Testing

/// The console's and the runtime's French sentences are set with French spacing (``FrenchTypography``):
/// no line the console wraps starts with `:`, `;`, `?`, `!` or `»`.
@Suite struct FrenchSpacingTests {
    @Test func everyFrenchSentenceOfTheConsoleIsSpaced() {
        let words = ConsoleWords(.french)
        let unspaced = ConsoleWords.Key.allCases.flatMap { FrenchSpacing.plainSpaces(in: words.template($0)) }
        #expect(unspaced.isEmpty, "\(unspaced)")
        // The English table is left as it is.
        #expect(ConsoleWords(.english).template(.helpTitle).hasSuffix(":"))
    }

    @Test func everyFrenchSentenceOfTheRuntimeIsSpaced() {
        let words = SessionWords(.french)
        let unspaced = SessionWords.Key.allCases.flatMap { FrenchSpacing.plainSpaces(in: words.template($0)) }
        #expect(unspaced.isEmpty, "\(unspaced)")
    }
}
