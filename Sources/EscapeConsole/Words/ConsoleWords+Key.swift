// SPDX-License-Identifier: Apache-2.0
extension ConsoleWords {
    /// Every sentence of the catalogue; each language has one for every key (its table is a switch).
    ///
    /// The placeholders each sentence takes are in its summary.
    package enum Key: String, Sendable, Hashable, CaseIterable {
        // MARK: What the console says of itself

        /// After the game's title: how to get help and how to stop.
        case welcome
        /// A `wait` that brought nothing.
        case timePasses
        /// A `wait` at a terminal, as it starts: `{time}`.
        case waiting
        /// A `wait` cut short by a key.
        case waitStopped
        /// The end of the session.
        case goodbye
        /// In a shared game, another client has control and this console follows.
        case watching
        /// In a shared game, nobody plays now: the console's next move takes the game.
        case controlFree
        /// In a shared game, this console took the game and plays it.
        case playing
        /// The last door opened.
        case escaped
        /// A right answer.
        case correct
        /// A wrong answer.
        case wrong
        /// A door's code that opened it: `{code}`.
        case tryingRight
        /// A door's code that did not: `{code}`.
        case tryingWrong
        /// A refusal or an error: `{message}`, said as it is, with no prefix.
        case error
        /// `+` or `-` on an item that does not turn.
        case notAdjustable
        /// `goto` to a chapter the adventure does not have: `{chapter}`, `{count}` chapters.
        case noSuchChapter
        /// `goto` to a level its chapter does not have: `{chapter}`, `{level}`.
        case noSuchLevel
        /// `undo`, saying what it took back: `{command}`.
        case undoneWhat
        /// A hint: `{text}`.
        case hint
        /// After a hint asked for, when another one unlocked meanwhile.
        case anotherHintReady
        /// The word hints begin with when the story names them itself ("Hint 1 of 3"), folded.
        case hintWord
        /// Moving past the last item.
        case lastItem
        /// Moving past the first item.
        case firstItem
        /// A typed line too long to read: `{length}` bytes.
        case lineTooLong

        // MARK: Progress

        /// Solved levels, singular: `{count}` of `{total}`.
        case levelsSolvedOne
        /// Solved levels, plural: `{count}` of `{total}`.
        case levelsSolvedMany
        /// Where the player is, then `{solved}` (a levelsSolved sentence): `{chapter}`, `{level}`.
        case whereYouAre
        /// Progress after a door opened: `{solved}`.
        case progress

        // MARK: Screens and elements

        /// A screen's heading, one item: `{title}`.
        case headingOne
        /// A screen's heading: `{title}` and `{count}` items.
        case headingMany
        /// A position in a list: `{index}` of `{count}`.
        case position
        /// The focus: `{position}` and the element's `{description}`.
        case focus
        /// What to do on a text field.
        case typeYourAnswer
        /// A text field with nothing typed in it.
        case empty
        /// A listed item that has a rotor.
        case withRotor
        /// A listed item that has custom actions.
        case withActions
        /// The role of a button.
        case roleButton
        /// The role of a heading.
        case roleHeading
        /// The role of a text field.
        case roleTextField
        /// The role of an adjustable element.
        case roleAdjustable
        /// The state of an element that cannot be used.
        case stateUnavailable
        /// The state of a selected element.
        case stateSelected
        /// Nothing listed yet.
        case nothingOnScreen

        // MARK: Rotors and actions

        /// A step through the rotor's items: `{rotor}`, `{position}`, `{item}`.
        case rotorStep
        /// A rotor named: `{rotor}` and its `{position}` among the rotors.
        case rotorName
        /// A rotor with nothing chosen: `{name}` (a rotorName) and `{count}` items.
        case rotorNoneChosen
        /// A rotor with an item chosen: `{name}`, `{item}`, `{position}`.
        case rotorChosen
        /// The focused element's actions: `{list}` of numbered names.
        case actionsList
        /// The focused element has no actions.
        case noActions
        /// An action name that names none of the element's: `{element}`, `{name}`, `{list}`.
        case noSuchAction
        /// A name that begins several actions: `{list}`.
        case whichAction

        // MARK: The console's keys, as chapter pages name them

        /// The key of `activate`.
        case keyActivate
        /// The keys of `rotorItem`.
        case keyRotorItem
        /// The keys of `adjust`.
        case keyAdjust
        /// The key of `magicTap`.
        case keyMagicTap

        // MARK: Starting over and taking back

        /// Asked before anything that erases progress.
        case confirmStartOver
        /// The answer to that question was not yes.
        case progressKept
        /// The words that say yes to that question, folded and separated by spaces.
        case yesWords
        /// The last gesture was taken back.
        case undone
        /// `undo` with nothing to take back on this level.
        case nothingToUndo

        // MARK: Timed rooms

        /// On arriving in a timed room: its `{time}` limit.
        case timedRoom
        /// The `{time}` left.
        case timeLeft
        /// The `{time}` left, the clock standing still.
        case timeStopped
        /// `time` where no clock runs.
        case noClock
        /// Time pressure turned off.
        case clockOff
        /// Time pressure turned on.
        case clockOn
        /// `clock` without on or off.
        case clockUsage
        /// A duration of one minute.
        case minutesOne
        /// The last ten seconds of a timed room, one second left.
        case secondsLeftOne
        /// The last ten seconds of a timed room: `{count}` seconds left.
        case secondsLeftMany
        /// A duration of `{count}` minutes.
        case minutesMany
        /// A duration of one second.
        case secondsOne
        /// A duration of `{count}` seconds.
        case secondsMany
        /// `{minutes}` and `{seconds}` together.
        case minutesAndSeconds

        // MARK: Typing mistakes

        /// The word between the last two of a list of alternatives.
        case or
        /// A word that takes no argument: `{word}`.
        case takesNothingAfter
        /// `focus` without a number.
        case whichItem
        /// No item is called `{name}`.
        case noItemNamed
        /// `wait` without a number of seconds.
        case waitUsage
        /// A number before any screen.
        case noItemsYet
        /// A number past the end, the screen has one item: `{number}`.
        case noSuchItemOne
        /// A number past the end: `{number}` and `{count}` items.
        case noSuchItemMany
        /// A rotor direction that is not one.
        case directionUsage
        /// `type` with nothing after it.
        case typeUsage
        /// `type` where there is no single text field.
        case noTextField
        /// `action` with nothing after it.
        case actionUsage
        /// `goto` without a chapter and a level.
        case gotoUsage
        /// An answer too long: `{limit}` characters.
        case answerTooLong
        /// A word that names no command: `{word}`.
        case unknownCommand
        /// The closest command: `{word}`.
        case didYouMean
        /// How to answer on a screen with a text field: `{number}` and the `{text}` typed.
        case howToAnswer
        /// A number typed on a text field moves; how to answer with it: `{number}`.
        case numberAnswer
        /// A number typed on a text field moved to that item: nothing was answered; `{number}`.
        case numberMoved
        /// Enter on a text field with nothing typed.
        case emptyAnswer
        /// How many steps `+ N` and `- N` turn.
        case stepsUsage
        /// Where a wheel turned many steps in one line stopped: its `{name}` and `{value}`.
        case turnedTo
        /// Where the commands are listed.
        case seeHelp

        // MARK: Help

        /// The title of the command list.
        case helpTitle
        /// What the magic tap or escape does here: `{label}`.
        case helpHere
        /// The magic tap or escape does nothing here.
        case helpNothingHere
        /// `next`.
        case helpNext
        /// `previous`.
        case helpPrevious
        /// `first`.
        case helpFirst
        /// `last`.
        case helpLast
        /// `focus`.
        case helpFocus
        /// `activate`.
        case helpActivate
        /// `type`.
        case helpType
        /// `rotor`.
        case helpRotor
        /// `item`.
        case helpItem
        /// `up`.
        case helpItemBack
        /// `actions`.
        case helpActions
        /// `action`.
        case helpAction
        /// `+`.
        case helpIncrease
        /// `-`.
        case helpDecrease
        /// `magic`, then helpHere or helpNothingHere: `{here}`.
        case helpMagic
        /// `escape`, then helpHere or helpNothingHere: `{here}`.
        case helpEscape
        /// `hint`.
        case helpHint
        /// `time`.
        case helpTime
        /// `clock`.
        case helpClock
        /// `wait`.
        case helpWait
        /// `menu`.
        case helpMenu
        /// `goto`.
        case helpGoto
        /// `replay`.
        case helpReplay
        /// `undo`.
        case helpUndo
        /// `state`.
        case helpState
        /// `list`.
        case helpList
        case helpExamine
        case helpReview
        case helpSave
        case helpRestore
        /// `review` with something that is not a count: the `{most}` lines kept.
        case reviewUsage
        /// `restore`: progress comes back by itself.
        case restoreHow
        /// `save`: progress is saved each time a door opens, in `{path}`.
        case savedIn
        /// `save` in a game that keeps no save (`--memory-save`).
        case savedNowhere
        /// `save` in a shared game: the server keeps it.
        case savedByServer
        /// After `save` alone, in a game that can keep named saves: how to keep one.
        case saveSlotHint
        /// `save NAME` or `restore NAME` with a name that is not one: what a name may be, at most `{most}` long.
        case slotNameUsage
        /// `save {name}` kept in the file `{path}`.
        case slotKept
        /// `save {name}` kept in memory (`--memory-save`): until the game ends.
        case slotKeptInMemory
        /// `save NAME` or `restore NAME` in a shared game: not available, and why.
        case slotsShared
        /// `save {name}` that could not be written: `{reason}`.
        case slotNotKept
        /// `restore {name}` with no such save.
        case slotMissing
        /// `restore {name}` whose file is larger than `{most}`.
        case slotTooLarge
        /// The largest named save read (``SaveSlots/maximumSize``), in words.
        case slotSizeLimit
        /// `restore {name}` whose file holds no snapshot.
        case slotDamaged
        /// `restore {name}` whose file cannot be read, or that the engine refused: `{reason}`.
        case slotUnreadable
        /// `restore {name}` that the engine refused (`bad_snapshot`): `{reason}`, its message.
        case slotRefused
        /// `restore {name}` done, the save file written at the next door.
        case slotRestored
        /// `restore {name}` done, in a game that keeps no save file.
        case slotRestoredInMemory
        /// `restore` alone: the saves, newest first (`{list}`).
        case slotsListed
        /// `restore` alone with no save yet.
        case noSlots
        /// A reason: `{path}` is a link, not a folder or file, or someone else's.
        case slotPlaceNotYours
        /// A reason: a system call failed on `{path}` (`{error}`).
        case slotPlaceFailed
        /// After `replay`: the game before it is kept as the save `{name}`.
        case keptBeforeReplay
        /// After `replay`: the game before it could not be kept (`{reason}`).
        case notKeptBeforeReplay
        /// `history` before anything was said.
        case nothingToReview
        /// `again`.
        case helpAgain
        /// `help`.
        case helpHelp
        /// The last line of `help`: `help more` lists the other commands.
        case helpMore
        /// `quit`.
        case helpQuit
    }
}
