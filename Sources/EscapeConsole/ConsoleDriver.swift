import EscapeProtocol
public import EscapeRuntime

/// The console's turn-taking, without I/O: typed lines in, the session's answers out as lines.
///
/// ``ConsoleFrontEnd`` owns one and only reads, writes and waits; tests drive one directly.
/// Like the session it drives, it is not thread-safe; one owner calls it.
public struct ConsoleDriver {
    /// The game.
    public let session: Session
    private var renderer = ConsoleRenderer()

    /// Creates a driver for a session that has not started yet.
    ///
    /// - Parameter session: The game.
    public init(session: Session) {
        self.session = session
    }

    /// What the console was shown so far.
    public var context: ConsoleContext { renderer.context }

    /// Whether the game is over (`quit` or the end of input).
    public var isFinished: Bool { session.isFinished }

    /// The opening: the game's title, the first screen and the focus.
    public mutating func start() -> [ConsoleLine] {
        renderer.render(session.start())
    }

    /// Carries out one typed line.
    ///
    /// Requests go to the session one after another; the first one refused stops the rest (an answer is
    /// not submitted when it could not be typed).
    ///
    /// - Parameter line: The line, without its terminator.
    /// - Returns: The lines to write in answer.
    public mutating func enter(_ line: String) -> [ConsoleLine] {
        switch ConsoleCommandParser.parse(line, in: renderer.context) {
        case .send(let requests):
            var lines: [ConsoleLine] = []
            for request in requests {
                let events = session.handle(request)
                lines += renderer.render(events, answering: request.command)
                let refused = events.contains { if case .error = $0.event { true } else { false } }
                if refused || session.isFinished { break }
            }
            return lines
        case .help:
            return renderer.help()
        case .list:
            return renderer.listing()
        case .actions:
            return renderer.actionsListing()
        case .failure(let message):
            return [ConsoleLine(message)]
        }
    }

    /// What time brought: a hint that unlocked, say.
    public mutating func tick() -> [ConsoleLine] {
        renderer.render(session.tick())
    }

    /// Ends the game because the input ended.
    public mutating func finish() -> [ConsoleLine] {
        renderer.render(session.finish())
    }
}
