// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// `efb braille --braille-table` and `EFB_BRAILLE_TABLE` before any display is reached.
@Suite struct BrailleTableOptionTests {
    #if Louis && BrlAPI
    @Test func anUnknownTableStopsAtOnceNamingWhereTablesLive() throws {
        let result = try runEFB(["braille", "--memory-save", "--braille-table", "no-such-table"], input: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("no usable table \"no-such-table\""))
        #expect(result.stderr.contains("liblouis/tables"))
    }

    @Test func theEnvironmentNamesTheTable() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["EFB_BRAILLE_TABLE"] = "no-such-table"
        let result = try runEFB(["braille", "--memory-save"], input: "", environment: environment)
        #expect(result.status == 64)
        #expect(result.stderr.contains("\"no-such-table\""))
    }
    #endif

    #if !Louis
    @Test func aBuildWithoutLiblouisSaysContractedBrailleIsUnavailable() throws {
        let result = try runEFB(["braille", "--memory-save", "--braille-table", "en-ueb-g2"], input: "")
        #expect(result.status == 69)
        #expect(
            result.stderr
                == "efb braille: contracted Braille is unavailable in this build (built without liblouis: the Louis trait is off).\n"
        )
    }
    #endif
}
