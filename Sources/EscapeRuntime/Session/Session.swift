// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
public import EscapeProtocol
import EscapeSaves

/// One game behind the protocol, as a state machine: inputs in, actions out.
///
/// Every front end drives a session through its owner (the `EventLoop`, or a ``SessionHost`` in
/// tests and embedders): the pipe feeds it framed lines, the Braille and console front ends feed it
/// commands they made. The session answers each ``SessionInput`` with ``SessionAction``s — events to
/// send, progress to save, when to wake it, that it is over — and does no I/O, no sleeping and no clock
/// reading of its own: the time comes with every input.
///
/// On the real clock a `wait` is a deadline, not a sleep: the session asks to be woken when it
/// passes, and keeps the lines that arrive meanwhile to carry them out, in order, once it has
/// answered the `wait`; the hints and time announcements that fall due meanwhile are sent when due, on
/// their own. The end of the input or a stop cuts a pending `wait` short. What it keeps is
/// bounded by its owner: once ``maximumQueuedLines`` lines or ``maximumQueuedBytes`` bytes wait,
/// ``acceptsInput`` turns `false` and the owner reads no more until it turns `true` again
/// (back-pressure). A ``SessionInput/question(_:)`` (an observer of a shared game asking) is answered
/// at once, even during a `wait`.
public struct Session: Sendable {
    /// The engine's version, reported in `hello`.
    public static let engineVersion = "0.1.0"
    /// The protocol versions the engine speaks.
    public static let protocolVersions: [ProtocolVersion] = [.v1_0, .v1_1, .v1_2, .v1_3]
    /// The most events one line may send: a batch that would send more is refused (`too_many_events`).
    public static let maximumEventsPerLine = 10_000
    /// The most time the `wait`s of one line may let pass, in milliseconds (one day): a batch whose
    /// waits add up to more is refused before it runs.
    public static let maximumWaitPerLine = 86_400_000
    /// The most lines kept during a real-clock `wait` before ``acceptsInput`` turns `false`.
    public static let maximumQueuedLines = 1024
    /// The most bytes of lines kept during a real-clock `wait` before ``acceptsInput`` turns `false`.
    public static let maximumQueuedBytes = 1 << 20

    /// The game.
    public private(set) var engine: Engine
    /// The session's own words, in the engine's language.
    private var sessionWords: SessionWords { SessionWords(engine.words.language) }
    /// What the client said in `hello`, if it did.
    public private(set) var client: ClientHello? {
        didSet {
            wantsValidActions = client?.want.contains("validActions") == true
            omitted = OmittedEvents(client?.omit ?? [])
        }
    }
    /// Whether the client asked for `validActions` after each focus: asked after every command.
    private var wantsValidActions = false
    /// The types of events the client does without (`hello`'s `omit`): never sent, no `seq` spent.
    private var omitted = OmittedEvents()
    /// The last `validActions` event sent, which `validActions` with `ifChanged` compares with (part
    /// of the session's value, so a refused batch takes back what it sent).
    private var lastValidActions: Event?
    /// What `observe` reports: what was said and heard since it last did.
    private var observer = Observer()
    /// The valid actions the command just carried out found, for an `observe` right after it (a
    /// step's batch asks `validActions`, then `observe`): nothing can change between two questions.
    private var actionsJustFound: [ValidAction]?
    /// Whether the session has ended (`quit`, a stop or the end of input); nothing more is accepted.
    public private(set) var isFinished = false

    private var sequence = 0
    private var clock: Clock
    private var writable: Bool
    private var savedProgress: EscapeCore.Progress?
    private var startupProblems: [ProtocolError]
    private var started = false
    /// A real-clock `wait` being waited out.
    private var pendingWait: PendingWait?
    /// Inputs that arrived during a pending `wait`, in order.
    private var queue = InputQueue()
    /// What the input being handled asks for, in order, but for the events at its end (in `sending`).
    private var outbox: [SessionAction] = []
    /// The events sent since the last other action, to go in the outbox as one `send`.
    private var sending: [StampedEvent] = []
    /// Whether the request being handled sent an error: a run of typed requests stops there.
    private var refused = false
    /// The protocol version agreed in `hello`: 1.0 until a client asks for more.
    public private(set) var dialect: Dialect = .v10
    /// Whether `ended` was sent for the game being played (it escaped): neither coming back to the end
    /// screen nor a later `quit` repeats it; `replay` starts a new game.
    private var endedSent = false

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - adventure: The validated adventure.
    ///   - options: Hint timing, the seed and time pressure.
    ///   - startup: The progress found in the save and whether it may be written (see ``SaveKeeper``).
    ///   - clock: Virtual (time moves with `wait`) or real (time comes with every input).
    ///   - now: The time as the session is made, on the real clock.
    public init(
        adventure: Adventure,
        options: EngineOptions,
        startup: SaveStartup = .fresh,
        clock: SessionClock,
        now: Int64 = 0
    ) {
        switch clock {
        case .virtual(let start): self.clock = .virtual(start)
        case .real: self.clock = .real(now)
        }
        writable = startup.writable
        startupProblems = startup.problems
        savedProgress = startup.progress
        engine = Engine(
            adventure: adventure,
            options: options,
            progress: startup.progress ?? .fresh,
            now: self.clock.time
        )
    }

    /// Whether the opening was sent.
    public var hasStarted: Bool { started }

    /// Whether the owner may hand the session more lines now.
    ///
    /// `false` while a real-clock `wait` keeps ``maximumQueuedLines`` lines or ``maximumQueuedBytes``
    /// bytes. The owner then stops reading its input (what one read already brought may still come)
    /// until the `wait` is answered.
    public var acceptsInput: Bool {
        pendingWait == nil || (queue.count < Self.maximumQueuedLines && queue.bytes < Self.maximumQueuedBytes)
    }

    /// How many inputs wait behind a pending `wait`.
    public var queuedInputs: Int { queue.count }

    /// Whether time moves only with `wait`.
    public var isVirtual: Bool {
        if case .virtual = clock { true } else { false }
    }

    /// When the session next wants ``SessionInput/time``.
    ///
    /// The end of a pending `wait`, or on the real clock the next hint or time announcement, whichever
    /// comes first (a hint or the torch's warning falling due during a `wait` is told when due, not
    /// held until the `wait` ends); `nil` on a virtual clock with nothing pending.
    public var nextDeadline: Int64? {
        guard !isFinished else { return nil }
        guard case .real = clock else { return pendingWait?.until }
        return [pendingWait?.until, engine.nextDeadline].compactMap { $0 }.min()
    }

    /// Handles one input.
    ///
    /// - Parameters:
    ///   - input: What happened.
    ///   - now: The time on the real clock, in milliseconds (ignored on a virtual clock).
    /// - Returns: What to do, in order; the last action is always ``SessionAction/wake(at:)`` or
    ///   ``SessionAction/finish``.
    public mutating func handle(_ input: SessionInput, now: Int64) -> [SessionAction] {
        guard !isFinished else { return [] }
        actionsJustFound = nil  // (time may have passed)
        clock.observe(now)
        if !started, input != .start { open() }
        process(input)
        drain()
        flushSending()
        var actions = outbox
        outbox = []
        actions.append(isFinished ? .finish : .wake(at: nextDeadline))
        return actions
    }

    // MARK: - Inputs

    private mutating func process(_ input: SessionInput) {
        switch input {
        case .start:
            open()
        case .time:
            if let pendingWait, clock.time >= pendingWait.until { resumeAfterWait() }
            let before = sequence
            tick()
            closeBurst(since: before)
        case .question(let request):
            if pendingWait != nil, request.command.isQuestion {
                // An observer's question never waits behind the controller's `wait`: answered as the
                // game stands, without letting time reach the engine before the `wait` is answered.
                answerAtOnce(request)
            } else {
                process(.request(request))
            }
        case .frame, .decoded, .request, .requests:
            if pendingWait == nil {
                carryOut(input)
                return
            }
            // A line is decoded once, as it arrives: a cancel is answered at once, ahead of what waits
            // behind the wait it ends; anything else is kept decoded until the wait is over.
            let kept = Kept(input)
            if let cancel = kept.cancel {
                handle(cancel)
            } else {
                queue.append(kept)
            }
        case .unrouted(let outcome, let origin):
            handle(outcome, from: origin)
        case .saveFailed(let location, let error):
            let before = sequence
            savedProgress = nil
            let message = sessionWords(.errorSaveFailed, ["location": location, "error": "\(error)"])
            emit(.error(ProtocolError(.saveFailed, message)), replyTo: nil)
            emit(progressEvent, replyTo: nil)
            closeBurst(since: before)
        case .endOfInput:
            // Nothing more will come: a pending wait ends now, and what arrived during it is answered.
            while pendingWait != nil {
                resumeAfterWait()
                drain()
            }
            end(.eof, replyTo: nil)
        case .inputEnds(let origin):
            // As at the end of the input, but the game goes on with the lines still to be read.
            while let wait = pendingWait, origin == nil || wait.replyTo?.origin?.client == origin?.client {
                resumeAfterWait()
                drain()
            }
        case .stop:
            if pendingWait != nil { resumeAfterWait() }
            queue = InputQueue()
            end(.quit, replyTo: nil)
        }
    }

    /// Carries out what arrived while no `wait` was pending.
    private mutating func carryOut(_ input: SessionInput) {
        switch input {
        case .frame(.tooLong(let length), let origin):
            refuseLongLine(length, from: origin)
        case .frame(.line(let bytes), let origin):
            handle(CommandDecoder.decode(bytes), from: origin)
        case .decoded(let outcome, _, let origin):
            handle(outcome, from: origin)
        case .request(let request):
            handle(request)
        case .requests(let requests):
            carryOut(requests)
        case .start, .time, .saveFailed, .endOfInput, .inputEnds, .stop, .question, .unrouted:
            process(input)
        }
    }

    /// Carries out what was kept during a `wait`.
    private mutating func carryOut(_ kept: Kept) {
        switch kept {
        case .line(let outcome, _, let origin):
            handle(outcome, from: origin)
        case .requests(let requests):
            carryOut(requests)
        case .other(let input):
            carryOut(input)
        }
    }

    /// Carries out a run of requests until one is refused, the session ends or one waits; what is left
    /// then is kept for after the wait.
    private mutating func carryOut(_ requests: [Request]) {
        for (index, request) in requests.enumerated() {
            handle(request)
            if isFinished || refused { return }
            if pendingWait != nil {
                let rest = Array(requests[(index + 1)...])
                if !rest.isEmpty { queue.putBack(.requests(rest)) }
                return
            }
        }
    }

    /// Answers a question during a pending `wait`, at once.
    private mutating func answerAtOnce(_ request: Request) {
        refused = false
        let replyTo = Reply(request)
        if let expected = request.ifGen, expected != engine.generation {
            emit(.error(staleError(expected: expected)), replyTo: replyTo)
            emit(.done, replyTo: replyTo)
            return
        }
        let suspended = execute(request.command, replyTo: replyTo)
        precondition(suspended == nil, "a question never waits")
        settle(replyTo: replyTo)
    }

    /// Carries out what was kept during a `wait`, until another `wait` is pending.
    private mutating func drain() {
        while pendingWait == nil, !isFinished, let next = queue.removeFirst() {
            carryOut(next)
        }
    }

    /// The session's opening: `hello`, any save problem, the screen, the focus and the progress.
    private mutating func open() {
        guard !started else { return }
        started = true
        emit(.hello(serverHello), replyTo: nil)
        for problem in startupProblems { emit(.error(problem), replyTo: nil) }
        perform(engine.opening(), replyTo: nil)
        emit(progressEvent, replyTo: nil)
    }

    /// Lets the clock's time reach the engine: announces hints that unlocked meanwhile.
    private mutating func tick() {
        perform(engine.advanceTime(to: clock.time), replyTo: nil)
    }

    /// Refuses a line longer than the framer takes.
    private mutating func refuseLongLine(_ length: Int, from origin: Origin?) {
        let error = ProtocolError(
            .lineTooLong,
            sessionWords(
                .errorLineTooLong,
                ["length": "\(length)", "limit": "\(LineFramer.defaultMaximumLineLength)"]
            )
        )
        let replyTo = Reply(id: nil, origin: origin)
        emit(.error(error), replyTo: replyTo)
        emit(.done, replyTo: replyTo)
    }

    /// Answers a decoded line that came from `origin`.
    private mutating func handle(_ outcome: CommandDecoder.Outcome, from origin: Origin?) {
        switch outcome {
        case .blank:
            break
        case .failure:
            // Worded as the version spoken words it; a request is taken so by `handle(_:)`, once.
            guard case .failure(let failure, let id) = dialect.take(outcome) else { return }
            refused = false
            let replyTo = Reply(id: id, origin: origin)
            emit(.error(ProtocolError(failure, in: engine.words)), replyTo: replyTo)
            emit(.done, replyTo: replyTo)
        case .request(var request):
            request.origin = origin
            handle(request)
        }
    }

    private mutating func handle(_ request: Request) {
        let replyTo = Reply(request)
        refused = false
        // A request that came decoded (a front end's own) is taken as the version spoken takes it.
        if case .failure(let failure, _) = dialect.take(.request(request)) {
            emit(.error(ProtocolError(failure, in: engine.words)), replyTo: replyTo)
            emit(.done, replyTo: replyTo)
            return
        }
        tick()
        if let expected = request.ifGen, expected != engine.generation {
            emit(.error(staleError(expected: expected)), replyTo: replyTo)
            emit(.done, replyTo: replyTo)
            return
        }
        if let until = execute(request.command, replyTo: replyTo) {
            pendingWait = PendingWait(replyTo: replyTo, until: until)
            return
        }
        settle(replyTo: replyTo)
    }

    /// Closes a request with its `done`.
    private mutating func settle(replyTo: Reply?) {
        guard !isFinished else { return }
        emit(.done, replyTo: replyTo)
    }

    /// Answers the pending `wait`: the time it let pass, then `done`.
    private mutating func resumeAfterWait() {
        guard let wait = pendingWait else { return }
        pendingWait = nil
        perform(engine.advanceTime(to: clock.time), replyTo: wait.replyTo)
        settle(replyTo: wait.replyTo)
    }

    /// The `stale` refusal of an `ifGen` that no longer holds.
    private func staleError(expected: Int) -> ProtocolError {
        ProtocolError(
            .stale,
            sessionWords(.errorStale, ["generation": "\(engine.generation)", "expected": "\(expected)"]),
            field: "ifGen"
        )
    }

    // MARK: - Commands

    /// Carries out one command: its events, without the closing `done`.
    ///
    /// - Returns: When a real-clock `wait` ends, if the command is one; `nil` when it is carried out.
    private mutating func execute(_ command: Command, replyTo: Reply?) -> Int64? {
        let actionsFound = actionsJustFound
        actionsJustFound = nil
        switch command {
        case .hello(let hello):
            client = hello
            let agreed = hello.best(among: Self.protocolVersions)
            if let agreed { dialect = Dialect(agreed) }
            if agreed == nil {
                let error = ProtocolError(
                    .unsupportedProtocol,
                    sessionWords(
                        .errorUnsupportedProtocol,
                        [
                            "version": Self.protocolVersions.map(\.description).joined(separator: ", "),
                            "requested": "\(hello.acceptedVersions)",
                        ]
                    ),
                    field: "protocol"
                )
                emit(.error(error), replyTo: replyTo)
            }
            var reply = serverHello
            reply.grantedWant = hello.want.filter { Self.wantable.contains($0) }
            reply.grantedOmit = omitted.isEmpty ? nil : omitted.names  // (set from this hello, above)
            emit(.hello(reply), replyTo: replyTo)
            if let timePressure = hello.timePressure {
                perform(engine.setTimePressure(timePressure, now: clock.time), replyTo: replyTo)
            }
            let renamed = engine.nameKeys(hello.keys)
            perform(renamed, replyTo: replyTo)
            // The opening's focus came before the client could ask: valid actions for it come now.
            let refocused = renamed.contains { if case .event(.focus) = $0 { true } else { false } }
            if hello.want.contains("validActions"), !refocused { emit(validActionsEvent, replyTo: replyTo) }
        case .game(let command):
            apply([command], replyTo: replyTo)
        case .onElement(let element, let command):
            apply([.focus(element: element), command], replyTo: replyTo)
        case .state:
            emitState(replyTo: replyTo)
        case .ping:
            break
        case .wait(let milliseconds):
            switch clock {
            case .virtual(let time):
                clock = .virtual(time.adding(saturating: Int64(milliseconds)))
                perform(engine.advanceTime(to: clock.time), replyTo: replyTo)
            case .real(let time):
                return time.adding(saturating: Int64(milliseconds))
            }
        case .validActions(let ifChanged):
            let event = validActionsEvent
            if case .validActions(_, let actions) = event { actionsJustFound = actions }
            if ifChanged, event == lastValidActions { break }
            emit(event, replyTo: replyTo)
        case .observe(let maxActions):
            let observation = observer.observe(engine, now: clock.time, maxActions: maxActions, actions: actionsFound)
            emit(.observation(observation), replyTo: replyTo)
        case .snapshot:
            let snapshot = SessionSnapshot(
                engine: Self.engineVersion,
                adventure: engine.adventure.id,
                seq: sequence + 2,  // the line after the snapshot event (its done, outside a batch)
                clock: isVirtual ? clock.time : nil,
                taken: isVirtual ? nil : clock.time,
                saved: savedProgress,
                state: engine.snapshot
            )
            emit(.snapshot(blob: SnapshotCodec.encode(snapshot)), replyTo: replyTo)
        case .restore(let blob):
            do {
                try restore(blob)
            } catch {
                emit(.error(error), replyTo: replyTo)
            }
        case .batch(let entries):
            runBatch(entries, replyTo: replyTo)
        case .cancel(let target):
            // Only the client that asked for the wait can cancel it.
            guard let wait = pendingWait, wait.replyTo?.id == target,
                wait.replyTo?.origin?.client == replyTo?.origin?.client
            else {
                let shown: String
                switch target {
                case .int(let number): shown = "\(number)"
                case .string(let text): shown = "\"\(text)\""
                }
                let message = sessionWords(.errorNoWaitToCancel, ["target": shown])
                emit(.error(ProtocolError(.notNow, message, field: "target")), replyTo: replyTo)
                return nil
            }
            resumeAfterWait()
        case .quit:
            end(.quit, replyTo: replyTo, answering: true)
        }
        return nil
    }

    /// Carries out a batch as one: if any of its commands is refused (or its `ifGen` no longer holds),
    /// nothing of the batch happened — state, `gen`, `seq` and saves are as before — and the error
    /// names `commands[i]`.
    private mutating func runBatch(_ entries: [BatchEntry], replyTo: Reply?) {
        if case .real = clock,
            let index = entries.firstIndex(where: { if case .wait = $0.command { true } else { false } })
        {
            let message = sessionWords(.errorBatchWaitsOnRealClock, [:])
            emit(
                .error(
                    ProtocolError(
                        .invalidParams,
                        engine.words(.decodeInBatch, ["index": "\(index)", "message": message]),
                        field: "commands[\(index)]"
                    )
                ),
                replyTo: replyTo
            )
            return
        }
        var waited = 0
        for (index, entry) in entries.enumerated() {
            guard case .wait(let milliseconds) = entry.command else { continue }
            waited += milliseconds
            guard waited > Self.maximumWaitPerLine else { continue }
            let message = sessionWords(
                .errorBatchTooMuchTime,
                ["total": "\(waited)", "limit": "\(Self.maximumWaitPerLine)"]
            )
            let field = "commands[\(index)].ms"
            emit(
                .error(ProtocolError(.invalidParams, "commands[\(index)]: " + message, field: field)),
                replyTo: replyTo
            )
            return
        }
        let before = self
        for (index, entry) in entries.enumerated() {
            if let expected = entry.ifGen, expected != engine.generation {
                refuseBatch(staleError(expected: expected), at: index, restoring: before, replyTo: replyTo)
                return
            }
            refused = false
            let suspended = execute(entry.command, replyTo: replyTo)
            precondition(suspended == nil, "a batch never waits on the real clock")
            if isFinished { return }
            if refused, let error = lastError {
                refuseBatch(error, at: index, restoring: before, replyTo: replyTo)
                return
            }
            if sequence - before.sequence > Self.maximumEventsPerLine {
                let message = sessionWords(.errorTooManyEvents, ["limit": "\(Self.maximumEventsPerLine)"])
                refuseBatch(ProtocolError(.tooManyEvents, message), at: index, restoring: before, replyTo: replyTo)
                return
            }
        }
    }

    /// The last error in the outbox.
    private var lastError: ProtocolError? {
        for stamped in sending.reversed() {
            if case .error(let error) = stamped.event { return error }
        }
        for case .send(let events) in outbox.reversed() {
            for stamped in events.reversed() {
                if case .error(let error) = stamped.event { return error }
            }
        }
        return nil
    }

    /// Undoes a batch and reports why, naming the command at fault.
    private mutating func refuseBatch(
        _ error: ProtocolError,
        at index: Int,
        restoring before: Session,
        replyTo: Reply?
    ) {
        self = before
        let field = "commands[\(index)]" + (error.field.map { "." + $0 } ?? "")
        let message = engine.words(.decodeInBatch, ["index": "\(index)", "message": error.message])
        emit(.error(ProtocolError(error.code, message, field: field)), replyTo: replyTo)
    }

    /// Applies game commands as one: if one is refused, the state is left as it was before the first.
    private mutating func apply(_ commands: [GameCommand], replyTo: Reply?) {
        // The engine refuses one command as a whole, leaving itself as it was: only several need a
        // checkpoint to go back to.
        let before = commands.count > 1 ? engine.checkpoint : nil
        var effects: [Effect] = []
        do {
            for command in commands {
                // The first command's effects taken as they are, not copied one by one.
                let applied = try engine.apply(command, now: clock.time)
                if effects.isEmpty { effects = applied } else { effects += applied }
            }
        } catch {
            if let before { engine.restore(before) }
            emit(.error(ProtocolError(error)), replyTo: replyTo)
            return
        }
        perform(effects, replyTo: replyTo)
    }

    /// Ends the session: `ended` (unless the game on show already said it escaped), the `quit`
    /// request's `done`, and `bye`.
    private mutating func end(_ reason: EndReason, replyTo: Reply?, answering request: Bool = false) {
        if !endedSent {
            emit(.ended(reason: reason, cutShort: engine.screen.kind != .end), replyTo: replyTo)
        }
        if request { emit(.done, replyTo: replyTo) }
        emit(.bye, replyTo: replyTo)
        isFinished = true
    }

    /// Brings back a blob's state, or refuses it with `bad_snapshot` and changes nothing.
    private mutating func restore(_ blob: String) throws(ProtocolError) {
        let payload = try SnapshotCodec.decode(blob, engineVersion: Self.engineVersion, words: engine.words)
        guard payload.adventure == engine.adventure.id else {
            throw SnapshotCodec.refusal(
                engine.words(.snapshotOtherAdventure, ["other": payload.adventure, "adventure": engine.adventure.id]),
                words: engine.words
            )
        }
        // Nothing in a blob is trusted (anyone can sign one): every number is checked before it is used.
        func refuse(_ field: String, _ problem: EngineWords.Key) -> ProtocolError {
            SnapshotCodec.refusal(
                SnapshotMismatch(field: field, problem: problem).reason(in: engine.words),
                words: engine.words
            )
        }
        let safe = Int64.safeInteger
        // A `seq` the session could count on from for ever, not one at the edge of what JSON holds.
        guard (0...Engine.maximumRestoredCounter).contains(payload.seq) else {
            throw refuse("seq", .snapshotOutOfRange)
        }
        if let time = payload.clock, !(-safe...safe).contains(time) { throw refuse("clock", .snapshotOutOfRange) }
        if let time = payload.taken, !(-safe...safe).contains(time) { throw refuse("taken", .snapshotOutOfRange) }
        if let saved = payload.saved, !engine.reachable(saved) { throw refuse("saved", .snapshotImpossible) }
        var restored = engine
        var restoredClock = clock
        if let time = payload.clock, case .virtual = clock { restoredClock = .virtual(time) }
        do {
            // Times are restored relative to when the snapshot was taken, on whichever clock it was.
            try restored.restore(payload.state, takenAt: payload.clock ?? payload.taken, now: restoredClock.time)
        } catch {
            throw SnapshotCodec.refusal(error.reason(in: engine.words, under: "state."), words: engine.words)
        }
        engine = restored
        clock = restoredClock
        // `progress.saved` tells what this session stored, never what the blob claims.
        // The restore's done takes the number the snapshot's done had, so what follows is numbered
        // as it was; numbers never go back within a session.
        sequence = max(sequence, payload.seq - 1)
    }

    // MARK: - Events

    /// The whole state as events, in the agreed protocol's words: screen, focus, rotor and actions
    /// where present, a timed level's clock (1.1), progress, and valid actions when the client wants them.
    private mutating func emitState(replyTo: Reply?) {
        var events: [GameEvent] = [.screen(engine.screen), .focus(engine.focus)]
        if let rotor = engine.rotor { events.append(.rotor(rotor)) }
        if let actions = engine.actions { events.append(.actions(actions)) }
        // A timed level's clock as it stands (protocol 1.1 only: the dialect drops it in 1.0).
        if let timer = engine.timer(now: clock.time) { events.append(.timer(timer)) }
        for event in events {
            if let shaped = dialect.shape(event, focus: engine.focus, focusFollows: false) {
                emit(.game(shaped), replyTo: replyTo)
            }
        }
        emit(progressEvent, replyTo: replyTo)
        if wantsValidActions { emit(validActionsEvent, replyTo: replyTo) }
    }

    private var validActionsEvent: Event {
        .validActions(screen: engine.screen.id, actions: engine.validActions)
    }

    /// The extra events a client may ask for in `hello`'s `want`.
    static let wantable = ["validActions"]

    private var serverHello: ServerHello {
        var capabilities = ServerHello.gameCapabilities
        capabilities += dialect.shape(capabilities: ["chapterIds", "elementChanged", "idle", "ranges", "timer"])
        if isVirtual { capabilities.append("virtualClock") }
        capabilities.sort()
        return ServerHello(
            protocolVersion: EventEncoder.protocolVersion,
            version: dialect.version,
            versions: dialect.versions,
            engineVersion: Self.engineVersion,
            locale: engine.adventure.locale,
            adventureID: engine.adventure.id,
            adventureTitle: engine.adventure.title,
            capabilities: capabilities
        )
    }

    private var progressEvent: Event {
        .progress(
            dialect.shape(engine.progressSummary),
            saved: writable && savedProgress?.hasSameEarnings(as: engine.progress) == true
        )
    }

    /// Turns the engine's effects into events and saves, in the agreed protocol's words; valid
    /// actions follow when a focus was sent and the client wants them.
    private mutating func perform(_ effects: [Effect], replyTo: Reply?) {
        if engine.showsIntro { endedSent = false }
        var focusSent = false
        // Whether 1.0 sent a focus: for `efb serve`'s 1.0 clients, when this speaks a later version.
        var focusSentIn10 = false
        // The focus after the command, which only a changed element's wording needs: found once, if at all.
        var focusNow: FocusState?
        for (index, effect) in effects.enumerated() {
            switch effect {
            case .event(.ended(let reason)):
                guard !endedSent else { continue }
                emit(.ended(reason: reason, cutShort: false), replyTo: replyTo)
                endedSent = true
            case .event(.elementChanged(let element)):
                observer.noteChanged(element)
                let focusFollows = effects[(index + 1)...].contains {
                    if case .event(.focus) = $0 { true } else { false }
                }
                let focus = focusNow ?? engine.focus
                focusNow = focus
                let changed = GameEvent.elementChanged(element)
                guard let event = dialect.shape(changed, focus: focus, focusFollows: focusFollows) else { continue }
                if case .focus = event { focusSent = true }
                // How 1.0 would say a changed element, for `efb serve`'s 1.0 clients: only this knows.
                var in10 = Version10Wording()
                if dialect != .v10,
                    case .focus(let focus) = Dialect.v10.shape(changed, focus: focus, focusFollows: focusFollows)
                {
                    in10.focus = focus
                    focusSentIn10 = true
                }
                emit(.game(event), replyTo: replyTo, in10: in10)
            case .event(let event):
                // Only a changed element's wording depends on the focus; any focus serves the others.
                guard let event = dialect.shape(event, refocus: { _ in nil }) else { continue }
                if case .focus = event { focusSent = true }
                emit(.game(event), replyTo: replyTo)
            case .save(let progress):
                if writable {
                    flushSending()
                    outbox.append(.save(SaveData(progress, in: engine.adventure)))
                    savedProgress = progress
                }
                emit(progressEvent, replyTo: replyTo)
            }
        }
        guard wantsValidActions else { return }
        if focusSent {
            emit(validActionsEvent, replyTo: replyTo)
        } else if focusSentIn10, let last = sending.indices.last {
            // The changed element came last of the effects: 1.0's valid actions follow it.
            sending[last].in10.validActionsAfter = validActionsEvent
        }
    }

    /// Ends a burst of events the session sent on its own with `idle`, in protocol 1.1 and later.
    private mutating func closeBurst(since before: Int) {
        guard dialect != .v10, sequence > before else { return }
        emit(.idle, replyTo: nil)
    }

    /// Stamps an event and puts it in the outbox, after whatever is there.
    private mutating func emit(_ event: consuming Event, replyTo: Reply?, in10: Version10Wording = Version10Wording()) {
        observer.note(event)
        if !omitted.isEmpty, omitted.contains(event) { return }
        sequence = sequence.countingOn
        switch event {
        case .error: refused = true
        case .validActions: lastValidActions = copy event
        default: break
        }
        // Appended in place: a line's events cost linear time however many it sends (a batch's too).
        // Room for a command's usual few at once, rather than growing from one.
        if sending.isEmpty { sending.reserveCapacity(8) }
        // Made in the array and finished there: the event is moved in, never copied.
        sending.append(
            StampedEvent(
                seq: sequence,
                replyTo: replyTo?.id,
                generation: engine.generation,
                event: event,
                protocolMinor: dialect.minor
            )
        )
        let last = sending.count - 1
        sending[last].in10 = in10
        if let origin = replyTo?.origin { sending[last].origin = origin }
    }

    /// Puts the events sent so far in the outbox as one `send`, before another action.
    private mutating func flushSending() {
        guard !sending.isEmpty else { return }
        // Room for the wake that ends every handling too: one array a command, not two.
        if outbox.isEmpty { outbox.reserveCapacity(2) }
        outbox.append(.send(sending))
        sending = []
    }
}

// MARK: - State

extension Session {
    /// The session's time.
    private enum Clock: Sendable {
        /// Moves only with `wait`.
        case virtual(Int64)
        /// The owner's monotonic clock, as last observed.
        case real(Int64)

        var time: Int64 {
            switch self {
            case .virtual(let time), .real(let time): time
            }
        }

        /// Takes the owner's time on the real clock; a virtual clock does not move with it.
        mutating func observe(_ now: Int64) {
            if case .real(let time) = self { self = .real(max(time, now)) }
        }
    }

    /// An input kept during a pending `wait`: a line kept decoded, with its length.
    private enum Kept: Sendable {
        case line(CommandDecoder.Outcome, length: Int, origin: Origin?)
        case requests([Request])
        case other(SessionInput)

        init(_ input: SessionInput) {
            switch input {
            case .frame(.line(let bytes), let origin):
                self = .line(CommandDecoder.decode(bytes), length: bytes.count, origin: origin)
            case .decoded(let outcome, let length, let origin):
                self = .line(outcome, length: length, origin: origin)
            case .requests(let requests): self = .requests(requests)
            default: self = .other(input)
            }
        }

        /// The `cancel` request it is, if it is one.
        var cancel: Request? {
            switch self {
            case .line(.request(var request), _, let origin):
                guard case .cancel = request.command else { return nil }
                request.origin = origin
                return request
            case .other(.request(let request)):
                if case .cancel = request.command { return request }
                return nil
            case .line, .requests, .other:
                return nil
            }
        }
    }

    /// The inputs kept during a pending `wait`: first in, first out, each in constant time.
    private struct InputQueue: Sendable {
        private var items: [Kept?] = []
        private var head = 0
        /// The bytes of the lines kept.
        private(set) var bytes = 0

        /// How many inputs are kept.
        var count: Int { items.count - head }

        mutating func append(_ input: Kept) {
            items.append(input)
            bytes += Self.size(of: input)
        }

        /// Puts an input back at the front (what is left of a run of requests).
        mutating func putBack(_ input: Kept) {
            if head > 0 {
                head -= 1
                items[head] = input
            } else {
                items.insert(input, at: 0)
            }
            bytes += Self.size(of: input)
        }

        mutating func removeFirst() -> Kept? {
            guard head < items.count, let input = items[head] else { return nil }
            items[head] = nil
            head += 1
            bytes -= Self.size(of: input)
            if head == items.count {
                items.removeAll(keepingCapacity: items.count <= 4096)
                head = 0
            }
            return input
        }

        private static func size(of input: Kept) -> Int {
            if case .line(_, let length, _) = input { length } else { 0 }
        }
    }

    /// Whom the events of a request answer: its id, echoed as `replyTo`, and where it came from.
    private struct Reply: Sendable {
        /// The client's id for the request.
        var id: RequestID?
        /// The front end's origin for the request.
        var origin: Origin?

        init(id: RequestID?, origin: Origin?) {
            self.id = id
            self.origin = origin
        }

        init(_ request: Request) {
            self.init(id: request.id, origin: request.origin)
        }
    }

    /// A real-clock `wait` being waited out.
    private struct PendingWait: Sendable {
        /// The request it answers.
        var replyTo: Reply?
        /// When it is over.
        var until: Int64
    }
}

/// The protocol version a session speaks with its client, and how game events are worded in it.
public enum Dialect: Sendable, Hashable, Comparable {
    /// Protocol 1.0: no `elementChanged`, `timer` or `idle`; a changed focused element is a second
    /// `focus`; time announcements are `feedback`; `gen` only on the events that always had it.
    case v10
    /// Protocol 1.1.
    case v11
    /// Protocol 1.2: 1.1, with the chapter's id on chapter and level screens and in `progress`.
    case v12
    /// Protocol 1.3: 1.2, with an adjustable element's `range` (the encoders write it from the minor
    /// number) and `adjust` to the first or last value.
    case v13

    /// The dialect of an agreed version.
    init(_ version: ProtocolVersion) {
        self =
            version >= .v1_3 ? .v13 : version >= .v1_2 ? .v12 : version >= .v1_1 ? .v11 : .v10
    }

    /// The minor version number.
    var minor: Int {
        switch self {
        case .v10: 0
        case .v11: 1
        case .v12: 2
        case .v13: 3
        }
    }

    /// Whether `adjust` goes to the first or last value too (1.3), not only one step.
    var adjustsToEnds: Bool { self == .v13 }

    /// A decoded line as this version takes it: before 1.3 an `adjust` to the first or last value is a
    /// bad `direction`, refused as one, and a bad `direction` names only the steps.
    func take(_ outcome: CommandDecoder.Outcome) -> CommandDecoder.Outcome {
        adjustsToEnds ? outcome : CommandDecoder.steppingOnly(outcome)
    }

    /// The version spoken.
    var version: ProtocolVersion { ProtocolVersion(major: 1, minor: minor) }

    /// The versions a `hello` in this version lists: every version the engine speaks, whichever is spoken.
    var versions: [ProtocolVersion] { Session.protocolVersions }

    /// The capabilities of a `hello` in this version, from those of the newest.
    ///
    /// - Parameter capabilities: What the engine can do, in the newest version.
    /// - Returns: The capabilities without those this version has no word for, in the same order.
    func shape(capabilities: [String]) -> [String] {
        capabilities.filter {
            switch $0 {
            case "chapterIds": self >= .v12
            case "ranges": self == .v13
            case "elementChanged", "idle", "timer": self != .v10
            default: true
            }
        }
    }

    /// A `hello` of a newer version as this version says it: its version, versions and capabilities.
    func shape(_ hello: ServerHello) -> ServerHello {
        var hello = hello
        hello.version = version
        hello.versions = versions
        hello.capabilities = shape(capabilities: hello.capabilities)
        return hello
    }

    /// Where the player stands, as this version says it: each chapter's progress is protocol 1.2's.
    func shape(_ summary: ProgressSummary) -> ProgressSummary {
        guard self < .v12 else { return summary }
        var summary = summary
        summary.chapterID = nil
        summary.chapters = []
        return summary
    }

    /// A game event as this protocol version says it, or `nil` when it has no word for it.
    ///
    /// - Parameters:
    ///   - event: The engine's event.
    ///   - focus: The focus after the command.
    ///   - focusFollows: Whether the command's effects move the focus after this event.
    /// - Returns: The event to send, or `nil` to send nothing.
    func shape(_ event: GameEvent, focus: FocusState, focusFollows: Bool) -> GameEvent? {
        // 1.0 told only of the focused element, by sending its focus again.
        shape(event) { $0.id == focus.element.id && !focusFollows ? focus : nil }
    }

    /// A game event as this protocol version says it, or `nil` when it has no word for it.
    ///
    /// - Parameters:
    ///   - event: The engine's event, or that of a newer version.
    ///   - refocus: 1.0's word for a changed element: the `focus` sent again, or `nil` for nothing.
    /// - Returns: The event to send, or `nil` to send nothing.
    func shape(_ event: GameEvent, refocus: (Element) -> FocusState?) -> GameEvent? {
        if self < .v12, case .screen(var screen) = event, screen.chapterID != nil {
            screen.chapterID = nil
            return shape(.screen(screen), refocus: refocus)
        }
        guard self == .v10 else { return event }
        switch event {
        case .elementChanged(let element):
            return refocus(element).map(GameEvent.focus)
        case .timer:
            return nil
        case .announce(var announcement):
            if announcement.category == .time { announcement.category = .feedback }
            return .announce(announcement)
        case .screen(var screen):
            screen.hints = nil
            return .screen(screen)
        case .focus, .rotor, .actions, .result, .sound, .ended, .ambient:
            return event
        }
    }
}

/// The types of events a client may do without (`hello`'s `omit`).
///
/// What only a player that hears, or reads verdicts, needs, and the game's own events, which a bot
/// that reads `observe`'s text does without. The protocol's (`done`, `error`, `hello`, `bye`, ...)
/// always come.
struct OmittedEvents: OptionSet, Sendable, Hashable {
    let rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The types named in `names` that may be omitted; the others are ignored.
    init(_ names: [String]) {
        self.init(rawValue: 0)
        for (index, name) in Self.names.enumerated() where names.contains(name) {
            insert(OmittedEvents(rawValue: 1 << index))
        }
    }

    /// `sound`: the cues and the chapters' ambiences (both `sound` on the wire).
    static let sound = OmittedEvents(rawValue: 1 << 0)
    /// `result`: the verdicts on answers (what follows them, an announcement and the next screen, still comes).
    static let result = OmittedEvents(rawValue: 1 << 1)
    static let announce = OmittedEvents(rawValue: 1 << 2)
    static let screen = OmittedEvents(rawValue: 1 << 3)
    /// `focus`, and a focus that says a changed element in protocol 1.0.
    static let focus = OmittedEvents(rawValue: 1 << 4)
    static let elementChanged = OmittedEvents(rawValue: 1 << 5)
    static let rotor = OmittedEvents(rawValue: 1 << 6)
    static let actions = OmittedEvents(rawValue: 1 << 7)
    static let timer = OmittedEvents(rawValue: 1 << 8)
    static let progress = OmittedEvents(rawValue: 1 << 9)
    static let idle = OmittedEvents(rawValue: 1 << 10)

    /// The wire names, in the order of the bits.
    static let names = [
        "sound", "result", "announce", "screen", "focus", "elementChanged", "rotor", "actions", "timer", "progress",
        "idle",
    ]

    /// The wire names of the types in the set, in the order of the bits.
    var names: [String] {
        Self.names.indices.filter { contains(OmittedEvents(rawValue: 1 << $0)) }.map { Self.names[$0] }
    }

    /// Whether `event` is of a type in the set.
    func contains(_ event: borrowing Event) -> Bool {
        switch event {
        case .game(.sound), .game(.ambient): contains(.sound)
        case .game(.result): contains(.result)
        case .game(.announce): contains(.announce)
        case .game(.screen): contains(.screen)
        case .game(.focus): contains(.focus)
        case .game(.elementChanged): contains(.elementChanged)
        case .game(.rotor): contains(.rotor)
        case .game(.actions): contains(.actions)
        case .game(.timer): contains(.timer)
        case .progress: contains(.progress)
        case .idle: contains(.idle)
        default: false
        }
    }
}
