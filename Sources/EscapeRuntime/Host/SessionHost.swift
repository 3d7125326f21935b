// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
public import EscapeProtocol
public import EscapeSaves

/// A session with its clock and its save: inputs in, events out, in the caller's own thread.
///
/// The host carries out what the ``Session`` asks — it writes progress through a ``SaveKeeper`` and
/// gives every input the clock's time — and hands back the events to send. The `EventLoop` drives
/// one for every front end; tests and programs that embed the engine call it directly.
///
/// It is not thread-safe; one owner calls it.
public final class SessionHost {
    /// The state machine.
    public private(set) var session: Session
    /// The save policy and the store.
    public let keeper: SaveKeeper
    private let clock: any GameClock
    /// When the session asked to be woken, on the clock's scale.
    public private(set) var nextDeadline: Int64?
    /// Given the events of the input in hand just before a save is written.
    ///
    /// So what was answered reaches the output before the write that might fail or be killed;
    /// `handle(_:)` then returns only the events after it. `nil`: everything is returned.
    public var showBeforeSave: (([StampedEvent]) -> Void)?
    /// Given each snapshot the session took as a value (``SessionInput/keepingSnapshot(for:then:)``), with
    /// the request it was taken for, as it is taken; without it the snapshot is let go.
    public var keepSnapshot: ((KeptSnapshot, RequestID?) -> Void)?

    /// Creates a host from what ``SaveKeeper/open(for:whenLocked:)`` found.
    ///
    /// - Parameters:
    ///   - adventure: The validated adventure.
    ///   - options: Hint timing, the seed and time pressure.
    ///   - keeper: The save, already opened.
    ///   - startup: What opening the save found.
    ///   - clock: The time source; a ``VirtualClock`` makes the session keep its own time.
    public init(
        adventure: Adventure,
        options: EngineOptions,
        keeper: SaveKeeper,
        startup: SaveStartup,
        clock: any GameClock
    ) {
        self.keeper = keeper
        self.clock = clock
        let now = clock.now()
        session = Session(
            adventure: adventure,
            options: options,
            startup: startup,
            clock: clock.isVirtual ? .virtual(start: now) : .real,
            now: now
        )
    }

    /// Creates a host that carries on from `session`, a copy of another host's: a program that starts
    /// many identical games (the fuzz targets) starts one and copies it, the session being a value.
    ///
    /// - Parameters:
    ///   - session: The session to carry on, on the clock's scale.
    ///   - keeper: The save, already opened.
    ///   - clock: The time source the session was made with.
    package init(session: Session, keeper: SaveKeeper, clock: any GameClock) {
        self.session = session
        self.keeper = keeper
        self.clock = clock
    }

    /// Creates a host on progress kept in memory: the store is opened at once, and memory is never
    /// locked by another game nor something other than a save.
    ///
    /// - Parameters:
    ///   - adventure: The validated adventure.
    ///   - options: Hint timing, the seed and time pressure.
    ///   - store: The progress to start from, kept in memory.
    ///   - clock: The time source; a ``VirtualClock`` makes the session keep its own time.
    public convenience init(
        adventure: Adventure,
        options: EngineOptions,
        store: InMemorySaveStore,
        clock: any GameClock
    ) {
        do {
            try self.init(adventure: adventure, options: options, store: store as any SaveStore, clock: clock)
        } catch {
            preconditionFailure("an in-memory store is never locked by another game nor other than a save: \(error)")
        }
    }

    /// Creates a host, opening the save and playing read-only when another game holds it.
    ///
    /// - Parameters:
    ///   - adventure: The validated adventure.
    ///   - options: Hint timing, the seed and time pressure.
    ///   - store: Where progress is kept.
    ///   - clock: The time source; a ``VirtualClock`` makes the session keep its own time.
    /// - Throws: `SaveError/notASave` when the store holds something other than a save (a file
    ///   store's path names someone else's file), which is left untouched.
    public convenience init(
        adventure: Adventure,
        options: EngineOptions,
        store: any SaveStore,
        clock: any GameClock
    ) throws(SaveError) {
        let keeper = SaveKeeper(store: store)
        let startup = try keeper.open(for: adventure, whenLocked: .readOnly)
        self.init(adventure: adventure, options: options, keeper: keeper, startup: startup, clock: clock)
    }

    /// The game.
    public var engine: Engine { session.engine }
    /// What the client said in `hello`, if it did.
    public var client: ClientHello? { session.client }
    /// Whether the opening was sent.
    public var hasStarted: Bool { session.hasStarted }
    /// Whether the session has ended; nothing more is accepted.
    public var isFinished: Bool { session.isFinished }
    /// Whether the session takes more lines now (see ``Session/acceptsInput``).
    public var acceptsInput: Bool { session.acceptsInput }
    /// The clock's time.
    public var now: Int64 { clock.now() }

    /// The opening: `hello`, any save problem, the screen, the focus and the progress.
    public func start() -> [StampedEvent] { handle(.start) }

    /// Handles one framed line: its events, ending with `done`; none for a blank line or while a
    /// real-clock `wait` is pending (the line is answered after it).
    public func handle(_ frame: LineFramer.Frame) -> [StampedEvent] { handle(.frame(frame)) }

    /// Carries out one request: its events, ending with `done` (and `bye` after `quit`).
    public func handle(_ request: Request) -> [StampedEvent] { handle(.request(request)) }

    /// What time brought: hints that unlocked, time announcements, the end of a pending `wait`.
    public func tick() -> [StampedEvent] { handle(.time) }

    /// Ends the session because its input ended: a pending `wait` is cut short, then `ended` and `bye`.
    public func finish() -> [StampedEvent] { handle(.endOfInput) }

    /// Ends the session because the process was asked to stop: `ended` (quit) and `bye`.
    public func stop() -> [StampedEvent] { handle(.stop) }

    /// Hands the session one input and carries out its actions.
    ///
    /// - Parameter input: What happened.
    /// - Returns: The events to send, in order.
    public func handle(_ input: SessionInput) -> [StampedEvent] {
        var events: [StampedEvent] = []
        var pending = [input]
        var next = 0
        while next < pending.count {
            let actions = session.handle(pending[next], now: clock.now())
            next += 1
            for action in actions {
                switch action {
                case .send(let sent):
                    // The first batch is taken as it is, not copied event by event.
                    if events.isEmpty { events = sent } else { events += sent }
                case .save(let data):
                    if let showBeforeSave, !events.isEmpty {
                        showBeforeSave(events)
                        events = []
                    }
                    // A failure is reported once the actions in hand are carried out, so events stay in order.
                    if let error = keeper.save(data) {
                        pending.append(.saveFailed(location: keeper.store.location, error: error))
                    }
                case .kept(let snapshot, let request):
                    keepSnapshot?(snapshot, request)
                case .wake(let deadline):
                    nextDeadline = deadline
                case .finish:
                    nextDeadline = nil
                }
            }
        }
        return events
    }
}
