// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
import EscapeJSON
package import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One game shared by many clients over a Unix domain socket (`efb serve`).
///
/// Every connection speaks the pipe's protocol, in the version it agreed on in its own `hello` (1.0,
/// 1.1, 1.2 or 1.3), 1.1 until it says: the session speaks the newest, and each client's events are worded
/// anew in its version, as ``Dialect`` words the pipe's. The first one to connect while
/// nobody controls the game (or one that asks with `hello` and `role: "controller"` then) is its
/// controller: its commands go to the session. The others are observers: they receive every event
/// the game produces, get the whole state when they join, and may only ask (`ping`, `state`,
/// `validActions`, `repeat`, `snapshot`, `hello`, `quit`); anything else is refused with `read_only`.
///
/// Replies go to the client that asked, with its own ids; each connection has its own `seq`. A client
/// leaving never stops the game, and every line it sent before it left is answered. Output waits in a
/// queue per client, written without blocking. Nothing addressed to a client is ever dropped: a client
/// with more than ``Limits/pendingBytes`` waiting is not read from until it catches up (back-pressure,
/// as a TCP peer would apply), so every line still gets exactly one `done`. The game's events copied to
/// a client past that limit are dropped instead: it is told `overflow` once and gets the whole state
/// again once it reads, so a slow observer never holds the controller up.
///
/// Each request reaches the session with the client's own id and an ``Origin`` that says who sent it
/// and what it is for; the session stamps the origin on every event answering it, so replies (also
/// those sent after a real-clock `wait`) find their way back. Who controls the game, what each client
/// may send and where each answer goes are a ``SharedGame``'s rules, the same as `efb web`'s.
package final class ServeFrontEnd: FrontEnd {
    /// The bounds of a shared game.
    package struct Limits: Sendable, Hashable {
        /// The most clients connected at once.
        package var clients: Int
        /// The most bytes waiting for one client.
        package var pendingBytes: Int

        /// Creates limits.
        package init(clients: Int = 16, pendingBytes: Int = 1 << 20) {
            self.clients = clients
            self.pendingBytes = pendingBytes
        }
    }

    /// The version the session speaks: the newest, which every client's version is worded from.
    private static let newest = Session.protocolVersions.max() ?? .v1_1

    private let listener: UnixListener
    private let limits: Limits
    private let words: EngineWords
    /// The words of a shared game's own errors, in the adventure's language.
    private var sessionWords: SessionWords { SessionWords(words.language) }
    private var clients: [Int: ServeClient] = [:]
    /// Who controls the game, and where the answers to each client's requests go.
    private var game = SharedGame()
    private var nextNumber = 1
    private var generation = 0
    /// The engine's `hello`, as every joining client and observer receives it.
    private var serverHello: ServerHello?
    private var opened = false
    /// Observers that received part of a burst and get `idle` at its end.
    private var burstReceivers: Set<Int> = []
    /// The loop's time at the last service.
    private var lastNow: Int64 = 0

    /// Creates a front end that serves on `listener`.
    ///
    /// - Parameters:
    ///   - listener: The socket clients connect to.
    ///   - words: The engine's words in the adventure's language, for the errors of a shared game.
    ///   - limits: How many clients, and how much output may wait for one.
    package init(listener: UnixListener, words: EngineWords, limits: Limits = Limits()) {
        self.listener = listener
        self.words = words
        self.limits = limits
    }

    /// The listening socket, and every client's while it may be read: not once its input ended, while
    /// lines it sent wait to be handled, nor while its output is over the limit (back-pressure).
    package var descriptors: [Int32] {
        [listener.descriptor]
            + clients.values.filter {
                !$0.input.isEnded && !$0.hasFrames && $0.output.bytes.count <= limits.pendingBytes
            }.map(\.descriptor)
    }

    /// The controller's socket: the only one whose lines can wait behind a real-clock `wait`.
    package var commandDescriptors: [Int32] {
        game.controllingMember.flatMap { clients[$0] }.map { [$0.descriptor] } ?? []
    }

    /// The clients with output waiting.
    package var writeDescriptors: [Int32] {
        clients.values.filter { !$0.output.bytes.isEmpty }.map(\.descriptor)
    }

    /// Now, while a client waits to be caught up with the whole state and can take it, or has lines
    /// waiting that it has room for the answers of.
    package var deadline: Int64? {
        let due = clients.values.contains {
            ($0.needsState && $0.output.bytes.isEmpty)
                || ($0.hasFrames && $0.output.bytes.count <= limits.pendingBytes)
        }
        return due ? lastNow : nil
    }

    /// Never: clients come and go, the game goes on.
    package var isClosed: Bool { false }

    /// A second for every client to take its last events: one that does not read holds no one up longer.
    package var finishingMilliseconds: Int64 { 1000 }

    /// Asks for the newest protocol (each client's events are worded in its own version) and the valid
    /// actions after every focus, for every client alike.
    package func opening() -> [SessionInput] {
        opened = true
        let hello = ClientHello(client: "efb serve", acceptedVersions: .versions([Self.newest]), want: ["validActions"])
        return [.request(Request(command: .hello(hello), origin: SharedGame.Purpose.frontEnd.origin(0)))]
    }

    // MARK: - Input

    /// Accepts new clients, reads every client's lines, and catches up clients that need the whole state.
    package func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        lastNow = now
        if readable.contains(listener.descriptor) {
            while let descriptor = listener.accept() { join(descriptor, submit: submit) }
        }
        for number in clients.keys.sorted() {
            guard let client = clients[number] else { continue }
            if !client.hasFrames && client.output.bytes.count <= limits.pendingBytes {
                client.frames = client.input.read(readable: readable)
                client.nextFrame = 0
                if !client.frames.isEmpty { client.sentLine = true }
            }
            handleFrames(of: number, submit: submit)
            if client.input.isEnded, !client.hasFrames, !client.saidFarewell, clients[number] != nil {
                // Every line the client sent is answered before it leaves: the session answers in order.
                // A `wait` of its own ends as it leaves, as at the end of the pipe's input: it would
                // otherwise keep control of the game until its deadline.
                client.saidFarewell = true
                submit(.inputEnds(from: SharedGame.Purpose.question.origin(number)))
                submit(.request(Request(command: .ping, origin: SharedGame.Purpose.farewell.origin(number))))
            }
        }
        for (number, client) in clients.sorted(by: { $0.key < $1.key })
        where client.needsState && client.output.bytes.isEmpty {
            client.needsState = false
            client.dropping = false
            submit(.request(Request(command: .state, origin: SharedGame.Purpose.catchUp.origin(number))))
        }
        endBursts()
    }

    /// The controller's socket, not read while its `wait` keeps all it can, hung up: its `wait` ends as it
    /// leaves; its unread lines are then read and answered before it goes.
    package func heldInputEnds(_ descriptors: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        for (number, client) in clients.sorted(by: { $0.key < $1.key }) where descriptors.contains(client.descriptor) {
            submit(.inputEnds(from: SharedGame.Purpose.question.origin(number)))
        }
    }

    /// Handles the client's waiting lines while its output has room for their answers.
    private func handleFrames(of number: Int, submit: (SessionInput) -> Void) {
        while let client = clients[number], client.hasFrames {
            if client.output.bytes.count > limits.pendingBytes {
                guard client.write(), client.output.bytes.count <= limits.pendingBytes else { return }
            }
            let frame = client.frames[client.nextFrame]
            client.nextFrame += 1
            if !client.hasFrames {
                client.frames = []
                client.nextFrame = 0
            }
            if !client.closesWhenWritten { handle(frame, from: number, submit: submit) }
        }
    }

    private func join(_ descriptor: Int32, submit: (SessionInput) -> Void) {
        let number = nextNumber
        nextNumber += 1
        let client = ServeClient(descriptor: descriptor)
        // At the limit, the longest-connected client that never sent a line makes room: idle connections
        // never lock out a client that means to play.
        if clients.count >= limits.clients,
            let silent = clients.filter({ !$0.value.sentLine }).keys.min()
        {
            makeRoom(silent)
        }
        guard clients.count < limits.clients else {
            let refusal = SharedGame.Refusal.tooManyClients(limit: limits.clients)
            client.seq += 1
            EventEncoder.encode(
                stamp(.error(refusal.error(in: sessionWords)), seq: 1, in: client.dialect),
                into: &client.output.bytes
            )
            _ = client.write()
            client.close()
            return
        }
        clients[number] = client
        let change = game.join(number, follows: true)
        if let serverHello { send(.hello(serverHello), to: number) }
        // Its own part is told in its joining state, the others' (when it took control) as bursts.
        tell(change.notices)
        for note in game.opening(at: generation) { send(note, to: number) }
        submit(.request(Request(command: .state, origin: SharedGame.Purpose.catchUp.origin(number))))
    }

    /// Closes a client that never sent a line, telling it why, to make room for a newer one.
    private func makeRoom(_ number: Int) {
        guard let client = clients[number] else { return }
        let refusal = SharedGame.Refusal.madeRoom(limit: limits.clients)
        client.seq += 1
        EventEncoder.encode(
            stamp(.error(refusal.error(in: sessionWords)), seq: client.seq, in: client.dialect),
            into: &client.output.bytes
        )
        _ = client.write()
        leave(number)
    }

    private func leave(_ number: Int) {
        guard let client = clients.removeValue(forKey: number) else { return }
        client.close()
        tell(game.leave(number).notices)
    }

    private func handle(_ frame: LineFramer.Frame, from number: Int, submit: (SessionInput) -> Void) {
        // Decoded as the client's version takes it: the session speaks the newest.
        let dialect = clients[number]?.dialect ?? .v11
        let outcome: CommandDecoder.Outcome? =
            if case .line(let bytes) = frame { dialect.take(CommandDecoder.decode(bytes)) } else { nil }
        guard case .request(let request)? = outcome else {
            // An observer's bad line is answered here, at once: it never waits behind the controller's
            // wait, nor fills the session's queue (whose back-pressure holds only the controller).
            if game.role(of: number) != .controller, case .failure(let failure, let replyTo)? = outcome {
                reply(.error(ProtocolError(failure, in: words)), to: number, id: replyTo)
                reply(.done, to: number, id: replyTo)
                return
            }
            // The session says what is wrong with the line, in the protocol's own words, in its turn.
            if case .line(let bytes) = frame, let outcome {
                submit(.decoded(outcome, length: bytes.count, from: SharedGame.Purpose.question.origin(number)))
            } else {
                submit(.frame(frame, from: SharedGame.Purpose.question.origin(number)))
            }
            return
        }
        if case .hello(let hello) = request.command {
            handleHello(hello, request: request, from: number, submit: submit)
            return
        }
        var routed = request
        routed.command = request.command.inSharedGame
        switch game.command(request.command, from: number) {
        case .refuse(let refusal):
            reply(.error(refusal.error(in: sessionWords)), to: number, id: request.id)
            reply(.done, to: number, id: request.id)
        case .leave:
            // One `done` per line, then `bye`, as the pipe's `quit`; the game goes on.
            reply(.done, to: number, id: request.id)
            reply(.bye, to: number, id: request.id)
            clients[number]?.closesWhenWritten = true
        case .ask:
            // An observer only asks: its question is answered at once, never behind the controller's wait.
            routed.origin = SharedGame.Purpose.question.origin(number)
            submit(.question(routed))
        case .play(let purpose):
            routed.origin = purpose.origin(number)
            submit(.request(routed))
        }
    }

    private func handleHello(_ hello: ClientHello, request: Request, from number: Int, submit: (SessionInput) -> Void) {
        guard let agreed = hello.best(among: Session.protocolVersions) else {
            // As on the pipe, the rest of a refused hello is answered: the engine's hello, as it stands,
            // in the version the client spoke before.
            let message = sessionWords(
                .errorUnsupportedProtocol,
                [
                    "version": Session.protocolVersions.map(\.description).joined(separator: ", "),
                    "requested": "\(hello.acceptedVersions)",
                ]
            )
            reply(.error(ProtocolError(.unsupportedProtocol, message, field: "protocol")), to: number, id: request.id)
            if let serverHello { reply(.hello(serverHello), to: number, id: request.id) }
            reply(.done, to: number, id: request.id)
            return
        }
        switch hello.role {
        case .controller:
            switch game.claim(number) {
            case .granted(let change): tell(change.notices)
            case .alreadyHeld: break
            case .refused(let refusal):
                reply(.error(refusal.error(in: sessionWords)), to: number, id: request.id)
                reply(.done, to: number, id: request.id)
                return
            }
        case .observer:
            tell(game.release(number).notices)
        case nil:
            break
        }
        guard case .play(.hello) = game.command(request.command, from: number) else {
            // An observer's hello changes nothing of the game: the engine's hello, as it stands, in the
            // version agreed, spoken from that hello on.
            clients[number]?.dialect = Dialect(agreed)
            if let serverHello { reply(.hello(serverHello), to: number, id: request.id) }
            tellRoleInReply(to: number, id: request.id)
            reply(.done, to: number, id: request.id)
            return
        }
        // The controller's hello names its keys and preferences; every client keeps the valid actions.
        var shared = hello
        shared.acceptedVersions = .versions([Self.newest])
        if !shared.want.contains("validActions") { shared.want.append("validActions") }
        // Every client hears the game: what one does without is still sent to the others (and to it).
        shared.omit = []
        // The version agreed is spoken from the reply's hello on, which may come after a real-clock wait.
        clients[number]?.helloDialects.append(Dialect(agreed))
        let origin = SharedGame.Purpose.hello.origin(number)
        submit(.request(Request(id: request.id, ifGen: request.ifGen, command: .hello(shared), origin: origin)))
    }

    // MARK: - Output

    /// Routes the session's events: replies to whoever asked, the game's events to everyone.
    package func show(_ events: [StampedEvent], now: Int64) {
        for stamped in events {
            generation = stamped.generation
            let event = stamped.event
            if case .hello(let hello) = event { serverHello = hello }
            switch game.deliver(event, answering: stamped.origin) {
            case .nowhere:
                break
            case .followers:
                // What no request asked for: the opening, time passing, a failed save.
                guard opened else {
                    game.rememberOpening(event, generation: generation)
                    continue
                }
                for number in game.followers { send(event, to: number, droppable: true, in10: stamped.in10) }
            case .asker(let number):
                answer(stamped, to: number)
            case .askerAndFollowers(let number):
                answer(stamped, to: number)
                copy(event, except: number, in10: stamped.in10)
            case .caughtUp(let number):
                send(.idle, to: number)
            case .farewell(let number):
                // The last line the client sent is answered: it leaves once that is written.
                clients[number]?.closesWhenWritten = true
            case .restored(let number):
                answer(stamped, to: number)
                for other in game.followers where other != number { clients[other]?.needsState = true }
            }
        }
    }

    /// Sends an answer to the client that asked, with its id; the reply to its `hello` is in the version
    /// that hello agreed on, and says its part when the hello changed it.
    private func answer(_ stamped: StampedEvent, to number: Int) {
        let event = stamped.event
        let answersHello = stamped.origin.flatMap { SharedGame.Purpose(rawValue: $0.mark) } == .hello
        if answersHello, let client = clients[number], !client.helloDialects.isEmpty {
            switch event {
            case .hello: client.dialect = client.helloDialects[0]
            case .done: client.helloDialects.removeFirst()
            default: break
            }
        }
        send(event, to: number, replyTo: stamped.replyTo, in10: stamped.in10)
        if answersHello, case .hello = event { tellRoleInReply(to: number, id: stamped.replyTo) }
    }

    /// Copies a game event to every client but `asker`, as part of a burst ended by `idle`.
    private func copy(_ event: Event, except asker: Int, in10: Version10Wording) {
        for number in game.followers where number != asker {
            send(event, to: number, droppable: true, in10: in10)
            burstReceivers.insert(number)
        }
    }

    /// Ends the bursts observers received with `idle`, as the engine ends its own.
    private func endBursts() {
        for number in burstReceivers.sorted() { send(.idle, to: number, droppable: true) }
        burstReceivers.removeAll()
    }

    /// Tells a client whose `hello` changed its part that part, in the hello's reply.
    private func tellRoleInReply(to number: Int, id: RequestID?) {
        guard let client = clients[number], client.roleInReply, let role = game.role(of: number) else { return }
        client.roleInReply = false
        reply(.role(role, controlFree: game.isControlFree), to: number, id: id)
    }

    /// Tells each client its part: one whose `hello` changed it in that hello's reply, one that joins in
    /// its joining state, any other as a burst of its own, ended by `idle`.
    private func tell(_ notices: [SharedGame.RoleNotice]) {
        for notice in notices {
            switch notice.cause {
            case .asked:
                clients[notice.member]?.roleInReply = true
            case .joined:
                send(.role(notice.role, controlFree: notice.controlFree), to: notice.member)
            case .takenOver, .controlChanged:
                send(.role(notice.role, controlFree: notice.controlFree), to: notice.member)
                burstReceivers.insert(notice.member)
            }
        }
    }

    private func reply(_ event: Event, to number: Int, id: RequestID?) {
        send(event, to: number, replyTo: id)
    }

    /// Queues an event for a client.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - number: The client.
    ///   - replyTo: The client's own id it answers, if any.
    ///   - copy: Whether it is a copy of the game's events rather than addressed to the client:
    ///     past the limit such copies are dropped (`overflow`, then the whole state); what is addressed
    ///     to the client always waits for it, and the client is not read from meanwhile.
    ///   - in10: What protocol 1.0 says differently about the event (see ``StampedEvent/in10``).
    private func send(
        _ event: Event,
        to number: Int,
        replyTo: RequestID? = nil,
        droppable copy: Bool = false,
        in10: Version10Wording = Version10Wording()
    ) {
        // The end of the game is never dropped: nothing would follow to say it.
        let droppable: Bool
        switch event {
        case .bye, .ended: droppable = false
        default: droppable = copy
        }
        guard let client = clients[number], !client.saidBye, !(droppable && client.dropping),
            let shaped = Self.shape(event, in: client.dialect, focusIn10: in10.focus)
        else { return }
        // Only what the socket will not take counts: a long burst is written as it grows.
        if droppable, client.output.bytes.count > limits.pendingBytes,
            !client.write() || client.output.bytes.count > limits.pendingBytes
        {
            client.seq += 1
            let refusal = SharedGame.Refusal.overflow(limit: limits.pendingBytes)
            EventEncoder.encode(
                stamp(.error(refusal.error(in: sessionWords)), seq: client.seq, in: client.dialect),
                into: &client.output.bytes
            )
            client.dropping = true
            client.needsState = true
            return
        }
        if case .bye = event { client.saidBye = true }
        client.seq += 1
        EventEncoder.encode(
            stamp(shaped, seq: client.seq, replyTo: replyTo, in: client.dialect),
            into: &client.output.bytes
        )
        if client.output.bytes.count > limits.pendingBytes { _ = client.write() }
        // 1.0 sent a focus for a changed element: its valid actions follow the command's last event.
        if client.dialect == .v10, let after = in10.validActionsAfter {
            send(after, to: number, replyTo: replyTo, droppable: copy)
        }
    }

    private func stamp(_ event: Event, seq: Int, replyTo: RequestID? = nil, in dialect: Dialect) -> StampedEvent {
        StampedEvent(seq: seq, replyTo: replyTo, generation: generation, event: event, protocolMinor: dialect.minor)
    }

    /// An event of the session (which speaks the newest version) as `dialect` says it, or `nil` when
    /// that version says nothing of it.
    ///
    /// - Parameters:
    ///   - event: The session's event.
    ///   - dialect: The client's version.
    ///   - focusIn10: For an `elementChanged`, the `focus` protocol 1.0 says instead.
    /// - Returns: The event to send the client, or `nil` to send it nothing.
    private static func shape(_ event: Event, in dialect: Dialect, focusIn10: FocusState?) -> Event? {
        switch event {
        case .hello(let hello): .hello(dialect.shape(hello))
        case .progress(let summary, let saved): .progress(dialect.shape(summary), saved: saved)
        case .game(let gameEvent): dialect.shape(gameEvent) { _ in focusIn10 }.map(Event.game)
        // 1.0 has no word for the end of a burst.
        case .idle: dialect == .v10 ? nil : event
        case .error, .done, .snapshot, .observation, .role, .bye, .ended, .validActions: event
        }
    }

    /// Writes to every client what it can take now; a client whose socket failed leaves.
    ///
    /// A client leaving here tells the others (a `role` burst), which is written in the same flush.
    package func flush(now: Int64) {
        repeat {
            endBursts()
            for (number, client) in clients {
                if !client.write() {
                    leave(number)
                } else if client.closesWhenWritten && client.output.bytes.isEmpty {
                    leave(number)
                }
            }
        } while !burstReceivers.isEmpty
    }

    /// Closes every client: once the game finished, the loop gave each
    /// ``finishingMilliseconds`` to take what waited for it.
    package func closeAll() {
        for number in Array(clients.keys) { leave(number) }
    }
}

/// A connected client: its reader, its waiting output and its own `seq`.
final class ServeClient {
    let descriptor: Int32
    var input: LineInput
    /// Lines read and not handled yet: they wait while the client's output is over the limit.
    var frames: [LineFramer.Frame] = []
    var nextFrame = 0
    /// The input ended and the session was asked to answer everything before it (a `ping`).
    var saidFarewell = false
    var output = SocketOutput()
    var seq = 0
    /// The protocol version the client speaks: 1.1 until its `hello` agrees on another.
    var dialect = Dialect.v11
    /// The versions agreed by the client's `hello`s sent to the session and not answered yet, in order:
    /// each is spoken from its reply's `hello` on.
    var helloDialects: [Dialect] = []
    /// Output was dropped: nothing more is queued until the client gets the whole state again.
    var dropping = false
    /// The client gets the whole state (`state`) once its output is written.
    var needsState = false
    /// The client said `quit`: it leaves once its `bye` is written.
    var closesWhenWritten = false
    /// `bye` was queued: nothing follows it.
    var saidBye = false
    /// The client sent a line: it never makes room for a newer client.
    var sentLine = false
    /// The client's `hello` changed its part: the `role` saying so goes in that hello's reply.
    var roleInReply = false
    private var isClosed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        input = LineInput(descriptor: descriptor)
    }

    /// Whether lines read wait to be handled.
    var hasFrames: Bool { nextFrame < frames.count }

    /// Writes what the socket takes without blocking; `false` when the client is gone.
    func write() -> Bool {
        guard !isClosed else { return false }
        return output.write(to: descriptor)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        closeDescriptor(descriptor)
    }
}

/// `close(2)`, under a name the method above does not shadow.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
