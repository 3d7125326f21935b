import EscapeProtocol
public import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The console: typed commands in, plain lines out, for a terminal and whatever screen reader reads it.
///
/// It has the pipe's shape: between commands it waits on its input with `poll`, waking up when a hint
/// unlocks so the news is written without waiting for the next command. Typed lines go to a
/// ``ConsoleDriver``, which parses them, asks the session and renders its events; the front end only reads,
/// writes and waits. It never writes protocol JSON and never moves the cursor.
public struct ConsoleFrontEnd {
    /// How the console writes.
    public struct Options: Sendable, Hashable {
        /// Whether to colour hints, errors and verdicts with ANSI codes.
        public var color: Bool
        /// Whether to write a `> ` prompt when waiting for a command (worth it only at a terminal).
        public var prompt: Bool

        /// Creates options.
        ///
        /// - Parameters:
        ///   - color: Whether to colour hints, errors and verdicts.
        ///   - prompt: Whether to write a prompt.
        public init(color: Bool = false, prompt: Bool = false) {
            self.color = color
            self.prompt = prompt
        }
    }

    /// The longest line read, in bytes; commands and answers are short.
    static let maximumLineLength = 4096

    private let session: Session
    private let options: Options
    private let speaker: (any Speaker)?
    private let input: Int32
    private let output: Int32

    /// Creates a console.
    ///
    /// - Parameters:
    ///   - session: The game.
    ///   - options: Colour and prompt.
    ///   - speaker: Where to say the lines too, if anywhere.
    ///   - input: Where typed lines come from (standard input by default).
    ///   - output: Where the lines go (standard output by default).
    public init(
        session: Session,
        options: Options = Options(),
        speaker: (any Speaker)? = nil,
        input: Int32 = 0,
        output: Int32 = 1
    ) {
        self.session = session
        self.options = options
        self.speaker = speaker
        self.input = input
        self.output = output
    }

    /// Plays until `quit` or the end of the input.
    ///
    /// - Returns: `false` when the output could not be written (the terminal went away).
    @discardableResult
    public func run() -> Bool {
        var driver = ConsoleDriver(session: session)
        var writer = Writer(output: output, options: options, speaker: speaker)
        var framer = LineFramer(maximumLineLength: Self.maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard writer.show(driver.start(), language: driver.context.locale), writer.prompt() else { return false }
        while !driver.isFinished {
            if !waitForInput() {
                guard writer.show(driver.tick(), language: driver.context.locale), writer.prompt() else {
                    return false
                }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            if count == 0 { break }
            for frame in framer.feed(buffer[..<count]) {
                writer.lineEntered()
                guard writer.show(Self.enter(frame, into: &driver), language: driver.context.locale) else {
                    return false
                }
                if driver.isFinished { return true }
                guard writer.prompt() else { return false }
            }
        }
        if let frame = framer.finish() {
            writer.lineEntered()
            guard writer.show(Self.enter(frame, into: &driver), language: driver.context.locale) else {
                return false
            }
        }
        return writer.show(driver.finish(), language: driver.context.locale)
    }

    /// Carries out one framed line.
    private static func enter(_ frame: LineFramer.Frame, into driver: inout ConsoleDriver) -> [ConsoleLine] {
        switch frame {
        case .tooLong(let length):
            [ConsoleLine("That line is \(length) bytes long; commands and answers are short.", style: .error)]
        case .line(let bytes):
            driver.enter(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Waits until input is readable (`true`) or the next hint deadline passes (`false`).
    private func waitForInput() -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        while true {
            var timeout: Int32 = -1
            if let deadline = session.nextDeadline {
                timeout = Int32(clamping: max(0, deadline - session.now))
                if timeout == 0 { return false }
            }
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return true }
        }
    }
}

/// Writes lines and the prompt to the output, and hands the spoken ones to the speaker.
private struct Writer {
    let output: Int32
    let options: ConsoleFrontEnd.Options
    let speaker: (any Speaker)?
    /// Whether the prompt is on the last line, waiting for the player's Enter.
    private var prompting = false

    init(output: Int32, options: ConsoleFrontEnd.Options, speaker: (any Speaker)?) {
        self.output = output
        self.options = options
        self.speaker = speaker
    }

    /// The player pressed Enter: the terminal is at the start of a fresh line.
    mutating func lineEntered() {
        prompting = false
    }

    /// Writes the prompt, if prompts are on.
    mutating func prompt() -> Bool {
        guard options.prompt, !prompting else { return true }
        prompting = true
        return send(Array("> ".utf8))
    }

    /// Writes lines; lines that arrive while the prompt waits start below it.
    mutating func show(_ lines: [ConsoleLine], language: String?) -> Bool {
        guard !lines.isEmpty else { return true }
        var text = prompting ? "\n" : ""
        prompting = false
        for line in lines {
            text += line.formatted(color: options.color) + "\n"
        }
        let spoken = lines.filter(\.spoken).map(\.text)
        if let speaker, !spoken.isEmpty { speaker.speak(spoken.joined(separator: "\n"), language: language) }
        return send(Array(text.utf8))
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(output, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
