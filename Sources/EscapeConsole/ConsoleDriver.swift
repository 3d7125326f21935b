public import EscapeProtocol
public import EscapeRuntime

/// The console's turn-taking, without I/O: typed lines in as session inputs, the session's events out
/// as lines.
///
/// ``ConsoleFrontEnd`` owns one: it hands what ``interpret(_:)`` gives to the session and the session's
/// events to ``render(_:)``. It remembers which command each of its requests carried, so every answer
/// is rendered as an answer to its own command.
public struct ConsoleDriver: Sendable {
    /// What a typed line comes to.
    public enum Interpretation: Sendable, Hashable {
        /// Commands for the session, one request each; the first one refused stops the rest.
        case submit(SessionInput)
        /// Lines the console answers by itself (help, the item list, a typing mistake).
        case lines([ConsoleLine])
    }

    private var renderer = ConsoleRenderer()
    private var commands: [RequestID: Command] = [:]
    private var requestNumber = 0

    /// Creates a driver that has seen nothing yet.
    public init() {}

    /// What the console was shown so far.
    public var context: ConsoleContext { renderer.context }

    /// The console's `hello`: it asks for protocol 1.1, whose `elementChanged` keeps every item of the
    /// listing as it is now, not only the focused one, and whose `timer` says a timed level's clock.
    public static var hello: ClientHello {
        ClientHello(client: "efb console", acceptedVersions: .versions([.v1_0, .v1_1]), capabilities: ["console"])
    }

    /// What the console says right after the session's opening: its ``hello``.
    ///
    /// - Returns: The hello, numbered like every request of the console, so its reply is rendered as one.
    public mutating func opening() -> SessionInput {
        .requests([number(Request(command: .hello(Self.hello)))])
    }

    /// Interprets one typed line.
    ///
    /// - Parameter line: The line, without its terminator.
    /// - Returns: Requests for the session, or lines to write at once.
    public mutating func interpret(_ line: String) -> Interpretation {
        switch ConsoleCommandParser.parse(line, in: renderer.context) {
        case .send(let requests):
            return .submit(.requests(requests.map { number($0) }))
        case .help:
            return .lines(renderer.help())
        case .list:
            return .lines(renderer.listing())
        case .actions:
            return .lines(renderer.actionsListing())
        case .failure(let message):
            return .lines([ConsoleLine(message)])
        }
    }

    /// Gives `request` the next id and remembers its command, to render its answer with it.
    private mutating func number(_ request: Request) -> Request {
        requestNumber += 1
        var numbered = request
        numbered.id = .int(requestNumber)
        commands[.int(requestNumber)] = request.command
        return numbered
    }

    /// Renders the session's events: each request's answer with its command, unasked news as such.
    ///
    /// - Parameter events: The events, in order.
    /// - Returns: The lines to write.
    public mutating func render(_ events: [StampedEvent]) -> [ConsoleLine] {
        var lines: [ConsoleLine] = []
        var start = events.startIndex
        while start < events.endIndex {
            let replyTo = events[start].replyTo
            let end = events[start...].firstIndex { $0.replyTo != replyTo } ?? events.endIndex
            let command = replyTo.flatMap { commands[$0] }
            lines += renderer.render(Array(events[start..<end]), answering: command)
            if let replyTo, events[start..<end].contains(where: { $0.event == .done }) {
                commands[replyTo] = nil
            }
            start = end
        }
        return lines
    }

    /// Carries out one typed line on `host` at once, for programs and tests that drive a console
    /// without the event loop.
    ///
    /// - Parameters:
    ///   - line: The line, without its terminator.
    ///   - host: The game.
    /// - Returns: The lines to write in answer.
    public mutating func enter(_ line: String, on host: SessionHost) -> [ConsoleLine] {
        switch interpret(line) {
        case .submit(let input): render(host.handle(input))
        case .lines(let lines): lines
        }
    }
}
