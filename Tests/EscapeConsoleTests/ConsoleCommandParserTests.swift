// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// The parser, on contexts made by real sessions.
struct ConsoleCommandParserTests {
    /// What the console knows on the first level, The First Door, focus on its title.
    static let firstDoor = Support.console(at: "cellar-door").driver.context

    /// What the console knows on The Stone of Memory, whose fourth item is a text field.
    static let stoneOfMemory = Support.console(at: "stones-memory").driver.context

    /// The same, with the focus on the text field.
    static let onTheField: ShownGame = {
        var driver = Support.console(at: "stones-memory").driver
        _ = driver.enter("4")
        return driver.context
    }()

    private static func game(_ command: GameCommand) -> ConsoleInput {
        .send([Request(command: .game(command))])
    }

    @Test(
        arguments: [
            ("n", GameCommand.next), ("next", .next), ("NEXT", .next), ("  n  ", .next),
            ("p", .previous), ("previous", .previous), ("prev", .previous),
            ("f", .first), ("first", .first), ("l", .last), ("last", .last),
            ("a", .activate(element: nil)), ("activate", .activate(element: nil)), ("", .activate(element: nil)),
            ("r", .rotor(.next)), ("rotor", .rotor(.next)), ("r back", .rotor(.previous)),
            ("rotor previous", .rotor(.previous)),
            ("i", .rotorItem(.next)), ("item", .rotorItem(.next)), ("down", .rotorItem(.next)),
            ("up", .rotorItem(.previous)), ("item back", .rotorItem(.previous)),
            ("+", .adjust(.increment)), ("increase", .adjust(.increment)),
            ("-", .adjust(.decrement)), ("decrease", .adjust(.decrement)),
            ("magic", .magicTap), ("mt", .magicTap), ("esc", .escape), ("escape", .escape),
            ("h", .hint), ("hint", .hint), ("m", .menu), ("menu", .menu),
            ("g 2 1", .goto(chapter: 2, level: 1)), ("goto 2.1", .goto(chapter: 2, level: 1)),
            ("replay", .replay), ("again", .repeatAnnouncement), ("repeat", .repeatAnnouncement),
            ("action 2", .action(.index(2))),
        ]
    )
    func shortAndLongWordsNameTheSameGameCommand(line: String, command: GameCommand) {
        #expect(ConsoleCommandParser.parse(line, in: Self.firstDoor) == Self.game(command))
    }

    @Test func aTurnOutOfRangeIsExplainedWrittenTogetherOrApart() {
        let context = Self.firstDoor
        let usage = ConsoleInput.failure("Turn how many steps? Type + or - and a number from 1 to 99, such as + 4.")
        for typed in ["+0", "-0", "+100", "-100", "+ 0", "+ 100"] {
            #expect(ConsoleCommandParser.parse(typed, in: context) == usage, "\(typed)")
        }
    }

    @Test func sessionRequestsAndLocalCommands() {
        let context = Self.firstDoor
        for line in ["s", "state", "where"] {
            #expect(ConsoleCommandParser.parse(line, in: context) == .send([Request(command: .state)]))
        }
        for line in ["q", "quit", "exit"] {
            #expect(ConsoleCommandParser.parse(line, in: context) == .send([Request(command: .quit)]))
        }
        #expect(
            ConsoleCommandParser.parse("wait 30", in: context) == .send([Request(command: .wait(milliseconds: 30_000))])
        )
        #expect(
            ConsoleCommandParser.parse("wait 0.5", in: context) == .send([Request(command: .wait(milliseconds: 500))])
        )
        #expect(ConsoleCommandParser.parse("help", in: context) == .help)
        #expect(ConsoleCommandParser.parse("?", in: context) == .help)
        #expect(ConsoleCommandParser.parse("list", in: context) == .list)
        #expect(ConsoleCommandParser.parse("actions", in: context) == .actions)
    }

    @Test func numbersNameTheItemsOfTheListing() throws {
        let context = Self.firstDoor
        let fourth = try #require(context.element(numbered: 4))
        #expect(ConsoleCommandParser.parse("4", in: context) == Self.game(.focus(element: fourth.id)))
        #expect(ConsoleCommandParser.parse("focus 4", in: context) == Self.game(.focus(element: fourth.id)))
        #expect(ConsoleCommandParser.parse("a 4", in: context) == Self.game(.activate(element: fourth.id)))
        #expect(
            ConsoleCommandParser.parse("9", in: context) == .failure("There is no item 9; this screen has 6 items.")
        )
        #expect(ConsoleCommandParser.parse("3", in: ShownGame()) == .failure("There are no items yet."))
    }

    @Test func unknownInputGetsOneLineWithASuggestion() {
        let context = Self.firstDoor
        #expect(
            ConsoleCommandParser.parse("nxt", in: context)
                == .failure("Unknown command \"nxt\". Did you mean next? Type help for the commands.")
        )
        #expect(
            ConsoleCommandParser.parse("rotr", in: context)
                == .failure("Unknown command \"rotr\". Did you mean rotor? Type help for the commands.")
        )
        #expect(
            ConsoleCommandParser.parse("jump", in: context)
                == .failure("Unknown command \"jump\". Type help for the commands.")
        )
    }

    @Test func aKnownWordUsedWronglySaysHowToUseIt() {
        let context = Self.firstDoor
        #expect(
            ConsoleCommandParser.parse("next please", in: context)
                == .failure("next takes nothing after it. Type help for the commands.")
        )
        #expect(
            ConsoleCommandParser.parse("goto two", in: context)
                == .failure("Type goto, a chapter and a level, such as goto 2 1.")
        )
        #expect(
            ConsoleCommandParser.parse("action", in: context)
                == .failure("Which action? Type action and a number or a name, such as action 1.")
        )
        #expect(
            ConsoleCommandParser.parse("type glass", in: context)
                == .failure("There is no text field to type into here.")
        )
        #expect(
            ConsoleCommandParser.parse("wait soon", in: context)
                == .failure("Type wait and a number of seconds, such as wait 30.")
        )
    }

    @Test func onATextFieldAnythingThatIsNotACommandIsTheAnswer() {
        let context = Self.onTheField
        #expect(context.isOnTextField)
        func answer(_ text: String) -> ConsoleInput {
            .send([
                Request(command: .game(.input(text: text, element: nil))),
                Request(command: .game(.activate(element: nil))),
            ])
        }
        #expect(ConsoleCommandParser.parse("the glass", in: context) == answer("the glass"))
        #expect(ConsoleCommandParser.parse("  Glass ", in: context) == answer("Glass"))
        // Issue 23, item 9: a number moves here too (help says numbers move); `type 3` answers 3.
        let third = context.element(numbered: 3)?.id ?? "none"
        #expect(ConsoleCommandParser.parse("3", in: context) == Self.game(.focus(element: third)))
        #expect(ConsoleCommandParser.parse("type 3", in: context) == answer("3"))
        // A command word with the wrong arguments is an answer too.
        #expect(ConsoleCommandParser.parse("up the stairs", in: context) == answer("up the stairs"))
        // Whole commands still work, and `type` answers with a command word.
        #expect(ConsoleCommandParser.parse("n", in: context) == Self.game(.next))
        #expect(ConsoleCommandParser.parse("focus 1", in: context) == Self.game(.focus(element: "title")))
        #expect(ConsoleCommandParser.parse("type n", in: context) == answer("n"))
        #expect(
            ConsoleCommandParser.parse(String(repeating: "x", count: 1001), in: context)
                == .failure("That answer is longer than 1000 characters; answers are short.")
        )
    }

    /// Issue 23, item 9: where a number cannot move, it says how to answer with it.
    @Test func aNumberOnATextFieldThatNamesNoItemSaysHowToAnswerIt() {
        #expect(
            ConsoleCommandParser.parse("1852", in: Self.onTheField)
                == .failure(
                    "There is no item 1852; this screen has 4 items. Numbers move to an item; to answer 1852, "
                        + "type: type 1852"
                )
        )
    }

    /// Issue 23, item 12: a bare `type` asks what to type; an empty Enter on a field answers nothing.
    @Test func aBareTypeAndAnEmptyLineOnAFieldAnswerNothing() {
        #expect(
            ConsoleCommandParser.parse("type", in: Self.onTheField)
                == .failure("Type what? Write your answer after it, such as type glass.")
        )
        #expect(
            ConsoleCommandParser.parse("", in: Self.onTheField)
                == .failure("Nothing to answer yet: write your answer, then press Enter.")
        )
        #expect(ConsoleCommandParser.parse("", in: Self.firstDoor) == Self.game(.activate(element: nil)))
    }

    /// Issue 23, item 8: `+ N`, `+N`, `- N` and `-N` turn N steps; `+4` never moves to item 4.
    @Test(arguments: ["+ 4", "+4", "increase 4"])
    func plusAndANumberTurnThatManySteps(line: String) {
        let up = Request(command: .game(.adjust(.increment)))
        #expect(ConsoleCommandParser.parse(line, in: Self.firstDoor) == .send(Array(repeating: up, count: 4)))
    }

    @Test(arguments: ["- 3", "-3", "decrease 3"])
    func minusAndANumberTurnThatManyStepsDown(line: String) {
        let down = Request(command: .game(.adjust(.decrement)))
        #expect(ConsoleCommandParser.parse(line, in: Self.firstDoor) == .send(Array(repeating: down, count: 3)))
    }

    @Test func tooManyStepsAreRefused() {
        let usage = ConsoleInput.failure("Turn how many steps? Type + or - and a number from 1 to 99, such as + 4.")
        #expect(ConsoleCommandParser.parse("+ 100", in: Self.firstDoor) == usage)
        #expect(ConsoleCommandParser.parse("+ x", in: Self.firstDoor) == usage)
    }

    /// Issue 23, item 10: an unknown command says back 30 characters of what was typed, not a page.
    @Test func anUnknownCommandSaysBackOnlyTheStartOfALongLine() {
        let line = String(repeating: "é", count: 2000)
        guard case .failure(let message) = ConsoleCommandParser.parse(line, in: Self.stoneOfMemory) else {
            Issue.record("a line of é is no command")
            return
        }
        #expect(message.count < 200)
        #expect(message.hasPrefix("Unknown command \"" + String(repeating: "é", count: 30) + "…\"."))
    }

    @Test func anAnswerIsMeasuredInCodePointsAsTheEngineMeasuresIt() {
        // One grapheme cluster: a letter and its combining acute accents, one code point each.
        let longest = "y" + String(repeating: "\u{301}", count: CommandDecoder.maximumInputLength - 1)
        let tooLong = longest + "\u{301}"
        #expect(longest.count == 1 && tooLong.count == 1)
        let refused = ConsoleInput.failure("That answer is longer than 1000 characters; answers are short.")
        let onTheField = Self.onTheField
        #expect(
            ConsoleCommandParser.parse(longest, in: onTheField)
                == .send([
                    Request(command: .game(.input(text: longest, element: nil))),
                    Request(command: .game(.activate(element: nil))),
                ])
        )
        #expect(ConsoleCommandParser.parse(tooLong, in: onTheField) == refused)
        #expect(ConsoleCommandParser.parse("type " + tooLong, in: Self.stoneOfMemory) == refused)
        // The engine draws the line at the same place.
        for (text, accepted) in [(longest, true), (tooLong, false)] {
            let line = #"{"type":"input","text":"\#(text)"}"#
            guard case .failure(let failure, _) = CommandDecoder.decode(Array(line.utf8)) else {
                #expect(accepted, "the engine accepts \(text.unicodeScalars.count) code points")
                continue
            }
            #expect(!accepted && failure.code == .inputTooLong)
        }
    }

    @Test func typeReachesTheScreensTextFieldFromAnywhere() {
        let context = Self.stoneOfMemory
        #expect(!context.isOnTextField)
        #expect(
            ConsoleCommandParser.parse("type the glass", in: context)
                == .send([
                    Request(command: .game(.input(text: "the glass", element: "answer"))),
                    Request(command: .game(.activate(element: "answer"))),
                ])
        )
        #expect(
            ConsoleCommandParser.parse("glass", in: context)
                == .failure(
                    "Unknown command \"glass\". To answer, move to item 4 and type your answer, or type: type glass"
                )
        )
    }

    @Test func actionNamesMatchWithoutCaseOrByAUniqueBeginning() {
        var context = ShownGame()
        context.actions = ActionList(element: "coal", actions: ["Pour into the forge", "Kick over"])
        #expect(ConsoleCommandParser.parse("action kick over", in: context) == Self.game(.action(.name("Kick over"))))
        #expect(
            ConsoleCommandParser.parse("action pour", in: context) == Self.game(.action(.name("Pour into the forge")))
        )
        #expect(ConsoleCommandParser.parse("actions 1", in: context) == Self.game(.action(.index(1))))
        // A name the list does not have is refused at once, with the element's label and its actions.
        #expect(
            ConsoleCommandParser.parse("action Dance", in: context)
                == .failure("coal has no action \"Dance\". Its actions: 1 Pour into the forge, 2 Kick over.")
        )
        context.actions = ActionList(element: "barrel", actions: ["Pour over the forge", "Pour away"])
        #expect(
            ConsoleCommandParser.parse("action pour", in: context)
                == .failure("Which one: Pour over the forge or Pour away?")
        )
    }

    @Test func frenchActionsAreNamedByTheirVerb() {
        var context = ShownGame()
        context.locale = "fr"
        context.actions = ActionList(
            element: "iron-key",
            actions: ["La tourner dans la serrure", "La laisser sur son clou"]
        )
        #expect(
            ConsoleCommandParser.parse("action tourner", in: context)
                == Self.game(.action(.name("La tourner dans la serrure")))
        )
        #expect(
            ConsoleCommandParser.parse("action LAISSER", in: context)
                == Self.game(.action(.name("La laisser sur son clou")))
        )
        context.actions = ActionList(element: "torch", actions: ["L'emporter dehors", "La poser dans l'anneau de fer"])
        #expect(
            ConsoleCommandParser.parse("action emporter", in: context) == Self.game(.action(.name("L'emporter dehors")))
        )
        #expect(
            ConsoleCommandParser.parse("action anneau", in: context)
                == Self.game(.action(.name("La poser dans l'anneau de fer")))
        )
        context.actions = ActionList(element: "ladder", actions: ["Échelle", "Écarter"])
        #expect(ConsoleCommandParser.parse("action echelle", in: context) == Self.game(.action(.name("Échelle"))))
        #expect(
            ConsoleCommandParser.parse("action éc", in: context)
                == .failure("Laquelle\u{00A0}: Échelle ou Écarter\u{202F}?")
        )
        #expect(
            ConsoleCommandParser.parse("action envelopper", in: context)
                == .failure(
                    "ladder n'a pas d'action «\u{00A0}envelopper\u{00A0}». Ses actions\u{00A0}: 1 Échelle, 2 Écarter."
                )
        )
    }

    @Test func frenchWordsNameTheCommandsToo() {
        var context = ShownGame()
        context.locale = "fr"
        #expect(ConsoleCommandParser.parse("suivant", in: context) == Self.game(.next))
        #expect(ConsoleCommandParser.parse("precedent", in: context) == Self.game(.previous))
        #expect(ConsoleCommandParser.parse("Précédent", in: context) == Self.game(.previous))
        #expect(ConsoleCommandParser.parse("aide", in: context) == .help)
        #expect(ConsoleCommandParser.parse("r arrière", in: context) == Self.game(.rotor(.previous)))
        #expect(
            ConsoleCommandParser.parse("sauter", in: context)
                == .failure(
                    "Commande inconnue\u{00A0}: «\u{00A0}sauter\u{00A0}». Tape aide pour la liste des commandes."
                )
        )
    }

    @Test func frenchShortFormsNameTheirCommandsBesideTheEnglishOnes() {
        var context = ShownGame()
        context.locale = "fr"
        let pairs = [
            ("su", "suivant", "n"), ("pr", "précédent", "p"), ("pe", "premier", "f"), ("d", "dernier", "l"),
            ("ac", "activer", "a"), ("b", "bas", "i"), ("ha", "haut", "up"), ("in", "indice", "h"),
            ("t", "temps", "time"), ("at 5", "attendre 5", "z 5"), ("ni 1 1", "niveau 1 1", "g 1 1"),
            ("an", "annuler", "u"), ("e", "état", "s"), ("re", "regarder", "look"), ("ex", "examiner", "x"),
            ("ai", "aide", "help"), ("qu", "quitter", "q"), ("c non", "chrono non", "clock off"),
        ]
        for (short, long, english) in pairs {
            let parsed = ConsoleCommandParser.parse(short, in: context)
            #expect(parsed == ConsoleCommandParser.parse(long, in: context), "\(short)")
            #expect(parsed == ConsoleCommandParser.parse(english, in: context), "\(short)")
            if case .failure(let message) = parsed { Issue.record("\(short): \(message)") }
        }
    }

    @Test func editDistanceCountsSingleCharacterEdits() {
        #expect(ConsoleCommandParser.editDistance("next", "next") == 0)
        #expect(ConsoleCommandParser.editDistance("nxt", "next") == 1)
        #expect(ConsoleCommandParser.editDistance("", "menu") == 4)
        #expect(ConsoleCommandParser.editDistance("kitten", "sitting") == 3)
    }
}
