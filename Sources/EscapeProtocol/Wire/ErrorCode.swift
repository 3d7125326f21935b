// SPDX-License-Identifier: Apache-2.0
public import EscapeCore

/// The protocol's error codes.
///
/// Their raw values are the wire form, fixed by the protocol.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The line is not JSON.
    case malformedJSON = "malformed_json"
    /// The line is JSON but not an object.
    case notAnObject = "not_an_object"
    /// The line is not valid UTF-8.
    case invalidUTF8 = "invalid_utf8"
    /// The line is longer than the limit.
    case lineTooLong = "line_too_long"
    /// Arrays and objects nest deeper than the limit.
    case tooDeep = "too_deep"
    /// `type` names no command.
    case unknownCommand = "unknown_command"
    /// A field is missing, of the wrong type or out of range.
    case invalidParams = "invalid_params"
    /// The command makes no sense on this screen or element.
    case notNow = "not_now"
    /// `ifGen` no longer matches the state's generation.
    case stale
    /// The level asked for is not unlocked yet.
    case locked
    /// The client speaks a protocol version this engine does not.
    case unsupportedProtocol = "unsupported_protocol"
    /// Progress could not be saved; the game goes on.
    case saveFailed = "save_failed"
    /// The save file could not be read; the game started fresh and the file was kept.
    case saveUnreadable = "save_unreadable"
    /// `input` text is longer than the limit (1000 characters).
    case inputTooLong = "input_too_long"
    /// A `restore` blob is damaged, altered, or from another engine version or adventure.
    case badSnapshot = "bad_snapshot"
    /// Another game holds the save; this one runs read-only.
    case saveLocked = "save_locked"
    /// One line would send more events than the limit; nothing of it happened.
    case tooManyEvents = "too_many_events"
    /// `efb serve`: an observer asked for something that changes the game.
    case readOnly = "read_only"
    /// `efb serve`: the client asked to play while another client controls the game.
    case controlled
    /// `efb serve`: the client read too slowly; what it had not read was dropped and the whole state follows.
    case overflow
    /// `efb serve`: the game already has as many clients as it takes; the connection is closed.
    case tooManyClients = "too_many_clients"
}

/// An `error` event's content.
public struct ProtocolError: Error, Sendable, Hashable {
    /// The code, for programs.
    public var code: ErrorCode
    /// What went wrong, for people.
    public var message: String
    /// The offending field, when one is to blame.
    public var field: String?

    /// Creates an error.
    public init(_ code: ErrorCode, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The protocol form of an engine's refusal.
    public init(_ refusal: CommandRefusal) {
        let code: ErrorCode =
            switch refusal.code {
            case .notNow: .notNow
            case .invalidParams: .invalidParams
            case .locked: .locked
            }
        self.init(code, refusal.message, field: refusal.field)
    }
}
