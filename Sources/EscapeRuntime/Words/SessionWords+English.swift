// SPDX-License-Identifier: Apache-2.0
import EscapeCore

extension SessionWords {
    /// The English table, also every unknown locale's.
    ///
    /// The golden transcripts hold these sentences byte for byte: changing one changes the protocol's examples.
    static func english(_ key: Key) -> String {
        switch key {
        case .errorLineTooLong: "the line is {length} bytes long; the limit is {limit}"
        case .errorStale: "the state has moved on to generation {generation} (the command expected {expected})"
        case .errorUnsupportedProtocol: "this engine speaks protocol {version}, not {requested}"
        case .errorSaveFailed: "progress could not be saved ({location}): {error}; the game goes on"
        case .errorNoWaitToCancel: "no real-clock wait with the id {target} is pending"
        case .errorBatchWaitsOnRealClock:
            "a batch cannot wait on the real clock, since it would no longer be all or nothing; send the wait on its own"
        case .errorBatchTooMuchTime: "the batch's waits add up to {total} ms; one line may let at most {limit} ms pass"
        case .errorTooManyEvents: "the batch would send more than {limit} events; nothing of it happened"

        case .errorReadOnly:
            "you are following this game as an observer, so {command} is not yours to send; "
                + "ask for control with hello and role \"controller\" once it is free"
        case .errorControlled:
            "another client controls the game; it can hand over with hello and role \"observer\", or by leaving"
        case .errorOverflow:
            "you read too slowly: more than {limit} bytes waited for you, so the game's events are dropped "
                + "until you catch up (replies to your own commands are kept); the whole state follows"
        case .errorTooManyClients: "this game already has {limit} clients; try again when one leaves"
        case .errorMadeRoom:
            "this game has {limit} clients and another wants to join: this connection, which never sent "
                + "a line, is closed to make room"
        case .errorNotTaken: "efb web does not take this command"
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
        }
    }
}
