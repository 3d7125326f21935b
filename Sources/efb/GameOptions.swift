import ArgumentParser
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import EscapeSound
import Foundation

/// How a clock is chosen on the command line.
enum ClockChoice: String, ExpressibleByArgument, CaseIterable {
    case real, virtual
}

/// `--hint-interval`: seconds written as a decimal number, kept as the whole milliseconds they are.
///
/// Parsed by hand: `Double` would take `0x10`, `inf` and `1e-9`, and a fraction of a millisecond would
/// become 0 ms. The text is kept so ``GameOptions/validate()`` can say what was wrong with it.
struct HintInterval: ExpressibleByArgument, Hashable {
    /// The default: 30 seconds.
    static let standard = Self(argument: "30")
    /// The milliseconds allowed: one millisecond to one day.
    static let range: ClosedRange<Int64> = 1...86_400_000

    /// What was written.
    let text: String
    /// The milliseconds it says; `nil` when it is not digits with an optional fraction of at most three
    /// digits (below a millisecond), or when it is too large to count.
    let milliseconds: Int64?

    init(argument: String) {
        text = argument
        let parts = argument.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let digits = whole + fraction
        guard !digits.isEmpty, fraction.count <= 3, whole.count <= 12,
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            milliseconds = nil
            return
        }
        let padded = fraction + String(repeating: "0", count: 3 - fraction.count)
        milliseconds = Int64(whole.isEmpty ? "0" : whole).flatMap { seconds in Int64(padded).map { seconds * 1000 + $0 }
        }
    }

    var defaultValueDescription: String { text }
}

/// The options every way of playing shares.
struct GameOptions: ParsableArguments {
    @Option(help: "Seed of the generator that shuffles answers; the same seed gives the same game.")
    var seed: UInt64 = 1

    @Option(help: "real: the monotonic clock. virtual: time moves only with the wait command.")
    var clock: ClockChoice = .real

    @Option(help: "The save file (default: $XDG_STATE_HOME/escape-from-blindness/progress.json).")
    var save: String?

    @Flag(help: "Keep progress in memory only: nothing is read from or written to disk.")
    var memorySave = false

    @Flag(help: "When another game is using the save, play from it without saving instead of stopping.")
    var readOnlySave = false

    @Option(help: "Language of the adventure (default: from LC_ALL, LC_MESSAGES or LANG).")
    var locale: String?

    @Option(help: "Play an adventure file instead of the shipped one.")
    var adventure: String?

    @Option(help: "Seconds between two hints unlocking (a decimal number, to the millisecond: 0.001 to 86400).")
    var hintInterval: HintInterval = .standard

    @Flag(help: "Unlock every hint as soon as a level starts.")
    var hintsAtOnce = false

    @Flag(help: "Play timed levels without a clock: the torch never goes out.")
    var noTimePressure = false

    /// The options given that choose or change the game itself, by name.
    ///
    /// A game joined with `--attach` was chosen by whoever serves it. An option left at its default
    /// counts as not given.
    var gameChoices: [String] {
        var names: [String] = []
        if seed != 1 { names.append("--seed") }
        if clock != .real { names.append("--clock") }
        if save != nil { names.append("--save") }
        if memorySave { names.append("--memory-save") }
        if readOnlySave { names.append("--read-only-save") }
        if locale != nil { names.append("--locale") }
        if adventure != nil { names.append("--adventure") }
        if hintInterval.milliseconds != HintInterval.standard.milliseconds { names.append("--hint-interval") }
        if hintsAtOnce { names.append("--hints-at-once") }
        if noTimePressure { names.append("--no-time-pressure") }
        return names
    }

    /// Refuses `--attach` beside options that choose the game: the server chose it.
    ///
    /// - Parameter attach: The socket given with `--attach`, if any.
    /// - Throws: A `ValidationError` naming the options that cannot go with it.
    func validate(attach: String?) throws {
        guard attach != nil, !gameChoices.isEmpty else { return }
        let names = gameChoices.joined(separator: ", ")
        throw ValidationError(
            "--attach joins a game that efb serve already set up, so \(names) cannot be used with it; "
                + "give \(gameChoices.count == 1 ? "it" : "them") to efb serve instead."
        )
    }

    func validate() throws {
        if memorySave && save != nil { throw ValidationError("--save and --memory-save cannot be used together.") }
        // Checked as the milliseconds the engine will use, not as the text or a floating-point value.
        guard let milliseconds = hintInterval.milliseconds else {
            throw ValidationError(
                "--hint-interval takes seconds in decimal digits, to the millisecond (at most three after the point), "
                    + "such as 30 or 0.5, from 0.001 to 86400 (not \"\(hintInterval.text)\")."
            )
        }
        guard (HintInterval.range).contains(milliseconds) else {
            throw ValidationError(
                "--hint-interval must be at least 0.001 and at most 86400 seconds (not \"\(hintInterval.text)\")."
            )
        }
    }

    /// What to say, once, when the game ships no adventure in `locale`'s language; `nil` when it does,
    /// or when `locale` names no language (`C`, `POSIX`, empty), which plays in English without a word.
    ///
    /// - Parameter locale: The locale asked for, by `--locale` or the environment.
    /// - Returns: The line for standard error, with the languages there are.
    static func unknownLocaleWarning(_ locale: String) -> String? {
        let language = String(locale.prefix { $0.isLetter })
        guard AdventureLoader.bundledLocale(for: locale) == nil, !language.isEmpty, language != "C",
            language != "POSIX"
        else { return nil }
        let available = AdventureLoader.bundledLocales.joined(separator: ", ")
        return "efb: there is no adventure in \"\(locale)\"; playing in English. Available: \(available).\n"
    }

    /// Loads the adventure and opens the save: a game ready to start.
    ///
    /// - Throws: `ExitCode(65)` when the adventure cannot be played and `ExitCode(75)` when another game
    ///   holds the save (unless `--read-only-save`), each after a plain message for standard error.
    /// - Parameters:
    ///   - whenLocked: What to do when another game holds the save; `nil` follows `--read-only-save`
    ///     (refuse without it).
    ///   - report: Where its messages go, each ending with a newline: standard error unless a test
    ///     collects them.
    /// - Returns: The game, its save opened.
    func makeHost(
        whenLocked: SaveKeeper.WhenLocked? = nil,
        report: (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) throws -> SessionHost {
        let story = try loadAdventure(report: report)
        let environment = ProcessInfo.processInfo.environment
        let keeper: SaveKeeper
        let startup: SaveStartup
        do {
            let store: any SaveStore =
                try memorySave
                ? InMemorySaveStore()
                : save.map { path throws(SaveError) in try FileSaveStore(checking: path) }
                    ?? FileSaveStore(path: FileSaveStore.defaultPath(environment: environment), makesParents: true)
            keeper = SaveKeeper(store: store)
            startup = try keeper.open(for: story, whenLocked: whenLocked ?? (readOnlySave ? .readOnly : .refuse))
        } catch SaveError.notASave(let path, let reason) {
            // Not ours: left untouched, and no game starts with it (EX_USAGE).
            let message = """
                efb: \(path) cannot be used as the save: \(reason).
                It was left untouched. Give --save the path of a new file or of a save of this game.

                """
            report(message)
            throw ExitCode(64)
        } catch SaveError.locked(let path) {
            let message = """
                efb: another game is already playing with the save (file \(path)).
                Finish that game first, or start this one with --read-only-save (it will not be saved) \
                or with --save OTHER-FILE.

                """
            report(message)
            throw ExitCode(75)
        } catch {
            report("efb: \(error)\n")
            throw ExitCode(64)
        }
        let options = engineOptions
        let gameClock: any GameClock = clock == .virtual ? VirtualClock() : MonotonicClock()
        return SessionHost(adventure: story, options: options, keeper: keeper, startup: startup, clock: gameClock)
    }

    /// `count` games in one pool, each with its progress in memory; game `i` shuffles with the seed
    /// plus `i`.
    func makePool(
        games count: Int,
        report: (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) throws -> GamePool {
        let story = try loadAdventure(report: report)
        // One clock for every game: the pool's deadlines are compared on one scale.
        let shared: any GameClock = clock == .virtual ? VirtualClock() : MonotonicClock()
        let hosts = (0..<count).map { number in
            var options = engineOptions
            options.seed = seed &+ UInt64(number)
            return SessionHost(adventure: story, options: options, store: InMemorySaveStore(), clock: shared)
        }
        return GamePool(hosts: hosts)
    }

    private var engineOptions: EngineOptions {
        EngineOptions(
            hintInterval: hintInterval.milliseconds ?? HintInterval.range.lowerBound,
            hintsAtOnce: hintsAtOnce,
            seed: seed,
            timePressure: !noTimePressure
        )
    }

    /// The adventure to play: the file given, or the shipped one in the locale asked for.
    private func loadAdventure(report: (String) -> Void) throws -> Adventure {
        let environment = ProcessInfo.processInfo.environment
        let story: Adventure
        do {
            if let adventure {
                story = try AdventureLoader.load(path: adventure)
            } else {
                let locale =
                    locale ?? environment["LC_ALL"] ?? environment["LC_MESSAGES"] ?? environment["LANG"] ?? "en"
                if let warning = Self.unknownLocaleWarning(locale) {
                    report(warning)
                }
                story = try AdventureLoader.bundled(locale: locale)
            }
        } catch {
            report("efb: the adventure cannot be played:\n\(error)\n")
            throw ExitCode(65)
        }
        return story
    }

    /// The one way every front end is played: the game set up, the stop signals caught, one event loop.
    ///
    /// - Parameters:
    ///   - clock: The front end's clock (the loop's), when the front end keeps time of its own.
    ///   - whenLocked: What to do when another game holds the save (see ``makeHost(whenLocked:)``).
    ///   - sound: The sound options, for a front end that plays sound; every sound stops when the loop ends.
    ///   - attach: The socket of a game `efb serve` shares, to join it instead of starting one.
    ///   - games: How many games to host (`efb pipe --games`); more than one are kept in memory.
    ///   - makeFrontEnd: The front end, made once the game is ready.
    /// - Throws: What ``makeHost(whenLocked:)`` throws; `ExitCode(69)` when no game is served at `attach`,
    ///   or the server went away without ending the game.
    func play(
        clock: any GameClock = MonotonicClock(),
        whenLocked: SaveKeeper.WhenLocked? = nil,
        sound: SoundOptions? = nil,
        attach: String? = nil,
        games: Int = 1,
        frontEnd makeFrontEnd: () -> any FrontEnd
    ) throws {
        try play(
            clock: clock,
            whenLocked: whenLocked,
            sound: sound,
            attach: attach,
            games: games,
            frontEndFor: { _ in makeFrontEnd() }
        )
    }

    /// ``play(clock:whenLocked:sound:attach:frontEnd:)`` for a front end that depends on the game's
    /// language: `makeFrontEnd` gets the adventure's locale, or `nil` for a joined game (whose language
    /// is the served game's).
    func play(
        clock: any GameClock = MonotonicClock(),
        whenLocked: SaveKeeper.WhenLocked? = nil,
        sound: SoundOptions? = nil,
        attach: String? = nil,
        games: Int = 1,
        frontEndFor makeFrontEnd: (_ locale: String?) throws -> any FrontEnd
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        let host: any GameHost
        let locale: String?
        if let attach {
            host = try Self.attach(to: attach, clock: clock)
            locale = nil
        } else if games > 1 {
            let pool = try makePool(games: games)
            host = pool
            locale = pool.hosts[0].engine.adventure.locale
        } else {
            let local = try makeHost(whenLocked: whenLocked)
            host = local
            locale = local.engine.adventure.locale
        }
        StopSignals.install()
        var frontEnd = try makeFrontEnd(locale)
        let player = sound?.makePlayer()
        defer { player?.stop() }
        if let player { frontEnd = SoundFrontEnd(frontEnd, player: player) }
        EventLoop(host: host, frontEnd: frontEnd, clock: clock).run()
        if let remote = host as? RemoteHost, let attach { try Self.report(remote.ending, path: attach) }
    }

    /// Connects to the game served on `path`.
    ///
    /// - Throws: `ExitCode(69)` (EX_UNAVAILABLE) after a one-line message when nothing serves a game there.
    private static func attach(to path: String, clock: any GameClock) throws -> RemoteHost {
        let log: (String) -> Void = { FileHandle.standardError.write(Data("efb: \($0)\n".utf8)) }
        do {
            return try RemoteHost(connectingTo: path, clock: clock, log: log)
        } catch {
            log("no game to join at \(path) (\(error)); start one with efb serve, or check the path.")
            throw ExitCode(69)
        }
    }

    /// Says how a joined game was left.
    ///
    /// - Throws: `ExitCode(69)` when the server went away without ending the game.
    private static func report(_ ending: RemoteHost.Ending?, path: String) throws {
        switch ending {
        case .detached, nil:
            FileHandle.standardError.write(Data("efb: left the game served on \(path); it goes on.\n".utf8))
        case .closedByServer(saidBye: false):
            FileHandle.standardError.write(Data("efb: the game served on \(path) went away.\n".utf8))
            throw ExitCode(69)
        case .closedByServer(saidBye: true):
            break
        }
    }
}
