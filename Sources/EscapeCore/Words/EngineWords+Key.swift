// SPDX-License-Identifier: Apache-2.0
extension EngineWords {
    /// Every sentence of the catalogue; each language has one for every key (its table is a switch).
    ///
    /// The placeholders each sentence takes are in its summary.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        // MARK: Labels of the gestures `validActions` lists

        /// Adjusting up: `{element}`, the element's label.
        case labelIncrement
        /// Adjusting down: `{element}`.
        case labelDecrement
        /// Turning the rotor forwards.
        case labelRotorNext
        /// Turning the rotor backwards.
        case labelRotorPrevious
        /// Stepping forwards through the rotor's items.
        case labelRotorItemNext
        /// Stepping backwards through the rotor's items.
        case labelRotorItemPrevious
        /// A custom action: `{element}` and the `{action}`'s name.
        case labelAction

        // MARK: Refusals of the core

        /// A gesture while the assistive screen shows.
        case refusalAssistiveFirst
        /// A second `menu` while the assistive screen shows.
        case refusalAssistiveShowing
        /// Magic tap where it has no meaning.
        case refusalMagicTap
        /// Escape where it has no meaning.
        case refusalEscape
        /// A screen gesture that does not fit the screen: `{action}` and `{screen}`.
        case refusalGestureOnScreen
        /// `repeat` before anything was said.
        case refusalNothingAnnounced
        /// `focus` on a missing element: `{element}` and `{screen}`.
        case refusalNoElement
        /// `menu` with the menu open.
        case refusalMenuOpen
        /// `goto` a chapter out of range: `{count}`.
        case refusalChapterRange
        /// `goto` a level out of range: `{count}` and `{chapter}`.
        case refusalLevelRange
        /// `goto` a locked level: `{chapter}` and `{level}`.
        case refusalLevelLocked
        /// `activate` aimed at a level element that does nothing.
        case refusalNothingToActivate
        /// `input` on an element that is not a text field.
        case refusalNotTextField
        /// `rotor` or `rotorItem` on an element without rotors.
        case refusalNoRotor
        /// `action` on an element without custom actions.
        case refusalNoActions
        /// `adjust` on an element that is not adjustable.
        case refusalNotAdjustable
        /// `action` by an index past the list: `{count}`.
        case refusalActionIndex
        /// `action` by a name the element does not have: `{element}` and `{name}`.
        case refusalNoSuchAction

        // MARK: Snapshots that cannot be restored

        /// The frame of every `bad_snapshot` message: the `{reason}`, one of the sentences below.
        case errorBadSnapshot
        /// Not a blob of this engine's `{format}`.
        case snapshotForeign
        /// A blob cut short.
        case snapshotIncomplete
        /// A blob whose checksum does not match.
        case snapshotAltered
        /// A blob whose content cannot be decoded.
        case snapshotUnreadable
        /// A blob of another engine: the engine that `{made}` it and this `{engine}`.
        case snapshotOtherEngine
        /// A blob of another adventure: its `{other}` adventure and this `{adventure}`.
        case snapshotOtherAdventure
        /// A state naming levels the adventure lacks.
        case snapshotUnknownLevels
        /// A state whose current level does not exist.
        case snapshotNoCurrentLevel
        /// A state without a screen.
        case snapshotNoScreen
        /// A state with a negative focus.
        case snapshotNegativeFocus
        /// A state on a missing intro page.
        case snapshotNoIntroPage
        /// A state on a missing chapter.
        case snapshotNoChapter
        /// A state on a missing level.
        case snapshotNoLevel
        /// A puzzle state of the wrong kind.
        case snapshotPuzzleMismatch
        /// The menu or the assistive screen with nothing under it.
        case snapshotOverlayAtBottom

        // MARK: Lines the command decoder refuses

        /// A line that is not UTF-8.
        case decodeInvalidUTF8
        /// A line that is not JSON: the JSON `{problem}`, one of the phrases below, and the byte `{offset}`.
        case decodeNotJSON
        /// A line of JSON that is not an object: what it is, `{found}` (a `value…Type` phrase).
        case decodeNotAnObject
        /// A `{type}` that names no command.
        case decodeUnknownCommand
        /// A `{field}` that must be there.
        case decodeMissingField
        /// A `{field}` of the wrong type: the `{expected}` and the `{found}` (`value…` phrases; a number is itself).
        case decodeWrongType
        /// A `{field}` out of range: its `{lowest}` and `{highest}` values.
        case decodeBetween
        /// A `{field}` under its `{lowest}` value.
        case decodeAtLeast
        /// A `{field}` over its `{highest}` value.
        case decodeAtMost
        /// A `{field}` that is none of its `{choices}` (joined with ``alternative``).
        case decodeOneOf
        /// A `hello`'s version list, in `{field}`, that is empty.
        case decodeNoVersion
        /// An `action` with neither `name` nor `index`.
        case decodeActionTarget
        /// An `input` text of `{length}` code points, over the `{limit}`.
        case decodeInputTooLong
        /// A batch of `{count}` commands, over the `{limit}`.
        case decodeBatchTooLarge
        /// A batched command that is not an object: what it is, `{found}` (a `value…` phrase; a number is itself).
        case decodeBatchedNotAnObject
        /// A batched command with its own `id`.
        case decodeBatchedID
        /// A batched command with its own `game`.
        case decodeBatchedGame
        /// A batched `hello`, `restore`, `cancel` or `batch`.
        case decodeBatchedForbidden
        /// The frame of an error about a batch's command: its `{index}` and the error's `{message}`.
        case decodeInBatch
        /// Two choices: `{first}` or `{second}`; folded, it joins any number.
        case alternative

        // MARK: What a JSON value is, or must be, in the decoder's errors

        /// The JSON `null`, as a value found.
        case valueNull
        /// The JSON `null`, as a kind of value.
        case valueNullType
        /// A boolean.
        case valueBoolean
        /// A number, as a kind of value.
        case valueNumber
        /// A string.
        case valueString
        /// An array.
        case valueArray
        /// An object.
        case valueObject
        /// An integer.
        case valueInteger
        /// A number written as a fraction so near to 0 that the nearest double is 0 (`1e-400`).
        case valueTinyFraction
        /// A request id: a string or an integer.
        case valueStringOrInteger
        /// A batch's `commands`.
        case valueArrayOfObjects
        /// `capabilities` or `want`.
        case valueArrayOfStrings
        /// `keys`.
        case valueObjectOfStrings
        /// One protocol version.
        case valueVersionPair
        /// A `hello`'s `protocol`; `{range}` is the literal `{min, max}`, kept out of the sentence so it is not
        /// read as a placeholder.
        case valueVersions
        /// An array of `{count}` items where a pair belongs.
        case valueItems

        // MARK: Why a line is not JSON

        /// The line ends inside a value.
        case jsonUnexpectedEnd
        /// A character that fits nowhere.
        case jsonUnexpectedCharacter
        /// Something after the value.
        case jsonTrailingData
        /// An object member without a string key.
        case jsonExpectedKey
        /// A key without `:`.
        case jsonExpectedColon
        /// An object member followed by neither `,` nor `}`.
        case jsonExpectedCommaOrBrace
        /// An array item followed by neither `,` nor `]`.
        case jsonExpectedCommaOrBracket
        /// A control character in a string.
        case jsonControlCharacter
        /// A backslash escape JSON does not know.
        case jsonInvalidEscape
        /// A broken `\u` escape.
        case jsonInvalidUnicodeEscape
        /// A string that never ends.
        case jsonUnterminatedString
        /// A number outside JSON's grammar.
        case jsonInvalidNumber
        /// A number too large to represent.
        case jsonNumberOutOfRange
        /// Nesting deeper than the `{limit}`.
        case jsonTooDeep
        /// A low surrogate alone.
        case jsonLoneLowSurrogate
        /// A high surrogate alone.
        case jsonLoneHighSurrogate
        /// A high surrogate followed by something other than a low one.
        case jsonUnpairedHighSurrogate
        /// The same `{key}` twice in one object.
        case jsonDuplicateKey
        // MARK: Snapshot fields a restore refuses (hardening)

        /// A refused field of a snapshot: its `{field}` (a path in the blob's JSON) and the `{problem}`,
        /// one of the snapshot sentences.
        case snapshotField
        /// A number outside the range the game can reach.
        case snapshotOutOfRange
        /// A value the game can never hold there.
        case snapshotImpossible
        /// A level on screen that the snapshot's own progress has not unlocked.
        case snapshotLevelLocked
        /// A timed level whose torch should have gone out already.
        case snapshotTorchOut

        // MARK: Misleading messages made precise (hardening)

        /// A blob whose payload has another format: the `{made}` one and this engine's `{format}`.
        case snapshotOtherFormat
    }
}
