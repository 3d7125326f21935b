// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeTestSupport
import Foundation
import Testing

/// One reading of the environment's language, POSIX's.
///
/// `LC_ALL`, `LC_MESSAGES`, `LANG`, empty values skipped: the adventure played and the messages said
/// agree.
struct LocaleResolverTests {
    @Test func emptyValuesAreSkippedInPosixOrder() {
        #expect(LocaleLanguage.fromEnvironment([:]) == nil)
        #expect(LocaleLanguage.fromEnvironment(["LC_ALL": "", "LANG": "fr_FR.UTF-8"]) == "fr_FR.UTF-8")
        #expect(LocaleLanguage.fromEnvironment(["LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr"]) == "fr")
        #expect(LocaleLanguage.fromEnvironment(["LC_MESSAGES": "fr_CA", "LANG": "en_GB"]) == "fr_CA")
        #expect(LocaleLanguage.fromEnvironment(["LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "fr"]) == "en_US.UTF-8")
        #expect(LocaleLanguage.isFrench("fr_FR@euro"))
        #expect(!LocaleLanguage.isFrench(nil) && !LocaleLanguage.isFrench("en"))
    }

    /// `LC_ALL=` (empty) with `LANG=fr_FR.UTF-8` used to start the English adventure while the
    /// messages were French.
    @Test func anEmptyLcAllPlaysTheLanguageOfLang() throws {
        let environment = ["LC_ALL": "", "LANG": "fr_FR.UTF-8", "PATH": "/usr/bin:/bin"]
        let ran = try runEFB(
            ["pipe", "--clock", "virtual", "--memory-save"],
            input: #"{"type":"quit","id":1}"# + "\n",
            environment: environment
        )
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdout.contains(#""locale":"fr""#), "\(ran.stdout.prefix(300))")
        #expect(ran.stdout.contains(#""title":"Dans le noir""#))
    }
}
