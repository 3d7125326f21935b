// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
public import EscapeProtocol
public import EscapeSaves

/// What happens to a session: a line or a command arrives, time passes, the input ends.
///
/// A front end or the event loop turns what it reads into inputs; the ``Session`` answers each one
/// with ``SessionAction``s.
public enum SessionInput: Sendable, Hashable {
    /// The opening: the first input of every session.
    case start
    /// A framed protocol line (the pipe), and who sent it when a front end has many clients (see
    /// `Request/origin`).
    case frame(LineFramer.Frame, from: Origin? = nil)
    /// A protocol line already decoded, with its length in bytes, and who sent it: a front end that
    /// reads a line's `game` to know which session it is for (``GamePool``) does not decode it twice.
    case decoded(CommandDecoder.Outcome, length: Int, from: Origin? = nil)
    /// A line that is no game's (its `game` could not be read, in an engine hosting many): answered at
    /// once, even during a pending `wait`, since it waits behind no game's lines (only a refusal comes
    /// so: a request is never unrouted).
    case unrouted(CommandDecoder.Outcome, from: Origin? = nil)
    /// A command a front end made itself (a Braille key, a typed word).
    case request(Request)
    /// Commands carried out one after another, each answered as its own request; the first one
    /// refused stops the rest (a typed answer is not submitted when it could not be typed).
    case requests([Request])
    /// A snapshot taken as a value where a `snapshot` request would take it (the clock's time let reach the
    /// game first), handed to the owner as ``SessionAction/kept(_:for:)`` with `request`, then `requests`
    /// carried out as ``requests(_:)`` carries them out.
    ///
    /// A front end in the same process keeps it (the console's `undo`) without the JSON and base64 of a
    /// blob; nothing is sent for it.
    case keepingSnapshot(for: RequestID?, then: [Request])
    /// A kept snapshot brought back as a `restore` request numbered `request` brings back its blob (the
    /// same checks, a refusal as `bad_snapshot`, then its `done`), then, unless it was refused, `requests`
    /// carried out as ``requests(_:)`` carries them out.
    case restoring(KeptSnapshot, as: RequestID?, then: [Request])
    /// A request from someone who only follows the game (an observer of `efb serve`): a question
    /// (`state`, `ping`, `validActions`, `snapshot`, `repeat`) is answered at once, even during a
    /// pending real-clock `wait`, as the game stands; anything else is handled as ``request(_:)``.
    case question(Request)
    /// The clock reached a deadline the session asked to be woken at (or any time: it is harmless).
    case time
    /// A save the session asked for could not be written.
    case saveFailed(location: String, error: SaveError)
    /// The input ended: no more lines will come.
    case endOfInput
    /// The input will end, though lines are still to be read: its writer closed (a pipe or a socket that
    /// hung up) or it is a regular file, whose end is always at hand. A pending real-clock `wait` sent
    /// on that input is cut short as at the end of the input, with every `wait` among the lines it
    /// kept, and those lines are answered; the lines still to be read come after, as usual.
    ///
    /// `from` names the client whose input it is (`Origin/client`) when a front end has many: only
    /// that client's `wait` is cut short. `nil` stands for the one input there is.
    case inputEnds(from: Origin? = nil)
    /// The process was asked to stop (SIGINT or SIGTERM).
    case stop
}

/// What a session asks its owner to do, in order.
public enum SessionAction: Sendable, Hashable {
    /// Send these events to the front end.
    case send([StampedEvent])
    /// Write this progress to the save; report a failure with ``SessionInput/saveFailed(location:error:)``.
    case save(SaveData)
    /// Keep this snapshot, taken for the ``SessionInput/keepingSnapshot(for:then:)`` of `request`.
    case kept(KeptSnapshot, for: RequestID?)
    /// Deliver ``SessionInput/time`` at this time (the session's clock, milliseconds); `nil` for never.
    case wake(at: Int64?)
    /// The session is over: nothing more will be sent; the owner may stop.
    case finish
}

/// A moment of a session kept as a value, to bring back with ``SessionInput/restoring(_:as:then:)``: what
/// a `snapshot` blob holds, without its JSON and base64.
public struct KeptSnapshot: Sendable, Hashable {
    /// What a blob of it would hold.
    package let payload: SessionSnapshot

    /// Keeps `payload`.
    package init(_ payload: SessionSnapshot) {
        self.payload = payload
    }
}

/// How a session tells time.
public enum SessionClock: Sendable, Hashable {
    /// Time moves only with the `wait` command, from `start` milliseconds: games replay byte for byte.
    case virtual(start: Int64)
    /// Time is what the owner says it is with every input (a monotonic clock).
    case real
}

/// What a session starts from: the progress found in the save, and whether it may be written.
public struct SaveStartup: Sendable, Hashable {
    /// The progress found in the save, for this adventure; `nil` for a new game.
    public var progress: EscapeCore.Progress?
    /// Whether progress may be written (not when the save is another game's, newer or unreadable).
    public var writable: Bool
    /// What to tell the player about the save as the session starts.
    public var problems: [ProtocolError]

    /// Creates a start-up state.
    public init(progress: EscapeCore.Progress? = nil, writable: Bool = true, problems: [ProtocolError] = []) {
        self.progress = progress
        self.writable = writable
        self.problems = problems
    }

    /// A new game, saved where it goes.
    public static let fresh = SaveStartup()
}
