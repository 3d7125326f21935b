import EscapeTestSupport
import Testing

/// The longest games through a real BRLTTY, each on a thread of its own (``onThreadOfItsOwn(_:)``) and
/// beside one another and ``RealBRLTTYTests``: a key every 120 ms makes each a minute of waiting, which
/// in one serialized suite was most of the test run.
///
/// Each game has its own BRLTTY, ports and folders; the waits are on what the display shows, with
/// generous bounds, so a loaded machine slows them and fails none.
@Suite(
    .enabled(if: VirtualDisplay.brlapiBuilt, "efb was built without the BrlAPI trait"),
    .enabled(if: VirtualDisplay.brlttyInstalled, "brltty is not installed: run scripts/install-deps")
)
struct RealBRLTTYLongTests {
    @Test func playsTheWholeGameWithDisplayKeysOnly() async throws {
        try await onThreadOfItsOwn { try RealBRLTTYTests().playsTheWholeGameWithDisplayKeysOnly() }
    }

    @Test func theAnswerFieldsWindowFollowsTheCaretOnTwentyCells() async throws {
        try await onThreadOfItsOwn { try RealBRLTTYTests().theAnswerFieldsWindowFollowsTheCaretOnTwentyCells() }
    }

    #if Louis
    @Test(arguments: [("en-ueb-g2", "en"), ("fr-bfu-g2", "fr")])
    func playsTheWholeGameInContractedBraille(table: String, locale: String) async throws {
        try await onThreadOfItsOwn {
            try RealBRLTTYTests().playsTheWholeGameInContractedBraille(table: table, locale: locale)
        }
    }
    #endif
}
