extension EngineWords {
    /// The English table, also every unknown locale's.
    ///
    /// The golden transcripts hold these sentences byte for byte: changing one changes the protocol's examples.
    static func english(_ key: Key) -> String {
        switch key {
        case .labelIncrement: "{element}: increment"
        case .labelDecrement: "{element}: decrement"
        case .labelRotorNext: "rotor: next"
        case .labelRotorPrevious: "rotor: previous"
        case .labelRotorItemNext: "rotor item: next"
        case .labelRotorItemPrevious: "rotor item: previous"
        case .labelAction: "{element}: {action}"

        case .refusalAssistiveFirst: "the assistive technology screen is showing; report assistive active first"
        case .refusalAssistiveShowing: "the assistive technology screen is showing"
        case .refusalMagicTap: "magic tap does nothing here"
        case .refusalEscape: "escape does nothing here"
        case .refusalGestureOnScreen: "{action} does nothing on screen {screen}"
        case .refusalNothingAnnounced: "nothing has been announced yet"
        case .refusalNoElement: "no element \"{element}\" on screen {screen}"
        case .refusalMenuOpen: "the menu is already open"
        case .refusalChapterRange: "chapter must be between 1 and {count}"
        case .refusalLevelRange: "level must be between 1 and {count} in chapter {chapter}"
        case .refusalLevelLocked: "level {chapter}.{level} is not unlocked yet"
        case .refusalNothingToActivate: "nothing to activate here"
        case .refusalNotTextField: "the focused element is not a text field"
        case .refusalNoRotor: "the focused element has no rotor"
        case .refusalNoActions: "the focused element has no custom actions"
        case .refusalNotAdjustable: "the focused element is not adjustable"
        case .refusalActionIndex: "index must be between 1 and {count}"
        case .refusalNoSuchAction: "{element} has no action \"{name}\""

        case .errorLineTooLong: "the line is {length} bytes long; the limit is {limit}"
        case .errorStale: "the state has moved on to generation {generation} (the command expected {expected})"
        case .errorUnsupportedProtocol: "this engine speaks protocol {version}, not {requested}"
        case .errorSaveFailed: "progress could not be saved ({location}): {error}; the game goes on"
        case .errorNoWaitToCancel: "no real-clock wait with the id {target} is pending"
        case .errorBatchWaitsOnRealClock:
            "a batch cannot wait on the real clock, since it would no longer be all or nothing; send the wait on its own"
        case .errorReadOnly:
            "you are following this game as an observer, so {command} is not yours to send; "
                + "ask for control with hello and role \"controller\" once it is free"
        case .errorControlled:
            "another client controls the game; it can hand over with hello and role \"observer\", or by leaving"
        case .errorOverflow:
            "you read too slowly: more than {limit} bytes waited for you, so the game's events are dropped "
                + "until you catch up (replies to your own commands are kept); the whole state follows"
        case .errorTooManyClients: "this game already has {limit} clients; try again when one leaves"
        case .attachedReadOnly:
            "another player controls this game and you are following it; your next move plays once control is free"

        case .errorSaveLocked:
            "another game is playing with the save ({location}); this game starts from that save but runs read-only: "
                + "its progress will not be saved"
        case .errorSaveNewerFormat:
            "the save ({location}) has format {format}, from a newer version of the game; it is left untouched and "
                + "this game will not be saved"
        case .errorSaveUnreadableKept:
            "the save ({location}) could not be read: {reason}; a new game starts and will not be saved"
        case .errorSaveUnusable:
            "the save ({location}) cannot be kept safe: {reason}; this game will not be saved"
        case .errorSaveUnreadable: "the save ({location}) could not be read: {reason}; a new game starts"
        case .errorSaveUnreadableHeld:
            "the save ({location}) could not be read: {reason}; a new game starts; the file was left untouched "
                + "because another game holds it"
        case .errorSaveUnreadableMovedAside:
            "the save ({location}) could not be read: {reason}; a new game starts and the old file was kept as {aside}"
        case .errorSaveUnreadableNotMovedAside:
            "the save ({location}) could not be read: {reason}; a new game starts; it could not be moved aside "
                + "({problem}), so saving is off"

        case .errorBadSnapshot: "the snapshot cannot be restored: {reason}"
        case .snapshotForeign: "it is not a snapshot of this engine's format {format}"
        case .snapshotIncomplete: "it is not a complete snapshot"
        case .snapshotAltered: "its checksum does not match: it was altered"
        case .snapshotUnreadable: "its content cannot be read"
        case .snapshotOtherEngine: "it was made by engine {made}; this is engine {engine}"
        case .snapshotOtherAdventure: "it belongs to the adventure \"{other}\", not \"{adventure}\""
        case .snapshotUnknownLevels: "it names levels this adventure does not have"
        case .snapshotNoCurrentLevel: "its current level does not exist"
        case .snapshotNoScreen: "it has no screen"
        case .snapshotNegativeFocus: "a focus is negative"
        case .snapshotNoIntroPage: "an introduction page does not exist"
        case .snapshotNoChapter: "a chapter does not exist"
        case .snapshotNoLevel: "a level does not exist"
        case .snapshotPuzzleMismatch: "a puzzle state does not fit its level"
        case .snapshotOverlayAtBottom: "the menu or the assistive screen is at the bottom of the stack"

        case .decodeInvalidUTF8: "the line is not valid UTF-8"
        case .decodeNotJSON: "not valid JSON: {problem} at byte {offset}"
        case .decodeNotAnObject: "a command is a JSON object, not {found}"
        case .decodeUnknownCommand: "unknown command \"{type}\""
        case .decodeMissingField: "missing required field {field}"
        case .decodeWrongType: "{field} must be {expected}, not {found}"
        case .decodeBetween: "{field} must be between {lowest} and {highest}"
        case .decodeAtLeast: "{field} must be at least {lowest}"
        case .decodeAtMost: "{field} must be at most {highest}"
        case .decodeOneOf: "{field} must be {choices}"
        case .decodeNoVersion: "{field} must list at least one version"
        case .decodeActionTarget: "action needs a name or an index"
        case .decodeInputTooLong: "text is {length} characters (code points) long; the limit is {limit}"
        case .decodeBatchTooLarge: "a batch holds at most {limit} commands, not {count}"
        case .decodeBatchedNotAnObject: "a batched command is a JSON object, not {found}"
        case .decodeBatchedID: "a batched command carries no id: the batch's id is its replyTo"
        case .decodeBatchedForbidden: "a batch cannot hold hello, restore, cancel or another batch"
        case .decodeInBatch: "commands[{index}]: {message}"
        case .alternative: "{first} or {second}"

        case .valueNull: "null"
        case .valueNullType: "a null"
        case .valueBoolean: "a boolean"
        case .valueNumber: "a number"
        case .valueString: "a string"
        case .valueArray: "an array"
        case .valueObject: "an object"
        case .valueInteger: "an integer"
        case .valueStringOrInteger: "a string or an integer"
        case .valueArrayOfObjects: "an array of objects"
        case .valueArrayOfStrings: "an array of strings"
        case .valueObjectOfStrings: "an object of strings"
        case .valueVersionPair: "a [major, minor] pair"
        case .valueVersions: "an integer, a [major, minor] pair, a list of pairs or a {range} object"
        case .valueItems: "{count} items"

        case .jsonUnexpectedEnd: "unexpected end of input"
        case .jsonUnexpectedCharacter: "unexpected character"
        case .jsonTrailingData: "unexpected data after the value"
        case .jsonExpectedKey: "expected a string key"
        case .jsonExpectedColon: "expected ':'"
        case .jsonExpectedCommaOrBrace: "expected ',' or '}'"
        case .jsonExpectedCommaOrBracket: "expected ',' or ']'"
        case .jsonControlCharacter: "control character in a string"
        case .jsonInvalidEscape: "invalid escape"
        case .jsonInvalidUnicodeEscape: "invalid \\u escape"
        case .jsonUnterminatedString: "unterminated string"
        case .jsonInvalidNumber: "invalid number"
        case .jsonNumberOutOfRange: "number out of range"
        case .jsonTooDeep: "nesting deeper than {limit} levels"
        case .jsonLoneLowSurrogate: "lone low surrogate in a \\u escape"
        case .jsonLoneHighSurrogate: "lone high surrogate in a \\u escape"
        case .jsonUnpairedHighSurrogate: "high surrogate not followed by a low one"
        case .jsonDuplicateKey: "duplicate key \"{key}\""
        // MARK: Snapshot fields a restore refuses (hardening)
        case .snapshotField: "{field}: {problem}"
        case .snapshotOutOfRange: "the value is out of range"
        case .snapshotImpossible: "the game can never be in this state"
        case .snapshotLevelLocked: "the snapshot's progress has not unlocked this level"
        case .snapshotTorchOut: "the torch of this timed level would already be out"

        // MARK: Work one line may ask for (hardening)
        case .errorBatchTooMuchTime: "the batch's waits add up to {total} ms; one line may let at most {limit} ms pass"
        case .errorTooManyEvents: "the batch would send more than {limit} events; nothing of it happened"

        // MARK: Misleading messages made precise (hardening)
        case .snapshotOtherFormat: "it has format {made}; this engine reads format {format}"
        }
    }
}
