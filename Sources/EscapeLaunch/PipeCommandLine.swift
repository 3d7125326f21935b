// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `efb pipe`: its command line, read without ArgumentParser, and the pipe it starts.
///
/// `efb` starts the pipe itself and hands every other command line to the whole program (see
/// ``FullProgram``), so bots and embedders, who start an engine per game or per worker, do not pay for
/// the terminal, Braille, web and argument-parsing code. The reading here accepts only command lines it
/// reads exactly as the whole program's ArgumentParser does (a test compares the two on thousands of
/// command lines); anything else (help, an unknown word, a value that is refused) gets `nil`, and the
/// whole program answers it with ArgumentParser's own messages.
package struct PipeCommandLine: Hashable, Sendable {
    /// The most games one pipe hosts.
    package static let maximumGames = GamePool.maximumGames

    /// The game options.
    package var settings: GameSettings
    /// How many games the pipe hosts (`--games`).
    package var games: Int

    /// A pipe hosting `games` games made with `settings`.
    package init(settings: GameSettings, games: Int = 1) {
        self.settings = settings
        self.games = games
    }

    /// Why `--games` cannot be used with these settings, as a sentence naming the options; `nil` when
    /// it can.
    package var problem: String? {
        guard (1...Self.maximumGames).contains(games) else {
            return "--games must be between 1 and \(Self.maximumGames) (not \(games))."
        }
        if games > 1, settings.save != nil || settings.readOnlySave {
            return "--games \(games) keeps every game's progress in memory, so --save and --read-only-save cannot be "
                + "used with it."
        }
        return nil
    }

    /// The words `efb` takes as its own options rather than the pipe's: they choose no subcommand.
    package static let topLevelFlags = [
        "-h", "--help", "-help", "--version", "--generate-completion-script", "--experimental-dump-help",
    ]

    /// Whether `efb`'s first argument chooses what to do by itself (a subcommand, `help` or a top-level
    /// flag); when it does not, `efb` plays at a terminal and is the pipe otherwise.
    ///
    /// - Parameter first: The first argument after the program's name, if any.
    /// - Returns: `true` for a word or a top-level flag, `false` for none or an option of the pipe's.
    package static func choosesForItself(_ first: String?) -> Bool {
        guard let first else { return false }
        return !first.hasPrefix("-") || topLevelFlags.contains { first == $0 || first.hasPrefix($0 + "=") }
    }

    /// Reads `efb`'s arguments (without the program's name) when they start the pipe: `pipe` first, or
    /// no subcommand while standard input is not a terminal.
    ///
    /// - Parameters:
    ///   - arguments: The arguments.
    ///   - standardInputIsTerminal: Whether standard input is a terminal (no subcommand then plays there).
    ///
    /// `nil` when the arguments do something else, or anything the whole program should answer (help,
    /// an unknown option, a value it refuses).
    package init?(arguments: [String], standardInputIsTerminal: Bool) {
        let options: ArraySlice<String>
        if arguments.first == "pipe" {
            options = arguments.dropFirst()
        } else if !Self.choosesForItself(arguments.first) && !standardInputIsTerminal {
            options = arguments[...]
        } else {
            return nil
        }
        guard let read = Self.read(options) else { return nil }
        self = read
    }

    /// The flags of `efb pipe`, and the setting each sets.
    private static let flags: [Substring: any WritableKeyPath<GameSettings, Bool> & Sendable] = [
        "--memory-save": \.memorySave, "--read-only-save": \.readOnlySave, "--hints-at-once": \.hintsAtOnce,
        "--no-time-pressure": \.noTimePressure,
    ]

    /// The options of `efb pipe`, or `nil` for anything but options of its own with usable values.
    ///
    /// An option given twice keeps its last value, as in ArgumentParser.
    private static func read(_ options: ArraySlice<String>) -> Self? {
        var settings = GameSettings()
        var games = 1
        var rest = options
        while let word = rest.popFirst() {
            guard word.hasPrefix("--") else { return nil }
            let equals = word.firstIndex(of: "=")
            let name = word[..<(equals ?? word.endIndex)]
            // A value: after `=`, or the next argument unless it looks like an option.
            func value() -> String? {
                if let equals { return String(word[word.index(after: equals)...]) }
                guard let next = rest.first, !next.hasPrefix("-") else { return nil }
                rest.removeFirst()
                return next
            }
            if let flag = Self.flags[name] {
                guard equals == nil else { return nil }
                settings[keyPath: flag] = true
                continue
            }
            guard let text = value(), !text.isEmpty, !text.hasPrefix("-") else { return nil }
            switch name {
            case "--seed":
                guard let seed = UInt64(text) else { return nil }
                settings.seed = seed
            case "--clock":
                guard let clock = GameSettings.Clock(rawValue: text) else { return nil }
                settings.clock = clock
            case "--save": settings.save = text
            case "--locale": settings.locale = text
            case "--adventure": settings.adventure = text
            case "--hint-interval": settings.hintInterval = HintInterval(text: text)
            case "--games":
                guard let count = Int(text) else { return nil }
                games = count
            default: return nil
            }
        }
        let pipe = Self(settings: settings, games: games)
        guard settings.problem == nil, pipe.problem == nil else { return nil }
        return pipe
    }

    /// What `efb pipe` says at a terminal, where a person may have started it by mistake.
    package static var terminalNote: String {
        func line(_ command: Command) -> String {
            JSONWriter.string(RequestEncoder.json(Request(command: command)))
        }
        return "efb pipe: type one JSON command per line, e.g. \(line(.game(.next))) or "
            + "\(line(.game(.activate(element: nil)))); \(line(.quit)) ends. The protocol is in /usr/share/doc/efb/protocol/README.md.gz.\n"
    }

    /// Plays: the game (or games) set up, the stop signals caught, the pipe on standard input and output
    /// until the end of input, `quit` or a stop signal.
    ///
    /// - Parameter environment: The process environment, when the caller has read it already.
    /// - Returns: The exit status: 0, or a ``LaunchFailure``'s after its message.
    package func run(environment: [String: String] = ProcessEnvironment.current) -> Int32 {
        if isatty(0) == 1 { StandardError.write(Self.terminalNote) }
        signal(SIGPIPE, SIG_IGN)
        let host: any GameHost
        do {
            // A protocol client learns of a locked save from save_locked and plays on read-only: errors
            // never end the pipe.
            host =
                games > 1
                ? try settings.makePool(games: games, environment: environment)
                : try settings.makeHost(whenLocked: .readOnly, environment: environment)
        } catch {
            return error.status
        }
        StopSignals.install()
        // Many games' lines come together: each game's answer goes out as soon as it is made.
        EventLoop(host: host, frontEnd: PipeFrontEnd(writesEachAnswer: games > 1), clock: MonotonicClock()).run()
        return 0
    }
}
