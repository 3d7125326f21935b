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

    @Option(help: "Seconds between two hints unlocking.")
    var hintInterval: Double = 30

    @Flag(help: "Unlock every hint as soon as a level starts.")
    var hintsAtOnce = false

    @Flag(help: "Play timed levels without a clock: the torch never goes out.")
    var noTimePressure = false

    func validate() throws {
        if memorySave && save != nil { throw ValidationError("--save and --memory-save cannot be used together.") }
        if !(hintInterval > 0 && hintInterval <= 86_400) {
            throw ValidationError("--hint-interval must be more than 0 and at most 86400 seconds.")
        }
    }

    /// The language the game will be played in: the adventure file's own with `--adventure`, else the
    /// one asked for (`--locale`, then LC_ALL, LC_MESSAGES, LANG).
    var adventureLocale: String {
        if let adventure, let story = try? AdventureLoader.load(from: URL(fileURLWithPath: adventure)) {
            return story.locale
        }
        let environment = ProcessInfo.processInfo.environment
        return locale ?? environment["LC_ALL"] ?? environment["LC_MESSAGES"] ?? environment["LANG"] ?? "en"
    }

    /// Loads the adventure and opens the save: a game ready to start.
    ///
    /// - Throws: `ExitCode(65)` when the adventure cannot be played and `ExitCode(75)` when another game
    ///   holds the save (unless `--read-only-save`), each after a plain message on standard error.
    /// - Parameter whenLocked: What to do when another game holds the save; `nil` follows
    ///   `--read-only-save` (refuse without it).
    /// - Returns: The game, its save opened.
    func makeHost(whenLocked: SaveKeeper.WhenLocked? = nil) throws -> SessionHost {
        let environment = ProcessInfo.processInfo.environment
        let story: Adventure
        do {
            if let adventure {
                story = try AdventureLoader.load(from: URL(fileURLWithPath: adventure))
            } else {
                let locale =
                    locale ?? environment["LC_ALL"] ?? environment["LC_MESSAGES"] ?? environment["LANG"] ?? "en"
                story = try AdventureLoader.bundled(locale: locale)
            }
        } catch {
            FileHandle.standardError.write(Data("efb: the adventure cannot be played:\n\(error)\n".utf8))
            throw ExitCode(65)
        }
        let store: any SaveStore =
            memorySave
            ? InMemorySaveStore() : FileSaveStore(path: save ?? FileSaveStore.defaultPath(environment: environment))
        let keeper = SaveKeeper(store: store)
        let startup: SaveStartup
        do {
            startup = try keeper.open(for: story, whenLocked: whenLocked ?? (readOnlySave ? .readOnly : .refuse))
        } catch {
            let message = """
                efb: another game is already playing with the save (\(store.location)).
                Finish that game first, or start this one with --read-only-save (it will not be saved) \
                or with --save OTHER-FILE.

                """
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode(75)
        }
        let options = EngineOptions(
            hintInterval: Int64(hintInterval * 1000),
            hintsAtOnce: hintsAtOnce,
            seed: seed,
            timePressure: !noTimePressure
        )
        let gameClock: any GameClock = clock == .virtual ? VirtualClock() : MonotonicClock()
        return SessionHost(adventure: story, options: options, keeper: keeper, startup: startup, clock: gameClock)
    }

    /// The one way every front end is played: the game set up, the stop signals caught, one event loop.
    ///
    /// - Parameters:
    ///   - clock: The front end's clock (the loop's), when the front end keeps time of its own.
    ///   - whenLocked: What to do when another game holds the save (see ``makeHost(whenLocked:)``).
    ///   - sound: The sound options, for a front end that plays sound; every sound stops when the loop ends.
    ///   - makeFrontEnd: The front end, made once the game is ready.
    /// - Throws: What ``makeHost(whenLocked:)`` throws.
    func play(
        clock: any GameClock = MonotonicClock(),
        whenLocked: SaveKeeper.WhenLocked? = nil,
        sound: SoundOptions? = nil,
        frontEnd makeFrontEnd: () -> any FrontEnd
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        let host = try makeHost(whenLocked: whenLocked)
        StopSignals.install()
        var frontEnd = makeFrontEnd()
        let player = sound?.makePlayer()
        defer { player?.stop() }
        if let player { frontEnd = SoundFrontEnd(frontEnd, player: player) }
        EventLoop(host: host, frontEnd: frontEnd, clock: clock).run()
    }
}
