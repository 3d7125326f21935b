public import EscapeCore
public import EscapeProtocol
public import EscapeSaves

/// One game behind the protocol: the engine, its clock and its save, turning commands into stamped events.
///
/// Every front end drives a session: the pipe feeds it lines, the Braille front end feeds it commands
/// made from key presses. It is not thread-safe; one owner calls it.
public final class Session {
    /// The engine's version, reported in `hello`.
    public static let engineVersion = "0.1.0"

    /// The game.
    public fileprivate(set) var engine: Engine
    private let store: any SaveStore
    fileprivate let clock: any GameClock
    fileprivate var sequence = 0
    private var savesEnabled = true
    fileprivate var savedProgress: EscapeCore.Progress?
    private var startupErrors: [ProtocolError] = []
    /// What the client said in `hello`, if it did.
    public private(set) var client: ClientHello?
    /// Whether the session has ended (`quit` or end of input); nothing more is accepted.
    public private(set) var isFinished = false

    /// Creates a session, restoring progress from `store`.
    ///
    /// A damaged save is moved aside and the game starts fresh; a save from a newer engine is left
    /// untouched and saving is turned off. Either way the player is told in ``start()``.
    ///
    /// - Parameters:
    ///   - adventure: The validated adventure.
    ///   - options: Hint timing and the seed.
    ///   - store: Where progress is kept.
    ///   - clock: The time source.
    public init(adventure: Adventure, options: EngineOptions, store: any SaveStore, clock: any GameClock) {
        self.store = store
        self.clock = clock
        var progress = EscapeCore.Progress.fresh
        do {
            try store.acquire()
        } catch .locked {
            // Another game holds the save: play from it, but never write over what that game saves.
            savesEnabled = false
            startupErrors.append(
                ProtocolError(
                    .saveLocked,
                    "another game is playing with the save (\(store.location)); this game starts from that save "
                        + "but runs read-only: its progress will not be saved"
                )
            )
        } catch {
            // The lock file cannot be made; reading the save below reports what is wrong with the place.
        }
        do {
            if let data = try store.load() {
                if data.adventureID == adventure.id {
                    progress = data.progress(in: adventure)
                    savedProgress = progress
                }
            }
        } catch .newerFormat(let format) {
            savesEnabled = false
            startupErrors.append(
                ProtocolError(
                    .saveUnreadable,
                    "the save (\(store.location)) has format \(format), from a newer version of the game; "
                        + "it is left untouched and this game will not be saved"
                )
            )
        } catch .system(let operation, let path, let code) {
            // Unreadable but maybe intact: never overwrite what the player may have earned.
            savesEnabled = false
            let reason = SaveError.system(operation: operation, path: path, errno: code)
            startupErrors.append(
                ProtocolError(
                    .saveUnreadable,
                    "the save (\(store.location)) could not be read: \(reason); a new game starts and will not be saved"
                )
            )
        } catch {
            var message = "the save (\(store.location)) could not be read: \(error); a new game starts"
            do {
                if let aside = try store.moveAside() { message += " and the old file was kept as \(aside)" }
            } catch .locked {
                message += "; the file was left untouched because another game holds it, so saving is off"
                savesEnabled = false
            } catch {
                message += "; it could not be moved aside (\(error)), so saving is off"
                savesEnabled = false
            }
            startupErrors.append(ProtocolError(.saveUnreadable, message))
        }
        engine = Engine(adventure: adventure, options: options, progress: progress, now: clock.now())
    }

    /// The session's opening: `hello`, any save problem, the screen, the focus and the progress.
    public func start() -> [StampedEvent] {
        var events = [stamp(.hello(serverHello), replyTo: nil)]
        events += startupErrors.map { stamp(.error($0), replyTo: nil) }
        events += engine.opening().flatMap { perform($0, replyTo: nil) }
        events.append(stamp(progressEvent, replyTo: nil))
        return events
    }

    /// Handles one framed line: decodes it and carries it out, or answers with an error.
    ///
    /// - Parameter frame: A line from the ``LineFramer``.
    /// - Returns: The events to send, ending with `done`; none for a blank line.
    public func handle(_ frame: LineFramer.Frame) -> [StampedEvent] {
        switch frame {
        case .tooLong(let length):
            let error = ProtocolError(
                .lineTooLong,
                "the line is \(length) bytes long; the limit is \(LineFramer.defaultMaximumLineLength)"
            )
            return [stamp(.error(error), replyTo: nil), stamp(.done, replyTo: nil)]
        case .line(let bytes):
            switch CommandDecoder.decode(bytes) {
            case .blank:
                return []
            case .failure(let error, let replyTo):
                return [stamp(.error(error), replyTo: replyTo), stamp(.done, replyTo: replyTo)]
            case .request(let request):
                return handle(request)
            }
        }
    }

    /// Carries out one request.
    ///
    /// - Parameter request: The command and its envelope.
    /// - Returns: The events to send, ending with `done` (and `bye` after `quit`).
    public func handle(_ request: Request) -> [StampedEvent] {
        let replyTo = request.id
        guard !isFinished else { return [] }
        var events = tick()
        if let expected = request.ifGen, expected != engine.generation {
            let error = ProtocolError(
                .stale,
                "the state has moved on to generation \(engine.generation) (the command expected \(expected))",
                field: "ifGen"
            )
            return events + [stamp(.error(error), replyTo: replyTo), stamp(.done, replyTo: replyTo)]
        }
        if case .quit = request.command {
            return events + quit(replyTo: replyTo)
        }
        events += execute(request.command, replyTo: replyTo)
        if isFinished { return events }
        events.append(stamp(.done, replyTo: replyTo))
        return events
    }

    /// Carries out one command: its events, without the closing `done`.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - replyTo: The request's id.
    ///   - nested: A command inside a batch: the batch sends the valid actions once, at its end.
    /// - Returns: The command's events.
    private func execute(_ command: Command, replyTo: RequestID?, nested: Bool = false) -> [StampedEvent] {
        var events: [StampedEvent] = []
        switch command {
        case .hello(let hello):
            client = hello
            if hello.protocolVersion != EventEncoder.protocolVersion {
                let error = ProtocolError(
                    .unsupportedProtocol,
                    "this engine speaks protocol \(EventEncoder.protocolVersion), not \(hello.protocolVersion)",
                    field: "protocol"
                )
                events.append(stamp(.error(error), replyTo: replyTo))
            }
            events.append(stamp(.hello(serverHello), replyTo: replyTo))
            if let timePressure = hello.timePressure { engine.setTimePressure(timePressure) }
            events += engine.nameKeys(hello.keys).flatMap { perform($0, replyTo: replyTo) }
        case .game(let command):
            events += apply([command], replyTo: replyTo)
        case .onElement(let element, let command):
            events += apply([.focus(element: element), command], replyTo: replyTo)
        case .state:
            events += stateEvents(replyTo: replyTo)
        case .ping:
            break
        case .wait(let milliseconds):
            clock.wait(milliseconds: milliseconds)
            events += engine.advanceTime(to: clock.now()).flatMap { perform($0, replyTo: replyTo) }
        case .validActions:
            events.append(stamp(validActionsEvent, replyTo: replyTo))
        case .snapshot:
            let snapshot = SessionSnapshot(
                engine: Self.engineVersion,
                adventure: engine.adventure.id,
                seq: sequence + 2,  // the snapshot event, then its done
                clock: clock.isVirtual ? clock.now() : nil,
                saved: savedProgress,
                state: engine.snapshot
            )
            events.append(stamp(.snapshot(blob: SnapshotCodec.encode(snapshot)), replyTo: replyTo))
        case .restore(let blob):
            do {
                try restore(blob)
            } catch {
                events.append(stamp(.error(error), replyTo: replyTo))
            }
        case .batch(let commands):
            for command in commands {
                if case .quit = command { return events + quit(replyTo: replyTo) }
                events += execute(command, replyTo: replyTo, nested: true)
            }
        case .quit:
            events += quit(replyTo: replyTo)
        }
        if !nested, client?.want.contains("validActions") == true,
            events.contains(where: { if case .game(.focus) = $0.event { true } else { false } })
        {
            events.append(stamp(validActionsEvent, replyTo: replyTo))
        }
        return events
    }

    /// Applies game commands as one: if one is refused, the state is left as it was before the first.
    private func apply(_ commands: [GameCommand], replyTo: RequestID?) -> [StampedEvent] {
        let before = engine
        var effects: [Effect] = []
        do {
            for command in commands { effects += try engine.apply(command, now: clock.now()) }
        } catch {
            engine = before
            return [stamp(.error(ProtocolError(error)), replyTo: replyTo)]
        }
        return effects.flatMap { perform($0, replyTo: replyTo) }
    }

    private func quit(replyTo: RequestID?) -> [StampedEvent] {
        isFinished = true
        return [
            stamp(.ended(reason: "quit", cutShort: engine.screen.kind != .end), replyTo: replyTo),
            stamp(.done, replyTo: replyTo),
            stamp(.bye, replyTo: replyTo),
        ]
    }

    private var validActionsEvent: Event {
        .validActions(screen: engine.screen.id, actions: engine.validActions)
    }

    /// Lets the clock's time reach the engine: announces hints that unlocked meanwhile.
    public func tick() -> [StampedEvent] {
        guard !isFinished else { return [] }
        return engine.advanceTime(to: clock.now()).flatMap { perform($0, replyTo: nil) }
    }

    /// When ``tick()`` next has something to say, in the clock's milliseconds; never on a virtual clock,
    /// whose time moves only with `wait`.
    public var nextDeadline: Int64? { isFinished || clock.isVirtual ? nil : engine.nextDeadline }

    /// The current time on the session's clock.
    public var now: Int64 { clock.now() }

    /// Ends the session because its input ended: `bye`, unless it already ended.
    public func finish() -> [StampedEvent] {
        guard !isFinished else { return [] }
        isFinished = true
        return [
            stamp(.ended(reason: "eof", cutShort: engine.screen.kind != .end), replyTo: nil),
            stamp(.bye, replyTo: nil),
        ]
    }

    /// The whole state as events: screen, focus, rotor and actions where present, progress.
    public func stateEvents(replyTo: RequestID?) -> [StampedEvent] {
        var events = [stamp(.game(.screen(engine.screen)), replyTo: replyTo)]
        events.append(stamp(.game(.focus(engine.focus)), replyTo: replyTo))
        if let rotor = engine.rotor { events.append(stamp(.game(.rotor(rotor)), replyTo: replyTo)) }
        if let actions = engine.actions { events.append(stamp(.game(.actions(actions)), replyTo: replyTo)) }
        events.append(stamp(progressEvent, replyTo: replyTo))
        return events
    }

    private var serverHello: ServerHello {
        var capabilities = [
            "adjust", "aimedGestures", "assistive", "batch", "customActions", "escape", "hints", "ifGen", "levelMenu",
            "magicTap", "repeat", "rotors", "snapshot", "timePressure", "validActions",
        ]
        if clock.isVirtual { capabilities.append("virtualClock") }
        return ServerHello(
            protocolVersion: EventEncoder.protocolVersion,
            engineVersion: Self.engineVersion,
            locale: engine.adventure.locale,
            adventureID: engine.adventure.id,
            adventureTitle: engine.adventure.title,
            capabilities: capabilities
        )
    }

    private var progressEvent: Event {
        .progress(engine.progressSummary, saved: savesEnabled && savedProgress == engine.progress)
    }

    private func perform(_ effect: Effect, replyTo: RequestID?) -> [StampedEvent] {
        switch effect {
        case .event(.ended(let reason)):
            return [stamp(.ended(reason: reason.rawValue, cutShort: false), replyTo: replyTo)]
        case .event(let event):
            return [stamp(.game(event), replyTo: replyTo)]
        case .save(let progress):
            var events: [StampedEvent] = []
            if savesEnabled {
                do {
                    try store.save(SaveData(progress, in: engine.adventure))
                    savedProgress = progress
                } catch {
                    let message = "progress could not be saved (\(store.location)): \(error); the game goes on"
                    events.append(stamp(.error(ProtocolError(.saveFailed, message)), replyTo: replyTo))
                }
            }
            events.append(stamp(progressEvent, replyTo: replyTo))
            return events
        }
    }

    /// Brings back a blob's state, or refuses it with `bad_snapshot` and changes nothing.
    private func restore(_ blob: String) throws(ProtocolError) {
        let payload = try SnapshotCodec.decode(blob, engineVersion: Self.engineVersion)
        guard payload.adventure == engine.adventure.id else {
            throw SnapshotCodec.refusal(
                "it belongs to the adventure \"\(payload.adventure)\", not \"\(engine.adventure.id)\""
            )
        }
        var restored = engine
        do {
            try restored.restore(payload.state)
        } catch {
            throw SnapshotCodec.refusal(error.description)
        }
        engine = restored
        savedProgress = payload.saved
        if let time = payload.clock, let virtual = clock as? VirtualClock { virtual.reset(to: time) }
        // The restore's done takes the number the snapshot's done had, so what follows is numbered
        // as it was; numbers never go back within a session.
        sequence = max(sequence, payload.seq - 1)
    }

    private func stamp(_ event: Event, replyTo: RequestID?) -> StampedEvent {
        sequence += 1
        return StampedEvent(seq: sequence, replyTo: replyTo, generation: engine.generation, event: event)
    }
}
