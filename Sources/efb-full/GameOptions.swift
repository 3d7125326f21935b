// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeContent
import EscapeCore
import EscapeLaunch
import EscapeRuntime
import EscapeSaves
import EscapeSound

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension GameSettings.Clock: ExpressibleByArgument {}

extension HintInterval: ExpressibleByArgument {
    /// Reads `--hint-interval`'s value; a value it cannot use is refused by ``GameOptions/validate()``.
    package init(argument: String) { self.init(text: argument) }

    /// The default, as it was written.
    package var defaultValueDescription: String { text }
}

/// The options every way of playing shares.
struct GameOptions: ParsableArguments {
    // Taken whatever it looks like, so that `--seed -1` is refused for what it is, not as a missing value.
    @Option(
        parsing: .unconditional,
        help: "Seed of the generator that shuffles answers; the same seed gives the same game.",
        transform: GameOptions.seed(from:)
    )
    var seed: UInt64 = 1

    @Option(help: "real: the monotonic clock. virtual: time moves only with the wait command.")
    var clock: GameSettings.Clock = .real

    @Option(
        help: "The save file (default: $XDG_STATE_HOME/escape-from-blindness/progress.json).",
        completion: .file()
    )
    var save: String?

    @Flag(help: "Keep progress in memory only: nothing is read from or written to disk.")
    var memorySave = false

    @Flag(help: "When another game is using the save, play from it without saving instead of stopping.")
    var readOnlySave = false

    @Option(
        help: "Language of the adventure (default: from LC_ALL, LC_MESSAGES or LANG).",
        completion: .list(AdventureLoader.bundledLocales)
    )
    var locale: String?

    @Option(help: "Play an adventure file instead of the shipped one.", completion: .file(extensions: ["json"]))
    var adventure: String?

    @Option(help: "Seconds between two hints unlocking (a decimal number, to the millisecond: 0.001 to 86400).")
    var hintInterval: HintInterval = .standard

    @Flag(help: "Unlock every hint as soon as a level starts.")
    var hintsAtOnce = false

    @Flag(help: "Play timed levels without a clock: the torch never goes out.")
    var noTimePressure = false

    /// Reads `--seed`'s value: a whole number from 0 to 2^64 − 1.
    ///
    /// - Throws: `ValidationError` with a sentence that says what the value is not.
    static func seed(from text: String) throws -> UInt64 {
        if let seed = UInt64(text) { return seed }
        let reason =
            if text.hasPrefix("-"), Int64(text) != nil || text.dropFirst().allSatisfy(\.isNumber) {
                "a seed is a whole number from 0 to \(UInt64.max), never negative"
            } else {
                "a seed is a whole number from 0 to \(UInt64.max)"
            }
        throw ValidationError(reason)
    }

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
        if let problem = settings.problem { throw ValidationError(problem) }
    }

    /// The settings these options give, for making the game.
    var settings: GameSettings {
        var settings = GameSettings()
        settings.seed = seed
        settings.clock = clock
        settings.save = save
        settings.memorySave = memorySave
        settings.readOnlySave = readOnlySave
        settings.locale = locale
        settings.adventure = adventure
        settings.hintInterval = hintInterval
        settings.hintsAtOnce = hintsAtOnce
        settings.noTimePressure = noTimePressure
        return settings
    }

    /// Loads the adventure and opens the save: a game ready to start (``GameSettings/makeHost``).
    ///
    /// - Throws: `ExitCode(65)` when the adventure cannot be played, `ExitCode(64)` when the save is not
    ///   one, and `ExitCode(75)` when another game holds the save (unless `--read-only-save`), each after
    ///   a plain message for standard error.
    func makeHost(whenLocked: SaveKeeper.WhenLocked? = nil) throws -> SessionHost {
        do {
            return try settings.makeHost(whenLocked: whenLocked)
        } catch {
            throw ExitCode(error.status)
        }
    }

    /// The one way every front end is played: the game set up, the stop signals caught, one event loop.
    ///
    /// - Parameters:
    ///   - clock: The front end's clock (the loop's), when the front end keeps time of its own.
    ///   - whenLocked: What to do when another game holds the save (see ``makeHost(whenLocked:)``).
    ///   - sound: The sound options, for a front end that plays sound; every sound stops when the loop ends.
    ///   - attach: The socket of a game `efb serve` shares, to join it instead of starting one.
    ///   - makeFrontEnd: The front end, made once the game is ready.
    /// - Throws: What ``makeHost(whenLocked:)`` throws; `ExitCode(69)` when no game is served at `attach`,
    ///   or the server went away without ending the game.
    func play(
        clock: any GameClock = MonotonicClock(),
        whenLocked: SaveKeeper.WhenLocked? = nil,
        sound: SoundOptions? = nil,
        attach: String? = nil,
        frontEnd makeFrontEnd: () -> any FrontEnd
    ) throws {
        try play(
            clock: clock,
            whenLocked: whenLocked,
            sound: sound,
            attach: attach,
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
        frontEndFor makeFrontEnd: (_ locale: String?) throws -> any FrontEnd
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        let host: any GameHost
        let locale: String?
        if let attach {
            host = try Self.attach(to: attach, clock: clock)
            locale = nil
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
        let log: (String) -> Void = { StandardError.write("efb: \($0)\n") }
        do {
            return try RemoteHost(connectingTo: path, clock: clock, log: log)
        } catch {
            // Another user's socket: nothing was said to it (EX_NOPERM).
            if case .servedByAnotherUser = error {
                log("\(error)")
                throw ExitCode(77)
            }
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
            StandardError.write("efb: left the game served on \(path); it goes on.\n")
        case .closedByServer(saidBye: false):
            StandardError.write("efb: the game served on \(path) went away.\n")
            throw ExitCode(69)
        case .closedByServer(saidBye: true):
            break
        }
    }
}
