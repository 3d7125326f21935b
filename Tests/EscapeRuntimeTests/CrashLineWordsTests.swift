// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeLaunch
import Testing

/// The line a crash leaves, in the language the environment asks messages in.
@Suite struct CrashLineWordsTests {
    @Test func theLineNamesTheSignalAndTheExitStatusInEachLanguage() {
        #expect(
            CrashLine.line(signal: 11, name: "SIGSEGV", language: .english)
                == "\r\nefb stopped on an internal error (SIGSEGV). Your progress is saved up to the last door you "
                + "opened. Exit status 139.\n"
        )
        #expect(
            CrashLine.line(signal: 6, name: "SIGABRT", language: .french)
                == "\r\nefb s’est arrêté sur une erreur interne (SIGABRT). Votre progression est enregistrée "
                + "jusqu’à la dernière porte ouverte. Code de sortie 134.\n"
        )
    }

    @Test func theLanguageComesFromTheFirstOfLCAllLCMessagesAndLang() {
        #expect(
            ProcessEnvironment.messageLanguage(in: ["LC_ALL": "", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "C"]) == .french
        )
        #expect(ProcessEnvironment.messageLanguage(in: ["LANG": "de_DE.UTF-8"]) == .english)
        #expect(ProcessEnvironment.messageLanguage(in: [:]) == .english)
    }
}
