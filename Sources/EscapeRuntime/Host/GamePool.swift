// SPDX-License-Identifier: Apache-2.0
public import EscapeProtocol

/// Many games in one engine (`efb pipe --games N`): one ``SessionHost`` each, behind one pipe.
///
/// A line goes to the game its `game` field names (0 when it names none), decoded once; a line whose
/// game cannot be read (not JSON, not an object, a refused `game`) is answered by game 0. Every event
/// says its game (`StampedEvent/game`), and each game's `hello` says how many there are. A line that
/// is no game's is refused by game 0 at once, even while game 0 waits. Each game
/// keeps its own `seq`, `gen`, clock and progress: the games never meet. A `quit` ends them all (the
/// others as at the end of the input), so no line can be sent to a game that is over while the
/// others go on. Time reaches every game; a real-clock `wait` holds the lines of its own game only.
///
/// It is not thread-safe; one owner calls it.
public final class GamePool: GameHost {
    /// The most games one pool hosts.
    public static let maximumGames = 1024

    /// The games, in order: game `i` is `hosts[i]`.
    public let hosts: [SessionHost]

    /// Creates a pool of the given games.
    ///
    /// - Parameter hosts: The games, at least one and at most ``maximumGames``.
    public init(hosts: [SessionHost]) {
        precondition((1...Self.maximumGames).contains(hosts.count), "a pool hosts 1 to \(Self.maximumGames) games")
        self.hosts = hosts
    }

    /// Whether every game has started.
    public var hasStarted: Bool { hosts.allSatisfy(\.hasStarted) }
    /// Whether every game is over.
    public var isFinished: Bool { hosts.allSatisfy(\.isFinished) }
    /// The earliest time a game asked to be woken at.
    public var nextDeadline: Int64? { hosts.lazy.compactMap(\.nextDeadline).min() }
    /// The clock's time (the games share one kind of clock).
    public var now: Int64 { hosts[0].now }
    /// Whether every game takes more lines: while one real-clock `wait` holds all the lines it can,
    /// the pipe is not read.
    public var acceptsInput: Bool { hosts.allSatisfy(\.acceptsInput) }

    /// Hands an input to the game it is for; the opening, time, the end of the input and a stop go to
    /// every game, in order.
    public func handle(_ input: SessionInput) -> [StampedEvent] {
        switch input {
        case .start, .time, .endOfInput, .inputEnds, .stop:
            return everyGame(input)
        case .frame(.line(let bytes), let origin):
            let routed = CommandDecoder.decode(bytes, games: hosts.count)
            if case .blank = routed.outcome { return [] }
            guard let number = routed.game else {
                return game(0, unrouted(routed.outcome, length: bytes.count, from: origin))
            }
            return game(number, .decoded(routed.outcome, length: bytes.count, from: origin))
        case .frame(.tooLong, _), .saveFailed, .unrouted:
            return game(0, input)
        case .decoded(.request(let request), _, _), .request(let request), .question(let request):
            return route(request, input)
        case .decoded:
            return game(0, input)
        case .requests(let requests), .keepingSnapshot(_, let requests), .restoring(_, _, let requests):
            guard let first = requests.first else { return game(0, input) }
            return route(first, input)
        }
    }

    /// An input to the game its request names; one that names none of the pool's is refused by game 0
    /// as a line would be (an embedder's request, not a line, which the decoder checked).
    private func route(_ request: Request, _ input: SessionInput) -> [StampedEvent] {
        let number = request.game ?? 0
        guard hosts.indices.contains(number) else {
            let refusal = CommandDecoder.refusal(game: number, games: hosts.count)
            return game(0, unrouted(.failure(refusal, replyTo: request.id), length: 0, from: request.origin))
        }
        return game(number, input)
    }

    /// A line no game takes, for game 0 to refuse: at once when the pool hosts many games (it waits
    /// behind no game's `wait`), in its turn when game 0 is the only one (as `efb pipe` alone).
    private func unrouted(_ outcome: CommandDecoder.Outcome, length: Int, from origin: Origin?) -> SessionInput {
        hosts.count > 1 ? .unrouted(outcome, from: origin) : .decoded(outcome, length: length, from: origin)
    }

    /// The events of one input to game `number`, each saying its game; after a `quit`, the others end.
    private func game(_ number: Int, _ input: SessionInput) -> [StampedEvent] {
        let host = hosts[number]
        var events = stamped(host.handle(input), game: number)
        if host.isFinished, !isFinished {
            for (other, host) in hosts.enumerated() where !host.isFinished {
                events += stamped(host.finish(), game: other)
            }
        }
        return events
    }

    /// What one input brings to each game in turn.
    private func everyGame(_ input: SessionInput) -> [StampedEvent] {
        var events: [StampedEvent] = []
        for (number, host) in hosts.enumerated() { events += stamped(host.handle(input), game: number) }
        return events
    }

    /// `events` marked as game `number`'s, when the pool has more than one; a `hello` says how many.
    private func stamped(_ events: [StampedEvent], game number: Int) -> [StampedEvent] {
        guard hosts.count > 1 else { return events }
        var events = events
        for index in events.indices {
            events[index].game = number
            if case .hello(var hello) = events[index].event {
                hello.games = hosts.count
                events[index].event = .hello(hello)
            }
        }
        return events
    }
}
