// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Testing

/// The longest games through a real BRLTTY, each on a thread of its own (``onThreadOfItsOwn(_:)``), in
/// two lines beside ``RealBRLTTYTests``: a key every 120 ms makes each a minute of waiting, which in one
/// serialized suite was most of the test run.
///
/// Each game has its own BRLTTY, ports and folders and waits on what the display shows, with generous
/// bounds. Two lines, not four games at once: the timed levels of ``RealBRLTTYTests`` run on the real
/// clock, and on two cores more games at once would take their time.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYLongTests {
    @Test func playsTheWholeGameWithDisplayKeysOnly() async throws {
        try await onThreadOfItsOwn { try RealBRLTTYTests().playsTheWholeGameWithDisplayKeysOnly() }
    }

    @Test func theAnswerFieldsWindowFollowsTheCaretOnTwentyCells() async throws {
        try await onThreadOfItsOwn { try RealBRLTTYWindowTests().theAnswerFieldsWindowFollowsTheCaretOnTwentyCells() }
    }
}

#if Louis
/// The whole game in contracted Braille, English then French: the second line of ``RealBRLTTYLongTests``.
@Suite(
    .serialized,
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYContractedGameTests {
    @Test(arguments: [("en-ueb-g2", "en"), ("fr-bfu-g2", "fr")])
    func playsTheWholeGameInContractedBraille(table: String, locale: String) async throws {
        try await onThreadOfItsOwn {
            try RealBRLTTYTests().playsTheWholeGameInContractedBraille(table: table, locale: locale)
        }
    }
}
#endif
