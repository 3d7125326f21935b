// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A game that `efb serve` shares, followed and played from this process: what a console or a Braille
/// display attached with `--attach` plays.
///
/// The front end's requests go to the socket as lines, each under an id of the host's own, so the
/// answers find their way back to the front end's ids; the events arrive as they come and reach the
/// front end through ``EventLoop``. A served game speaks protocol 1.1, so a `hello` is sent asking
/// for it whatever the front end asked.
///
/// Control: the server makes the first client that joins while nobody plays the controller, and the
/// others observers. An observer whose player makes a gesture while control is free takes control
/// first (a `hello` with `role: "controller"`), so the gesture plays; a gesture refused with `read_only`
/// when the server has meanwhile said control is free is sent again the same way. While another client
/// controls the game, the refusal reaches the front end, which shows it, in words for the player
/// (another player controls the game; the next move plays once control is free). An observer never
/// tells the game that its display went away (`assistive`): that is the controlling player's business.
///
/// Before the front end is ready (a display BRLTTY has not connected yet) the host reads what arrives
/// and keeps only what was said about this client (`hello`, `role`, problems), so the server never
/// holds output back for it; at the start the front end gets those, then the whole state (`state`).
///
/// Leaving: the end of the player's input lets the answers to what was sent arrive, then closes the
/// connection; a stop (Ctrl-C) or `quit` closes it at once. Either way the shared game goes on. The
/// server closing the connection (the game ended) ends this host too.
///
/// It is not thread-safe; one owner calls it.
package final class RemoteHost: GameHost {
    /// How the connection ended.
    package enum Ending: Sendable, Hashable {
        /// This side left; the shared game goes on.
        case detached
        /// The server closed the connection: after `bye` when the game ended, without it when the
        /// server went away.
        case closedByServer(saidBye: Bool)
    }

    /// The longest event line read, in bytes (a screen, a snapshot blob).
    static let maximumLineLength = 1 << 24

    private var descriptor: Int32
    private var input: LineInput
    private let clock: any GameClock
    private let log: (String) -> Void
    private var output = SocketOutput()
    private var nextNumber = 0
    /// The front end's requests not yet done, by the number they were sent under.
    private var outstanding: [Int: Request] = [:]
    /// Requests refused as read-only that are sent again once control is taken: their answers are dropped.
    private var retried: Set<Int> = []
    /// What is left of a chain of requests (``SessionInput/requests(_:)``), sent once its head is done.
    private var followers: [Int: [Request]] = [:]
    /// Requests answered with an error so far: the rest of their chain is not sent.
    private var refused: Set<Int> = []
    /// Requests of the host's own (asking for control), whose answers the front end does not see.
    private var own: Set<Int> = []
    /// The front end's `hello`, sent again when asking for control (it names the player's keys).
    private var hello: ClientHello?
    private var role: ClientRole?
    /// The words of the game's language, from its `hello`, for what this host says to the player.
    private var words = EngineWords.english
    private var sessionWords: SessionWords { SessionWords(words.language) }
    private var controlFree = false
    private var saidBye = false
    /// The server said the shared game ended (`ended` to every client).
    private var saidEnded = false
    /// The player's input ended: the connection closes once every request is answered.
    private var leaving = false
    /// What the server said about this client before the front end was ready (`hello`, `role`, problems).
    private var joined: [StampedEvent] = []
    /// Events of the game were left out before the front end was ready: it gets the whole state at start.
    private var missedState = false
    /// The number of the `state` request that catches the front end up, until it is answered.
    private var resync: Int?

    /// Whether the opening was handled.
    package private(set) var hasStarted = false
    /// How the connection ended, once it did.
    package private(set) var ending: Ending?

    /// Connects to the game served on `path`.
    ///
    /// - Parameters:
    ///   - path: The game's socket.
    ///   - clock: The loop's clock.
    ///   - log: Where to report lines that are not events (standard error).
    /// - Throws: A ``ListenError`` when nothing serves a game there.
    package convenience init(
        connectingTo path: String,
        clock: any GameClock = MonotonicClock(),
        log: @escaping (String) -> Void
    ) throws(ListenError) {
        self.init(descriptor: try UnixListener.connect(to: path), clock: clock, log: log)
    }

    /// Follows the game on a connected socket, which the host then owns and closes.
    ///
    /// - Parameters:
    ///   - descriptor: A stream connected to `efb serve`.
    ///   - clock: The loop's clock.
    ///   - log: Where to report lines that are not events.
    package init(descriptor: Int32, clock: any GameClock = MonotonicClock(), log: @escaping (String) -> Void) {
        self.descriptor = descriptor
        self.clock = clock
        self.log = log
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        input = LineInput(descriptor: descriptor, maximumLineLength: Self.maximumLineLength)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether the connection is closed.
    package var isFinished: Bool { ending != nil }
    /// Never: the server keeps the game's time.
    package var nextDeadline: Int64? { nil }
    /// The loop's clock.
    package var now: Int64 { clock.now() }
    /// The socket, until the connection ends.
    package var descriptors: [Int32] { isFinished ? [] : [descriptor] }
    /// The socket, while requests wait to be written.
    package var writeDescriptors: [Int32] { output.bytes.isEmpty || isFinished ? [] : [descriptor] }
    /// Whether this client controls the shared game, as the server last said.
    package var isController: Bool { role == .controller }

    // MARK: - Input

    /// Sends what the front end asks; the answers come through ``service(readable:)``.
    package func handle(_ input: SessionInput) -> [StampedEvent] {
        guard !isFinished else { return [] }
        switch input {
        case .start:
            hasStarted = true
            if missedState { resync = write(Request(command: .state)) }
            defer { joined = [] }
            return joined
        case .frame(.line(let bytes), _):
            return handle(CommandDecoder.decode(bytes))
        case .decoded(let outcome, _, _), .unrouted(let outcome, _):
            return handle(outcome)
        case .frame(.tooLong, _), .time, .saveFailed, .inputEnds:
            break
        case .request(let request), .question(let request):
            forward(request, then: [])
        case .requests(let requests):
            if let first = requests.first { forward(first, then: Array(requests.dropFirst())) }
        case .keepingSnapshot(let id, let requests):
            // The served game keeps nothing for this process: its snapshot comes back as a blob.
            forward(Request(id: id, command: .snapshot), then: requests)
        case .restoring(let kept, let id, let requests):
            forward(Request(id: id, command: .restore(blob: SnapshotCodec.encode(kept.payload))), then: requests)
        case .endOfInput:
            leaving = true
            if outstanding.isEmpty { detach() }
        case .stop:
            detach()
        }
        return []
    }

    /// Sends a decoded line's request, or answers its failure.
    private func handle(_ outcome: CommandDecoder.Outcome) -> [StampedEvent] {
        switch outcome {
        case .request(let request): forward(request, then: [])
        case .blank: break
        case .failure(let failure, let replyTo):
            // Answered here, as the server would, in the game's words: the line never shares the socket.
            let error = ProtocolError(failure, in: words)
            return [.error(error), .done].map {
                StampedEvent(seq: 0, replyTo: replyTo, generation: 0, event: $0, protocolMinor: 1)
            }
        }
        return []
    }

    private func forward(_ request: Request, then rest: [Request]) {
        var request = request
        switch request.command {
        case .quit:
            // Quitting here leaves the shared game; it does not end it for everyone.
            detach()
            return
        case .hello(var hello):
            hello.acceptedVersions = .versions([.v1_1])
            self.hello = hello
            request.command = .hello(hello)
        case .game(.assistive(_)) where role == .observer:
            return
        default:
            if role == .observer && controlFree && request.command.changesGame { askForControl() }
        }
        let number = write(request)
        outstanding[number] = request
        if !rest.isEmpty { followers[number] = rest }
    }

    private func askForControl() {
        var hello = hello ?? ClientHello(client: "efb attach", acceptedVersions: .versions([.v1_1]))
        hello.role = .controller
        own.insert(write(Request(command: .hello(hello))))
        controlFree = false
    }

    /// Queues `request` under a number of the host's own; returns the number.
    private func write(_ request: Request) -> Int {
        nextNumber += 1
        var numbered = request
        numbered.id = .int(nextNumber)
        RequestEncoder.encode(numbered, into: &output.bytes)
        return nextNumber
    }

    // MARK: - Events

    /// Reads the events that arrived, with the front end's own ids.
    package func service(readable: Set<Int32>) -> [StampedEvent] {
        guard !isFinished, readable.contains(descriptor) else { return [] }
        var events: [StampedEvent] = []
        for frame in input.read(readable: readable) {
            switch frame {
            case .tooLong(let length):
                log("the game sent a line of \(length) bytes, too long to read; it was left out.")
            case .line(let bytes):
                do throws(EventDecodingError) {
                    if let event = receive(try EventDecoder.decode(bytes, protocolMinor: 1)) { events.append(event) }
                } catch {
                    log("the game sent a line that is not an event (\(error)); it was left out.")
                }
            }
        }
        if input.isEnded {
            end(.closedByServer(saidBye: saidBye))
            // The front end is told the shared game is over, even when the server could not say so, so
            // it does not sit on the last screen of a game that is gone.
            if hasStarted && !saidEnded {
                let ended = Event.ended(reason: .quit, cutShort: true)
                events.append(StampedEvent(seq: 0, replyTo: nil, generation: 0, event: ended))
            }
        }
        return events
    }

    /// Follows control and the requests' answers; returns the event as the front end sees it, if it does.
    private func receive(_ stamped: StampedEvent) -> StampedEvent? {
        var stamped = stamped
        switch stamped.event {
        case .role(let role, let controlFree):
            self.role = role
            self.controlFree = controlFree
        case .bye:
            saidBye = true
        case .ended where stamped.replyTo == nil:
            saidEnded = true
        case .hello(let hello):
            words = EngineWords(locale: hello.locale)
        default:
            break
        }
        guard case .int(let number)? = stamped.replyTo else { return unsolicited(stamped) }
        let isDone = stamped.event == .done
        if number == resync {
            stamped.replyTo = nil
            if isDone { resync = nil }
            return isDone ? nil : stamped
        }
        if own.contains(number) || retried.contains(number) {
            if isDone {
                own.remove(number)
                retried.remove(number)
            }
            // The part a `hello` of the host's own asked for is told in its reply: the front end hears of it.
            guard case .role = stamped.event else { return nil }
            stamped.replyTo = nil
            return stamped
        }
        guard let request = outstanding[number] else { return stamped }
        if case .error(let error) = stamped.event {
            if error.code == .readOnly && role == .observer && controlFree {
                // Control came free after the gesture left: take it and play the gesture after all.
                retried.insert(number)
                outstanding[number] = nil
                forward(request, then: followers.removeValue(forKey: number) ?? [])
                return nil
            }
            refused.insert(number)
            if error.code == .readOnly {
                // The server's words are for client programs; the player is told what it means for them.
                stamped.event = .error(ProtocolError(.readOnly, sessionWords(.attachedReadOnly), field: error.field))
            }
        }
        stamped.replyTo = request.id
        if isDone {
            settle(number)
            outstanding[number] = nil
            if leaving && outstanding.isEmpty { detach() }
        }
        return stamped
    }

    /// An event no request of this client asked for: kept aside before the start, left out while the
    /// whole state it is part of is on its way, shown otherwise.
    private func unsolicited(_ stamped: StampedEvent) -> StampedEvent? {
        switch stamped.event {
        case .hello, .role, .error, .ended, .bye:
            guard hasStarted else {
                joined.append(stamped)
                return nil
            }
            return stamped
        case .game, .progress, .done, .validActions, .observation, .snapshot, .idle:
            guard hasStarted else {
                missedState = true
                return nil
            }
            return resync == nil ? stamped : nil
        }
    }

    /// A request is done: the next of its chain goes, unless it was refused.
    private func settle(_ number: Int) {
        let wasRefused = refused.remove(number) != nil
        guard let rest = followers.removeValue(forKey: number), let next = rest.first, !wasRefused else { return }
        forward(next, then: Array(rest.dropFirst()))
    }

    // MARK: - Output

    /// Writes what the socket takes now; a socket that failed ends the connection.
    package func flush() {
        guard !isFinished, !writeAvailable() else { return }
        end(.closedByServer(saidBye: saidBye))
    }

    /// Writes without blocking; `false` when the socket failed.
    private func writeAvailable() -> Bool {
        output.write(to: descriptor)
    }

    /// Leaves the shared game: what waits is written (the server reads all the time; a server that
    /// stopped reading gets at most a second), then the socket closes.
    private func detach() {
        guard !isFinished else { return }
        if !output.bytes.isEmpty {
            var limit = timeval(tv_sec: 1, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            _ = writeAvailable()
        }
        end(.detached)
    }

    private func end(_ ending: Ending) {
        guard self.ending == nil else { return }
        self.ending = ending
        close(descriptor)
        descriptor = -1
        output = SocketOutput()
    }
}
