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
/// Its life is a phase: not started (the opening comes with the first input), playing, waiting out
/// a real-clock `wait`, catching up with what arrived meanwhile, finished. On the real clock a `wait`
/// is a deadline, not a sleep: the session asks to be woken when it passes, and keeps the lines that
/// arrive meanwhile to carry them out, in order, once it has answered the `wait`; the hints and time
/// announcements that fall due meanwhile are sent when due, on their own. The end of the input or a
/// stop cuts a pending `wait` short. What it keeps is bounded by its owner: once
/// ``maximumQueuedLines`` lines or ``maximumQueuedBytes`` bytes wait, ``acceptsInput`` turns `false`
/// and the owner reads no more until it turns `true` again (back-pressure). A
/// ``SessionInput/question(_:)`` (an observer of a shared game asking) is answered at once, even during
/// a `wait`.
public struct Session: Sendable {
    /// The engine's version, reported in `hello`.
    public static let engineVersion = "0.1.0"
    /// The protocol versions the engine speaks.
    public static let protocolVersions = Dialect.spokenVersions
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
    /// Where the session is in its life, with what that part of it holds.
    private var phase: Phase
    /// What the client agreed in `hello`: the version spoken, what it wants and what it does without.
    private var agreement = Agreement()
    /// The session's time.
    private var clock: Clock
    /// Whether progress may be written (not when the save is another game's, newer or unreadable).
    private let writable: Bool
    /// The progress last saved (or found in the save); `nil` once a save failed.
    private var savedProgress: EscapeCore.Progress?
    /// The `seq` of the last event sent.
    private var sequence = 0
    /// What `observe` reports: what was said and heard since it last did.
    private var observer = Observer()
    /// The last `validActions` event sent, which `validActions` with `ifChanged` compares with (part
    /// of the session's value, so a refused batch takes back what it sent).
    private var lastValidActions: Event?
    /// The valid actions the command just carried out found, for an `observe` right after it (a
    /// step's batch asks `validActions`, then `observe`): nothing can change between two questions.
    private var actionsJustFound: [ValidAction]?
    /// What the input being handled asks for, in order, but for the events at its end (in `sending`).
    private var outbox: [SessionAction] = []
    /// The events sent since the last other action, to go in the outbox as one `send`.
    private var sending: [StampedEvent] = []

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
        savedProgress = startup.progress
        phase = .notStarted(problems: startup.problems)
        engine = Engine(
            adventure: adventure,
            options: options,
            progress: startup.progress ?? .fresh,
            now: self.clock.time
        )
    }

    /// What the client said in its last `hello`, if it did.
    public var client: ClientHello? { agreement.hello }

    /// The protocol version agreed in `hello`: 1.0 until a client asks for more.
    public var dialect: Dialect { agreement.dialect }

    /// Whether the opening was sent.
    public var hasStarted: Bool {
        switch phase {
        case .notStarted: false
        case .playing, .waiting, .catchingUp, .finished: true
        }
    }

    /// Whether the session has ended (`quit`, a stop or the end of input); nothing more is accepted.
    public var isFinished: Bool {
        switch phase {
        case .finished: true
        case .notStarted, .playing, .waiting, .catchingUp: false
        }
    }

    /// Whether the owner may hand the session more lines now.
    ///
    /// `false` while a real-clock `wait` keeps ``maximumQueuedLines`` lines or ``maximumQueuedBytes``
    /// bytes. The owner then stops reading its input (what one read already brought may still come)
    /// until the `wait` is answered.
    public var acceptsInput: Bool {
        switch phase {
        case .waiting(_, let wait):
            wait.kept.count < Self.maximumQueuedLines && wait.kept.bytes < Self.maximumQueuedBytes
        case .notStarted, .playing, .catchingUp, .finished:
            true
        }
    }

    /// How many inputs wait behind a pending `wait`.
    public var queuedInputs: Int {
        switch phase {
        case .waiting(_, let wait): wait.kept.count
        case .catchingUp(_, let kept): kept.count
        case .notStarted, .playing, .finished: 0
        }
    }

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
        let waitEnds: Int64?
        switch phase {
        case .finished: return nil
        case .waiting(_, let wait): waitEnds = wait.until
        case .notStarted, .playing, .catchingUp: waitEnds = nil
        }
        guard case .real = clock else { return waitEnds }
        return [waitEnds, engine.nextDeadline].compactMap { $0 }.min()
    }

    /// Handles one input.
    ///
    /// Once the session is finished, every input is ignored: no action at all.
    ///
    /// - Parameters:
    ///   - input: What happened.
    ///   - now: The time on the real clock, in milliseconds (ignored on a virtual clock).
    /// - Returns: What to do, in order; the last action is always ``SessionAction/wake(at:)`` or
    ///   ``SessionAction/finish``.
    public mutating func handle(_ input: SessionInput, now: Int64) -> [SessionAction] {
        switch phase {
        case .finished:
            return []
        case .notStarted(let problems):
            clock.observe(now)
            // The opening comes first, whatever the input.
            open(reporting: problems)
        case .playing, .waiting, .catchingUp:
            clock.observe(now)
        }
        actionsJustFound = nil  // (time may have passed)
        process(input)
        catchUp()
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
            break  // (the opening was sent)
        case .time:
            if case .waiting(_, let wait) = phase, clock.time >= wait.until { answerWait() }
            let before = sequence
            tick()
            closeBurst(since: before)
        case .question(let request):
            if case .waiting = phase, request.command.isQuestion {
                // An observer's question never waits behind the controller's `wait`: answered as the
                // game stands, without letting time reach the engine before the `wait` is answered.
                answerAtOnce(request)
            } else {
                process(.request(request))
            }
        case .frame(.line(let bytes), let origin):
            // A line is decoded once, as it arrives, whether it is carried out now or kept.
            arrive(.line(CommandDecoder.decode(bytes), length: bytes.count, origin: origin))
        case .frame(.tooLong(let length), let origin):
            arrive(.tooLong(length: length, origin: origin))
        case .decoded(let outcome, let length, let origin):
            arrive(.line(outcome, length: length, origin: origin))
        case .request(let request):
            arrive(.request(request))
        case .requests(let requests):
            arrive(.requests(requests))
        case .keepingSnapshot(let request, let requests):
            arrive(.keepingSnapshot(for: request, then: requests))
        case .restoring(let kept, let request, let requests):
            arrive(.restoring(kept, as: request, then: requests))
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
            while case .waiting = phase {
                answerWait()
                catchUp()
            }
            switch phase {
            case .playing, .catchingUp:
                end(.eof, replyTo: nil)
            case .finished:
                break  // (a `quit` among what the wait kept ended the game)
            case .notStarted, .waiting:
                preconditionFailure("the session is open and waits for nothing")
            }
        case .inputEnds(let origin):
            // As at the end of the input, but the game goes on with the lines still to be read.
            while case .waiting(_, let wait) = phase,
                origin == nil || wait.replyTo?.origin?.client == origin?.client
            {
                answerWait()
                catchUp()
            }
        case .stop:
            // A pending wait is answered; what it kept is not: the game ends.
            if case .waiting = phase { answerWait() }
            end(.quit, replyTo: nil)
        }
    }

    /// Carries out a line or requests that arrived, or keeps them while a `wait` is pending; a `cancel`
    /// is answered at once, ahead of what waits behind the wait it ends.
    private mutating func arrive(_ incoming: Incoming) {
        switch phase {
        case .playing, .catchingUp:
            carryOut(incoming)
        case .waiting(let play, var wait):
            if let cancel = incoming.cancel {
                handle(cancel)
                return
            }
            // The phase lets go of the kept inputs meanwhile, so they grow in place, never copied.
            phase = .playing(play)
            wait.kept.append(incoming)
            phase = .waiting(play, wait)
        case .notStarted, .finished:
            preconditionFailure("an input is carried out between the opening and the end")
        }
    }

    /// Carries out a line or requests.
    private mutating func carryOut(_ incoming: Incoming) {
        switch incoming {
        case .line(let outcome, _, let origin):
            handle(outcome, from: origin)
        case .tooLong(let length, let origin):
            refuseLongLine(length, from: origin)
        case .request(let request):
            handle(request)
        case .requests(let requests):
            carryOut(requests)
        case .keepingSnapshot(let request, let requests):
            // Where a `snapshot` request would be carried out: after the clock's time reached the game.
            tick()
            flushSending()
            outbox.append(.kept(KeptSnapshot(snapshot(seq: sequence + 1)), for: request))
            carryOut(requests)
        case .restoring(let kept, let request, let requests):
            // As a `restore` request is carried out, from its `tick` to its `done`.
            let replyTo = Reply(id: request, origin: nil)
            let mark = sequence
            tick()
            do {
                try restore(kept.payload)
            } catch {
                emit(.error(error), replyTo: replyTo)
            }
            settle(replyTo: replyTo)
            if refusal(since: mark) == nil { carryOut(requests) }
        }
    }

    /// Carries out a run of requests until one is refused, the session ends or one waits; what is left
    /// then is kept for after the wait.
    private mutating func carryOut(_ requests: [Request]) {
        for (index, request) in requests.enumerated() {
            let mark = sequence
            handle(request)
            switch phase {
            case .playing, .catchingUp:
                if refusal(since: mark) != nil { return }
            case .waiting(let play, var wait):
                let rest = requests[(index + 1)...]
                guard !rest.isEmpty else { return }
                phase = .playing(play)  // (lets go of the kept inputs while they change)
                wait.kept.putBack(.requests(Array(rest)))
                phase = .waiting(play, wait)
                return
            case .finished:
                return
            case .notStarted:
                preconditionFailure("a request is carried out once the opening was sent")
            }
        }
    }

    /// Carries out what a `wait` kept, in order, until another `wait` is pending or the session ends.
    private mutating func catchUp() {
        while let next = takeKept() { carryOut(next) }
    }

    /// The next input a `wait` kept, while catching up; once none is left, the session plays on.
    private mutating func takeKept() -> Incoming? {
        guard case .catchingUp(let play, var kept) = phase else { return nil }
        // The phase lets go of the kept inputs meanwhile, so the first is taken in place, never copied.
        phase = .playing(play)
        let next = kept.removeFirst()
        if !kept.isEmpty { phase = .catchingUp(play, kept) }
        return next
    }

    /// Answers a question during a pending `wait`, at once.
    private mutating func answerAtOnce(_ request: Request) {
        let replyTo = Reply(request)
        if let expected = request.ifGen, expected != engine.generation {
            emit(.error(staleError(expected: expected)), replyTo: replyTo)
            emit(.done, replyTo: replyTo)
            return
        }
        let outcome = execute(request.command, replyTo: replyTo)
        precondition(outcome == .carriedOut, "a question never waits")
        settle(replyTo: replyTo)
    }

    /// The session's opening: `hello`, any save problem, the screen, the focus and the progress.
    private mutating func open(reporting problems: [ProtocolError]) {
        phase = .playing(Play())
        emit(.hello(serverHello), replyTo: nil)
        for problem in problems { emit(.error(problem), replyTo: nil) }
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
            guard case .failure(let failure, let id) = agreement.dialect.take(outcome) else { return }
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
        // A request that came decoded (a front end's own) is taken as the version spoken takes it.
        if case .failure(let failure, _) = agreement.dialect.take(.request(request)) {
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
        switch execute(request.command, replyTo: replyTo) {
        case .carriedOut:
            settle(replyTo: replyTo)
        case .waits(let until):
            startWait(PendingWait(replyTo: replyTo, until: until))
        }
    }

    /// Closes a request with its `done`, unless it ended the session.
    private mutating func settle(replyTo: Reply?) {
        switch phase {
        case .playing, .waiting, .catchingUp: emit(.done, replyTo: replyTo)
        case .finished: break
        case .notStarted: preconditionFailure("a request is answered once the opening was sent")
        }
    }

    /// Starts waiting out a real-clock `wait`: what is still kept from the last one waits behind it too.
    private mutating func startWait(_ wait: PendingWait) {
        var wait = wait
        switch phase {
        case .playing(let play):
            phase = .waiting(play, wait)
        case .catchingUp(let play, let kept):
            wait.kept = kept
            phase = .waiting(play, wait)
        case .notStarted, .waiting, .finished:
            preconditionFailure("a wait starts while playing, one at a time")
        }
    }

    /// Answers the pending `wait`: the time it let pass, then `done`; what it kept is caught up with next.
    private mutating func answerWait() {
        guard case .waiting(let play, let wait) = phase else { return }
        phase = wait.kept.isEmpty ? .playing(play) : .catchingUp(play, wait.kept)
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

    /// What carrying out a command came to.
    private enum Execution: Equatable {
        /// It was carried out (or refused): its `done` follows.
        case carriedOut
        /// It is a real-clock `wait`, over at this time: its `done` comes then.
        case waits(until: Int64)
    }

    /// Carries out one command: its events, without the closing `done`.
    private mutating func execute(_ command: Command, replyTo: Reply?) -> Execution {
        let actionsFound = actionsJustFound
        actionsJustFound = nil
        switch command {
        case .hello(let hello):
            if agreement.take(hello) == nil {
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
            reply.grantedWant = agreement.grantedWant
            reply.grantedOmit = agreement.grantedOmit
            emit(.hello(reply), replyTo: replyTo)
            if let timePressure = hello.timePressure {
                perform(engine.setTimePressure(timePressure, now: clock.time), replyTo: replyTo)
            }
            let renamed = engine.nameKeys(hello.keys)
            perform(renamed, replyTo: replyTo)
            // The opening's focus came before the client could ask: valid actions for it come now.
            let refocused = renamed.contains { if case .event(.focus) = $0 { true } else { false } }
            if agreement.wantsValidActions, !refocused { emit(validActionsEvent, replyTo: replyTo) }
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
                return .waits(until: time.adding(saturating: Int64(milliseconds)))
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
            // The line after the snapshot event: its done, outside a batch.
            emit(.snapshot(blob: SnapshotCodec.encode(snapshot(seq: sequence + 2))), replyTo: replyTo)
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
            guard case .waiting(_, let wait) = phase, wait.replyTo?.id == target,
                wait.replyTo?.origin?.client == replyTo?.origin?.client
            else {
                let shown: String
                switch target {
                case .int(let number): shown = "\(number)"
                case .string(let text): shown = "\"\(text)\""
                }
                let message = sessionWords(.errorNoWaitToCancel, ["target": shown])
                emit(.error(ProtocolError(.notNow, message, field: "target")), replyTo: replyTo)
                return .carriedOut
            }
            answerWait()
        case .quit:
            end(.quit, replyTo: replyTo, answering: true)
        }
        return .carriedOut
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
            let mark = sequence
            let outcome = execute(entry.command, replyTo: replyTo)
            precondition(outcome == .carriedOut, "a batch never waits on the real clock")
            if isFinished { return }
            if let error = refusal(since: mark) {
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

    /// The last error sent after the event numbered `mark`, if any: what refused the request or
    /// command carried out since.
    private func refusal(since mark: Int) -> ProtocolError? {
        for stamped in sending.reversed() {
            guard stamped.seq > mark else { return nil }
            if case .error(let error) = stamped.event { return error }
        }
        for case .send(let events) in outbox.reversed() {
            for stamped in events.reversed() {
                guard stamped.seq > mark else { return nil }
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
        phase = .finished
    }

    /// What a snapshot taken now holds.
    ///
    /// - Parameter seq: The `seq` a restore of it numbers on from (see ``SessionSnapshot/seq``).
    /// - Returns: The engine's state, the clock and the progress last saved, for this adventure.
    private func snapshot(seq: Int) -> SessionSnapshot {
        SessionSnapshot(
            engine: Self.engineVersion,
            adventure: engine.adventure.id,
            seq: seq,
            clock: isVirtual ? clock.time : nil,
            taken: isVirtual ? nil : clock.time,
            saved: savedProgress,
            state: engine.snapshot
        )
    }

    /// Brings back a blob's state, or refuses it with `bad_snapshot` and changes nothing.
    private mutating func restore(_ blob: String) throws(ProtocolError) {
        try restore(SnapshotCodec.decode(blob, engineVersion: Self.engineVersion, words: engine.words))
    }

    /// Brings back what a blob holds, or refuses it with `bad_snapshot` and changes nothing.
    private mutating func restore(_ payload: SessionSnapshot) throws(ProtocolError) {
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

    /// The session's own words, in the engine's language.
    private var sessionWords: SessionWords { SessionWords(engine.words.language) }

    /// Whether `ended` was sent for the game on show (it escaped): neither coming back to the end
    /// screen nor a later `quit` repeats it; `replay` starts a new game.
    private var endedSent: Bool {
        get {
            switch phase {
            case .playing(let play), .waiting(let play, _), .catchingUp(let play, _): play.endedSent
            case .notStarted, .finished: false
            }
        }
        set {
            switch phase {
            case .playing: phase = .playing(Play(endedSent: newValue))
            case .waiting(_, let wait): phase = .waiting(Play(endedSent: newValue), wait)
            case .catchingUp(_, let kept): phase = .catchingUp(Play(endedSent: newValue), kept)
            case .notStarted, .finished: preconditionFailure("a game is played between the opening and the end")
            }
        }
    }

    /// The whole state as events, in the agreed protocol's words: screen, focus, rotor and actions
    /// where present, a timed level's clock (1.1), progress, and valid actions when the client wants them.
    private mutating func emitState(replyTo: Reply?) {
        var events: [GameEvent] = [.screen(engine.screen), .focus(engine.focus)]
        if let rotor = engine.rotor { events.append(.rotor(rotor)) }
        if let actions = engine.actions { events.append(.actions(actions)) }
        // A timed level's clock as it stands (protocol 1.1 only: the dialect drops it in 1.0).
        if let timer = engine.timer(now: clock.time) { events.append(.timer(timer)) }
        for event in events {
            if let shaped = agreement.dialect.shape(event, focus: engine.focus, focusFollows: false) {
                emit(.game(shaped), replyTo: replyTo)
            }
        }
        emit(progressEvent, replyTo: replyTo)
        if agreement.wantsValidActions { emit(validActionsEvent, replyTo: replyTo) }
    }

    private var validActionsEvent: Event {
        .validActions(screen: engine.screen.id, actions: engine.validActions)
    }

    private var serverHello: ServerHello {
        let dialect = agreement.dialect
        var capabilities = ServerHello.gameCapabilities
        capabilities += dialect.shape(capabilities: ["chapterIds", "elementChanged", "idle", "ranges", "timer"])
        if isVirtual { capabilities.append("virtualClock") }
        capabilities.sort()
        return ServerHello(
            protocolVersion: EventEncoder.protocolVersion,
            version: dialect.version,
            versions: Self.protocolVersions,
            engineVersion: Self.engineVersion,
            locale: engine.adventure.locale,
            adventureID: engine.adventure.id,
            adventureTitle: engine.adventure.title,
            capabilities: capabilities
        )
    }

    private var progressEvent: Event {
        .progress(
            agreement.dialect.shape(engine.progressSummary),
            saved: writable && savedProgress?.hasSameEarnings(as: engine.progress) == true
        )
    }

    /// Turns the engine's effects into events and saves, in the agreed protocol's words; valid
    /// actions follow when a focus was sent and the client wants them.
    ///
    /// What each event says is decided for all the effects before the first is sent: nothing sent is
    /// changed afterwards.
    private mutating func perform(_ effects: [Effect], replyTo: Reply?) {
        if engine.showsIntro { endedSent = false }
        let plan = plan(effects)
        for step in plan.steps {
            switch step.action {
            case .send(let event):
                emit(event, replyTo: replyTo, in10: step.in10)
            case .change(let element, let event):
                observer.noteChanged(element)
                if let event { emit(event, replyTo: replyTo, in10: step.in10) }
            case .save(let progress):
                if writable {
                    flushSending()
                    outbox.append(.save(SaveData(progress, in: engine.adventure)))
                    savedProgress = progress
                }
                emit(progressEvent, replyTo: replyTo, in10: step.in10)
            }
        }
        if plan.followedByValidActions { emit(validActionsEvent, replyTo: replyTo) }
    }

    /// What a command's effects send, each event worded, and whether valid actions follow them.
    ///
    /// A client that wants valid actions gets them after a focus. Protocol 1.0 sent a `focus` for a
    /// changed element where later versions send none: when only 1.0 would have sent a focus, 1.0's
    /// valid actions go with the last event sent, for `efb serve`'s 1.0 clients.
    private mutating func plan(_ effects: [Effect]) -> Plan {
        let dialect = agreement.dialect
        var plan = Plan()
        plan.steps.reserveCapacity(effects.count)
        var focusSent = false
        // Whether 1.0 sent a focus: for `efb serve`'s 1.0 clients, when this speaks a later version.
        var focusSentIn10 = false
        // The last step that sends an event.
        var lastSent: Int?
        // The focus after the command, which only a changed element's wording needs: found once, if at all.
        var focusNow: FocusState?
        for (index, effect) in effects.enumerated() {
            switch effect {
            case .event(.ended(let reason)):
                guard !endedSent else { continue }
                endedSent = true
                lastSent = plan.steps.count
                plan.steps.append(Step(action: .send(.ended(reason: reason, cutShort: false))))
            case .event(.elementChanged(let element)):
                let focusFollows = effects[(index + 1)...].contains {
                    if case .event(.focus) = $0 { true } else { false }
                }
                let focus = focusNow ?? engine.focus
                focusNow = focus
                let (event, in10) = dialect.shape(changed: element, focus: focus, focusFollows: focusFollows)
                if event != nil { lastSent = plan.steps.count }
                if case .focus = event { focusSent = true }
                if in10.focus != nil { focusSentIn10 = true }
                plan.steps.append(Step(action: .change(element, send: event.map(Event.game)), in10: in10))
            case .event(let event):
                // Only a changed element's wording depends on the focus; any focus serves the others.
                guard let event = dialect.shape(event, refocus: { _ in nil }) else { continue }
                if case .focus = event { focusSent = true }
                lastSent = plan.steps.count
                plan.steps.append(Step(action: .send(.game(event))))
            case .save(let progress):
                lastSent = plan.steps.count
                plan.steps.append(Step(action: .save(progress)))
            }
        }
        guard agreement.wantsValidActions else { return plan }
        if focusSent {
            plan.followedByValidActions = true
        } else if focusSentIn10, let lastSent {
            plan.steps[lastSent].in10.validActionsAfter = validActionsEvent
        }
        return plan
    }

    /// Ends a burst of events the session sent on its own with `idle`, in protocol 1.1 and later.
    private mutating func closeBurst(since before: Int) {
        guard agreement.dialect != .v10, sequence > before else { return }
        emit(.idle, replyTo: nil)
    }

    /// Stamps an event and puts it in the outbox, after whatever is there.
    private mutating func emit(_ event: consuming Event, replyTo: Reply?, in10: Version10Wording = Version10Wording()) {
        observer.note(event)
        if !agreement.omitted.isEmpty, agreement.omitted.contains(event) { return }
        sequence = sequence.countingOn
        if case .validActions = event { lastValidActions = copy event }
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
                protocolMinor: agreement.dialect.minor
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
