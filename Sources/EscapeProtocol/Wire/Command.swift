// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
public import EscapeJSON

/// A request id: whatever the client chose, a string or an integer, echoed back as `replyTo`.
public enum RequestID: Sendable, Hashable {
    /// An integer id.
    case int(Int)
    /// A string id.
    case string(String)

    /// The id as JSON.
    public var json: JSONValue {
        switch self {
        case .int(let value): .int(value)
        case .string(let value): .string(value)
        }
    }
}

/// What a client says about itself in `hello`.
public struct ClientHello: Sendable, Hashable {
    /// The client's name.
    public var client: String?
    /// The protocol versions it speaks.
    public var acceptedVersions: VersionRequest
    /// What it can do (free-form flags).
    public var capabilities: [String]
    /// What its keys are called, by gesture (`Gesture/next`: "LNDN", say), for teaching texts; on the
    /// wire by the gestures' names, where names of no gesture are left out.
    public var keys: [Gesture: String]
    /// Extra events it wants (`validActions`: the valid actions after every focus).
    public var want: [String]
    /// The types of events it does without (`sound`, `result`): a client that plays no sound, or a
    /// bot that reads no verdicts, is not sent them.
    public var omit: [String]
    /// The player's preference for timed levels: `false` plays them without a clock.
    public var timePressure: Bool?
    /// The language the client would like (BCP 47, `fr` say), if it said.
    public var locale: String?
    /// The part it asks for in a game that `efb serve` shares; `nil` when it did not say.
    public var role: ClientRole?

    /// Creates a hello.
    public init(
        client: String?,
        acceptedVersions: VersionRequest,
        capabilities: [String] = [],
        keys: [Gesture: String] = [:],
        want: [String] = [],
        omit: [String] = [],
        timePressure: Bool? = nil,
        locale: String? = nil,
        role: ClientRole? = nil
    ) {
        self.want = want
        self.omit = omit
        self.timePressure = timePressure
        self.client = client
        self.acceptedVersions = acceptedVersions
        self.capabilities = capabilities
        self.keys = keys
        self.locale = locale
        self.role = role
    }

    /// The newest of `supported` that the client accepts; `nil` when there is no common version.
    public func best(among supported: [ProtocolVersion]) -> ProtocolVersion? {
        acceptedVersions.best(among: supported)
    }
}

/// A client's part in a game that `efb serve` shares between several clients.
public enum ClientRole: String, Sendable, Hashable, CaseIterable {
    /// Plays: its commands change the game.
    case controller
    /// Follows: it receives the game's events and may only ask (`state`, `ping`, ...).
    case observer
}

/// One command of a `batch`, with its own optional `ifGen`.
public struct BatchEntry: Sendable, Hashable {
    /// The command.
    public var command: Command
    /// The state generation the client expects when this command's turn comes.
    public var ifGen: Int?

    /// Creates an entry.
    public init(_ command: Command, ifGen: Int? = nil) {
        self.command = command
        self.ifGen = ifGen
    }
}

/// Every command of the protocol.
public enum Command: Sendable, Hashable {
    /// The handshake. (Out of line: the largest payload and sent once, and every command, request and
    /// decoded line is as large as its largest case.)
    indirect case hello(ClientHello)
    /// A gesture or game request, handled by the engine.
    case game(GameCommand)
    /// Asks for the whole state again: screen, focus, progress.
    case state
    /// Asks for nothing: the `done` proves the engine is alive and caught up.
    case ping
    /// Lets time pass (virtual clock) or waits (real clock).
    case wait(milliseconds: Int)
    /// Ends the session.
    case quit
    /// A gesture aimed at an element: the element is focused first, then the gesture performed.
    case onElement(element: String, GameCommand)
    /// Asks for the actions valid now; with `ifChanged`, only if they differ from the last list sent.
    case validActions(ifChanged: Bool)
    /// Asks for the game as one plain text, and what was said and heard since the last time asked;
    /// the text lists at most `maxActions` valid actions (all when `nil`).
    case observe(maxActions: Int?)
    /// Asks for the whole state as an opaque, versioned blob.
    case snapshot
    /// Brings back the state a `snapshot` blob holds.
    case restore(blob: String)
    /// Several commands carried out in order, settled by one `done`.
    case batch([BatchEntry])
    /// Ends the pending real-clock `wait` whose request id is `target`.
    case cancel(target: RequestID)
}

extension Command {
    /// Whether the command may change the game: what an observer of a shared game may not send.
    ///
    /// The handshake, quitting and the questions (``isQuestion``) change nothing; every other command
    /// may, a gesture aimed at an element too, since it moves the focus first.
    public var changesGame: Bool {
        switch self {
        case .hello, .quit, .state, .ping, .validActions, .observe, .snapshot: false
        case .game(let command): command.changesGame
        case .onElement, .wait, .restore, .batch, .cancel: true
        }
    }

    /// The command as a client of a shared game sends it (`efb serve`, `efb web`): each client has seen
    /// other events, so `validActions`, in a batch too, sends its list every time (`ifChanged` is
    /// dropped).
    public var inSharedGame: Command {
        switch self {
        case .validActions: .validActions(ifChanged: false)
        case .batch(let entries): .batch(entries.map { BatchEntry($0.command.inSharedGame, ifGen: $0.ifGen) })
        default: self
        }
    }

    /// Whether the command only asks about the game as it stands (`state`, `ping`, `validActions`,
    /// `snapshot`, `repeat`): it can be answered at once, even while a `wait` is pending.
    public var isQuestion: Bool {
        switch self {
        case .state, .ping, .validActions, .observe, .snapshot: true
        case .game(let command): !command.changesGame
        case .hello, .quit, .onElement, .wait, .restore, .batch, .cancel: false
        }
    }
}

/// Who sent a request, as the front end that passed it on tells its clients apart: never on the wire.
///
/// A front end that serves many clients (`efb serve`) gives each request one; the session stamps it
/// on every event that answers the request (``StampedEvent/origin``), so the front end routes the
/// answers by it while each client's own ids pass through untouched.
public struct Origin: Sendable, Hashable {
    /// The front end's number for the client (one connection).
    public var client: Int
    /// The front end's own mark for the request: what it was for, so it knows what to do with the answers.
    public var mark: Int

    /// Creates an origin.
    public init(client: Int, mark: Int = 0) {
        self.client = client
        self.mark = mark
    }
}

/// A command with its envelope.
public struct Request: Sendable, Hashable {
    /// The client's id for the request, echoed as `replyTo`.
    public var id: RequestID?
    /// The state generation the client saw; the command is refused as stale when it has moved on.
    public var ifGen: Int?
    /// The command.
    public var command: Command
    /// Who sent it, for a front end with many clients; `nil` when there is one.
    ///
    /// Never on the wire. A `cancel` ends only a `wait` of the same client.
    public var origin: Origin?
    /// The game it is for (`game`), in an engine that hosts more than one; `nil` when not given.
    public var game: Int?

    /// Creates a request.
    public init(id: RequestID? = nil, ifGen: Int? = nil, command: Command, origin: Origin? = nil, game: Int? = nil) {
        self.id = id
        self.ifGen = ifGen
        self.command = command
        self.origin = origin
        self.game = game
    }
}
