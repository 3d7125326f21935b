// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeCore
import Testing

#if BrlAPI
import CBrlAPI
#endif

@Suite struct KeyDecodingTests {
    @Test(arguments: [
        (UInt64(0x2000_0001), BrailleKey.command(.lineUp)),
        (0x2000_0002, .command(.lineDown)),
        (0x2000_0017, .command(.fullWindowLeft)),
        (0x2000_0018, .command(.fullWindowRight)),
        (0x2000_001D, .command(.home)),
        (0x2000_004C, .command(.offline)),
        (0x2000_0000, .command(.noop)),
        (0x2001_0000, .route(cell: 0)),
        (0x2001_0027, .route(cell: 39)),
        (0x61, .character("a")),
        (0xE9, .character("é")),
        (0x0100_0142, .character("ł")),
        (0xFF0D, .enter),
        (0xFF08, .backspace),
        (0xFF1B, .escape),
        (0xFF52, .arrow(.up)),
        (0x2022_0019, .dots(0x19)),
    ])
    func decodesWhatBrlAPIDelivers(code: UInt64, key: BrailleKey) {
        #expect(BrailleKey(code: code) == key)
    }

    @Test func keepsUnknownCodesAsOther() {
        // A command of a block the game does not use (PASSAT), an unused command, a control character.
        for code: UInt64 in [0x2023_0001, 0x2000_0063, 0x07] {
            #expect(BrailleKey(code: code) == .other(code))
        }
    }

    @Test func flagsAboveTheCodeDoNotChangeTheKey() {
        #expect(BrailleKey(code: 0x0000_0001_2000_0002) == .command(.lineDown))
    }

    #if BrlAPI
    @Test func agreesWithBrlAPIsOwnConstants() {
        let command = EFB_BRLAPI_KEY_TYPE_CMD
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_LNUP) == .command(.lineUp))
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_FWINRT) == .command(.fullWindowRight))
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_CSRTRK) == .command(.trackCursor))
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_NOOP) == .command(.noop))
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_OFFLINE) == .command(.offline))
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_ROUTE | 7) == .route(cell: 7))
        #expect(BrailleKey(code: command | EFB_BRLAPI_KEY_CMD_PASSDOTS | 0x19) == .dots(0x19))
        #expect(BrailleKey(code: EFB_BRLAPI_KEY_TYPE_SYM | EFB_BRLAPI_KEY_SYM_LINEFEED) == .enter)
        #expect(BrailleKey(code: EFB_BRLAPI_KEY_SYM_BACKSPACE) == .backspace)
        #expect(BrailleKey(code: EFB_BRLAPI_KEY_SYM_UNICODE | 0x142) == .character("ł"))
    }
    #endif
}

@Suite struct KeyMapTests {
    @Test func navigationUsesTheKeysEveryDisplayHas() {
        #expect(BrailleKeyMap.intent(for: .command(.lineDown), editing: false) == .game(.next))
        #expect(BrailleKeyMap.intent(for: .command(.lineUp), editing: false) == .game(.previous))
        #expect(BrailleKeyMap.intent(for: .command(.top), editing: false) == .game(.first))
        #expect(BrailleKeyMap.intent(for: .command(.bottomLeft), editing: false) == .game(.last))
        #expect(BrailleKeyMap.intent(for: .route(cell: 3), editing: false) == .route(cell: 3))
        #expect(BrailleKeyMap.intent(for: .command(.fullWindowRight), editing: false) == .pan(.next))
    }

    @Test func everyGestureHasAKey() {
        let expected: [(BrailleCommand, BrailleIntent)] = [
            (.nextParagraph, .game(.rotor(.next))), (.previousParagraph, .game(.rotor(.previous))),
            (.nextDifferentLine, .game(.rotorItem(.next))), (.previousDifferentLine, .game(.rotorItem(.previous))),
            (.nextPrompt, .selectAction(.next)), (.previousPrompt, .selectAction(.previous)),
            (.attributeUp, .game(.adjust(.increment))), (.attributeDown, .game(.adjust(.decrement))),
            (.home, .game(.magicTap)), (.back, .game(.escape)), (.trackCursor, .game(.hint)), (.info, .game(.menu)),
            (.return, .game(.repeatAnnouncement)), (.offline, .offline),
        ]
        for (command, intent) in expected {
            #expect(BrailleKeyMap.intent(for: .command(command), editing: false) == intent, "\(command)")
        }
    }

    @Test func typingEditsOnlyInATextField() {
        #expect(BrailleKeyMap.intent(for: .character("x"), editing: true) == .type("x"))
        #expect(BrailleKeyMap.intent(for: .character("x"), editing: false) == nil)
        #expect(BrailleKeyMap.intent(for: .backspace, editing: true) == .deleteBackward)
        #expect(BrailleKeyMap.intent(for: .arrow(.left), editing: true) == .moveCaret(.previous))
        #expect(BrailleKeyMap.intent(for: .arrow(.left), editing: false) == .pan(.previous))
        #expect(BrailleKeyMap.intent(for: .enter, editing: false) == .activate)
    }

    @Test func helloNamesTheKeysOfEveryGesture() {
        let names = BrailleKeyMap.keyNames
        // The short words of the display are explained once, with the key a player learns first.
        #expect(names[.next] == "the key for “go down one line” (LNDN); " + BrailleWords(.english)(.legend))
        #expect(names[.next]?.contains("btn button, edt text field") == true)
        #expect(names[.activate]?.contains("in a text field, Enter or the routing key at the caret") == true)
        #expect(names[.hint] == "the key for “set track screen cursor on/off” (CSRTRK)")
        #expect(
            names[.pan]
                == "the keys for “go backward one braille window” / “go forward one braille window” (FWINLT / FWINRT)"
        )
        let french = BrailleKeyMap.keyNames(in: .french)
        #expect(
            french[.next] == "la touche «\u{00A0}descendre d'une ligne\u{00A0}» (LNDN)\u{202F}; "
                + BrailleWords(.french)(.legend)
        )
        #expect(french[.next]?.contains("bout bouton, chp champ de texte") == true)
        #expect(
            french[.activate]?.hasPrefix("une touche de routage sur l'élément ou Entrée\u{202F}; dans un champ") == true
        )
        for gesture in Gesture.allCases {
            #expect(names[gesture] != nil, "\(gesture)")
            #expect(french[gesture] != nil, "\(gesture)")
        }
    }

    @Test func everyCommandIsSaidInEachLanguageAsBRLTTYsKeyHelpSaysIt() {
        for command in BrailleCommand.allCases {
            let english = BrailleCommandWords(.english)(command)
            let french = BrailleCommandWords(.french)(command)
            #expect(!english.isEmpty && !french.isEmpty && english != french, "\(command)")
        }
        #expect(BrailleCommandWords(.english)(.lineDown) == "go down one line")
        #expect(BrailleCommandWords(.french)(.lineDown) == "descendre d'une ligne")
    }

    @Test func theKeyWordsHaveThePlaceholdersTheKeyMapFills() {
        let placeholders: [BrailleWords.Key: [String]] = [
            .commandKey: ["{command}", "{name}"],
            .commandKeyPair: ["{first}", "{second}", "{names}"],
            .keyWithLegend: ["{key}", "{legend}"],
        ]
        for language in [EngineWords.Language.english, .french] {
            for (key, names) in placeholders {
                let template = BrailleWords(language).template(key)
                #expect(names.allSatisfy(template.contains), "\(language) \(key): \(template)")
            }
            #expect(!BrailleWords(language)(.activateKeys).contains("{"))
        }
    }

    @Test func leavesBRLTTYItsOwnHelpLearnAndMenuKeys() {
        // HELP (0x31), LEARN (0x33) and PREFMENU (0x34) are BRLTTY's: the game has no use for them.
        for code: UInt64 in [0x2000_0031, 0x2000_0033, 0x2000_0034] {
            #expect(BrailleKeyMap.intent(for: BrailleKey(code: code), editing: false) == nil)
        }
    }
}
