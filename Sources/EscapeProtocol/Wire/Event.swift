// SPDX-License-Identifier: Apache-2.0
public import EscapeCore

/// What the engine says about itself in `hello`.
public struct ServerHello: Sendable, Hashable {
    /// The protocol's major version (`protocol`: 1).
    public var protocolVersion: Int
    /// The version it speaks now: 1.0 until a client's `hello` agrees on another.
    public var version: ProtocolVersion
    /// Every version it can speak.
    public var versions: [ProtocolVersion]
    /// In reply to a client's `hello`: the items of its `want` that are granted; `nil` otherwise.
    public var grantedWant: [String]?
    /// In reply to a client's `hello`: the items of its `omit` that are granted (never sent); `nil`
    /// when none is (the field is then left out).
    public var grantedOmit: [String]?
    /// The engine's version.
    public var engineVersion: String
    /// The locale of the adventure being played.
    public var locale: String
    /// The adventure's id.
    public var adventureID: String
    /// The adventure's title.
    public var adventureTitle: String
    /// What the engine offers (flags; a missing flag means "not offered").
    public var capabilities: [String]
    /// How many games the engine hosts (`games`), when it hosts more than one (`efb pipe --games`).
    public var games: Int?

    /// The capabilities every session offers, whatever the version it speaks: the gestures and requests
    /// it carries out beyond the basic ones.
    public static let gameCapabilities = [
        "adjust", "aimedGestures", "assistive", "batch", "cancel", "customActions", "escape", "hints", "ifGen",
        "levelMenu", "magicTap", "repeat", "rotors", "snapshot", "timePressure", "validActions",
    ]

    /// Creates a hello.
    public init(
        protocolVersion: Int,
        version: ProtocolVersion = .v1_0,
        versions: [ProtocolVersion] = [.v1_0],
        grantedWant: [String]? = nil,
        grantedOmit: [String]? = nil,
        engineVersion: String,
        locale: String,
        adventureID: String,
        adventureTitle: String,
        capabilities: [String],
        games: Int? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.version = version
        self.versions = versions
        self.grantedWant = grantedWant
        self.grantedOmit = grantedOmit
        self.engineVersion = engineVersion
        self.locale = locale
        self.adventureID = adventureID
        self.adventureTitle = adventureTitle
        self.capabilities = capabilities
        self.games = games
    }
}

/// Every event of the protocol.
public enum Event: Sendable, Hashable {
    /// The engine introduces itself. (The large and rare payloads are out of line: every event is
    /// as large as its largest case, and events are moved several times a command.)
    indirect case hello(ServerHello)
    /// A game event.
    case game(GameEvent)
    /// Progress, and whether it is safely saved.
    indirect case progress(ProgressSummary, saved: Bool)
    /// A command or line was refused; nothing changed.
    indirect case error(ProtocolError)
    /// The command is settled: all its events were sent.
    case done
    /// The session is over; nothing follows.
    case bye
    /// How the game ended (`escaped`, `quit`, `eof`) and whether it was cut short of the end screen.
    case ended(reason: EndReason, cutShort: Bool)
    /// What can be done now, each aimed at its element.
    case validActions(screen: String, actions: [ValidAction])
    /// The game as one plain text, and what was heard since the last one (`observe`).
    indirect case observation(Observation)
    /// The whole state as an opaque blob, for `restore`.
    case snapshot(blob: String)
    /// The end of a burst of events the engine sent on its own (protocol 1.1).
    case idle
    /// `efb serve`: the client's part in the shared game, and whether control is free to take.
    case role(ClientRole, controlFree: Bool)
}

/// The game as a text adventure prints it: what `observe` answers (protocol section 4.16).
public struct Observation: Sendable, Hashable {
    /// The screen on show.
    public var screen: String
    /// Its kind.
    public var kind: ScreenKind
    /// The focused element's id.
    public var focus: String
    /// The screen, the progress, the torch, what was said and the valid actions, as lines of text.
    public var text: String
    /// The texts the player heard since the last observation, in order: announcements (not the
    /// player's own input said back), every screen's title, labels and values, a changed element's.
    public var heard: [String]
    /// How many levels the game has completed, of `total`.
    public var completed: Int
    /// How many levels the adventure has.
    public var total: Int

    /// Creates an observation.
    public init(
        screen: String,
        kind: ScreenKind,
        focus: String,
        text: String,
        heard: [String],
        completed: Int,
        total: Int
    ) {
        self.screen = screen
        self.kind = kind
        self.focus = focus
        self.text = text
        self.heard = heard
        self.completed = completed
        self.total = total
    }
}

/// An event with the envelope fields every line carries.
public struct StampedEvent: Sendable, Hashable {
    /// Its place in the output, from 1.
    public var seq: Int
    /// The id of the command it answers, if any.
    public var replyTo: RequestID?
    /// The state generation once the command was applied.
    public var generation: Int
    /// The event.
    public var event: Event
    /// The minor version of protocol 1 the line is written in: from 1, every event says its
    /// generation and `progress` says the level on screen.
    public var protocolMinor: Int
    /// What protocol 1.0 says differently about the event, where only the session can tell.
    ///
    /// Set by a session speaking 1.1 or later, for `efb serve`, which words the session's events anew
    /// for each client's version. Never on the wire, and no part of the event's identity.
    @usableFromInline package var in10: Version10Wording
    /// The ``Request/origin`` of the request it answers, if it answers one that had one.
    ///
    /// Never on the wire, and no part of the event's identity.
    public var origin: Origin?
    /// The game it belongs to (`game`), in an engine that hosts more than one; `nil` in one that
    /// hosts one.
    public var game: Int?

    /// Creates a stamped event.
    @inlinable
    public init(seq: Int, replyTo: RequestID?, generation: Int, event: consuming Event, protocolMinor: Int = 0) {
        self.seq = seq
        self.replyTo = replyTo
        self.generation = generation
        self.event = event
        self.protocolMinor = protocolMinor
        in10 = Version10Wording()
        origin = nil
        game = nil
    }

    /// Whether two stamped events say the same on the wire.
    public static func == (lhs: StampedEvent, rhs: StampedEvent) -> Bool {
        lhs.seq == rhs.seq && lhs.replyTo == rhs.replyTo && lhs.generation == rhs.generation
            && lhs.event == rhs.event && lhs.protocolMinor == rhs.protocolMinor && lhs.game == rhs.game
    }

    /// Hashes what the event says on the wire.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(replyTo)
        hasher.combine(generation)
        hasher.combine(event)
        hasher.combine(protocolMinor)
        hasher.combine(game)
    }
}
