// SPDX-License-Identifier: Apache-2.0
import EscapeContent
package import EscapeCore
package import EscapeRuntime
import EscapeSaves

/// The choices that make a game, whichever way it is played: what `efb`'s game options say.
///
/// `efb` reads them from its command line: the pipe's own reader (``PipeCommandLine``) and
/// ArgumentParser's `GameOptions` for every front end. Both make their game here, so a game is set up
/// one way.
package struct GameSettings: Hashable, Sendable {
    /// The clock a game keeps time with.
    package enum Clock: String, Hashable, Sendable, CaseIterable {
        /// The monotonic clock.
        case real
        /// Time moves only with the `wait` command.
        case virtual
    }

    /// Seed of the generator that shuffles answers.
    package var seed: UInt64 = 1
    /// The clock.
    package var clock = Clock.real
    /// The save file; `nil` for the default path.
    package var save: String?
    /// Progress kept in memory only.
    package var memorySave = false
    /// Play from a save another game is using, without saving.
    package var readOnlySave = false
    /// The adventure's language; `nil` for the environment's.
    package var locale: String?
    /// An adventure file instead of the shipped one.
    package var adventure: String?
    /// Time between two hints unlocking.
    package var hintInterval = HintInterval.standard
    /// Every hint unlocked as soon as a level starts.
    package var hintsAtOnce = false
    /// Timed levels played without a clock.
    package var noTimePressure = false

    /// The default game.
    package init() {}

    /// Why these settings cannot make a game, as a sentence naming the options; `nil` when they can.
    package var problem: String? {
        if memorySave && save != nil { return "--save and --memory-save cannot be used together." }
        return hintInterval.problem
    }

    /// What to say, once, when the game ships no adventure in `locale`'s language; `nil` when it does,
    /// or when `locale` names no language (`C`, `POSIX`, empty), which plays in English without a word.
    ///
    /// - Parameter locale: The locale asked for, by `--locale` or the environment.
    /// - Returns: The line for standard error, with the languages there are.
    package static func unknownLocaleWarning(_ locale: String) -> String? {
        let language = LocaleLanguage.code(of: locale)
        guard AdventureLoader.bundledLocale(for: locale) == nil, !language.isEmpty, language != "c",
            language != "posix"
        else { return nil }
        let available = AdventureLoader.bundledLocales.joined(separator: ", ")
        return "efb: there is no adventure in \"\(locale)\"; playing in English. Available: \(available).\n"
    }

    /// The engine's options these settings give.
    package var engineOptions: EngineOptions {
        EngineOptions(
            hintInterval: hintInterval.milliseconds ?? HintInterval.range.lowerBound,
            hintsAtOnce: hintsAtOnce,
            seed: seed,
            timePressure: !noTimePressure
        )
    }

    /// A new clock of the kind chosen.
    package func makeClock() -> any GameClock {
        clock == .virtual ? VirtualClock() : MonotonicClock()
    }

    /// Loads the adventure and opens the save: a game ready to start.
    ///
    /// - Parameters:
    ///   - whenLocked: What to do when another game holds the save; `nil` follows `readOnlySave`
    ///     (refuse without it).
    ///   - environment: The process environment (the default save's path, the locale).
    ///   - report: Where its messages go, each ending with a newline.
    /// - Throws: ``LaunchFailure`` with status 65 when the adventure cannot be played, 64 when the save
    ///   is not one, 75 when another game holds it (unless read-only), each after a plain message.
    /// - Returns: The game, its save opened.
    package func makeHost(
        whenLocked: SaveKeeper.WhenLocked? = nil,
        environment: [String: String] = ProcessEnvironment.current,
        report: (String) -> Void = StandardError.write
    ) throws(LaunchFailure) -> SessionHost {
        let story = try loadAdventure(environment: environment, report: report)
        let keeper: SaveKeeper
        let startup: SaveStartup
        do {
            let store: any SaveStore
            if memorySave {
                store = InMemorySaveStore()
            } else if let save {
                store = try FileSaveStore(checking: save)
            } else if let path = FileSaveStore.defaultPath(environment: environment) {
                store = FileSaveStore(path: path, makesParents: true)
            } else {
                report("efb: \(FileSaveStore.noHomeProblem).\n")
                throw LaunchFailure(status: 64)
            }
            keeper = SaveKeeper(store: store)
            startup = try keeper.open(for: story, whenLocked: whenLocked ?? (readOnlySave ? .readOnly : .refuse))
        } catch SaveError.notASave(let path, let reason) {
            // Not ours: left untouched, and no game starts with it (EX_USAGE).
            report(
                """
                efb: \(path) cannot be used as the save: \(reason).
                It was left untouched. Give --save the path of a new file or of a save of this game.

                """
            )
            throw LaunchFailure(status: 64)
        } catch SaveError.locked(let path) {
            report(
                """
                efb: another game is already playing with the save (file \(path)).
                Finish that game first, or start this one with --read-only-save (it will not be saved) \
                or with --save OTHER-FILE.

                """
            )
            throw LaunchFailure(status: 75)
        } catch {
            report("efb: \(error)\n")
            throw LaunchFailure(status: 64)
        }
        return SessionHost(
            adventure: story,
            options: engineOptions,
            keeper: keeper,
            startup: startup,
            clock: makeClock()
        )
    }

    /// `count` games in one pool, each with its progress in memory; game `i` shuffles with the seed
    /// plus `i`.
    ///
    /// - Throws: ``LaunchFailure`` with status 65 when the adventure cannot be played.
    package func makePool(
        games count: Int,
        environment: [String: String] = ProcessEnvironment.current,
        report: (String) -> Void = StandardError.write
    ) throws(LaunchFailure) -> GamePool {
        let story = try loadAdventure(environment: environment, report: report)
        // One clock for every game: the pool's deadlines are compared on one scale.
        let shared = makeClock()
        let hosts = (0..<count).map { number in
            var options = engineOptions
            options.seed = seed &+ UInt64(number)
            return SessionHost(adventure: story, options: options, store: InMemorySaveStore(), clock: shared)
        }
        return GamePool(hosts: hosts)
    }

    /// The adventure to play: the file given, or the shipped one in the locale asked for.
    private func loadAdventure(
        environment: [String: String],
        report: (String) -> Void
    ) throws(LaunchFailure) -> Adventure {
        do {
            if let adventure {
                return try AdventureLoader.load(
                    path: ProcessEnvironment.expandingTilde(adventure, environment: environment)
                )
            }
            let locale = locale ?? LocaleLanguage.fromEnvironment(environment) ?? "en"
            if let warning = Self.unknownLocaleWarning(locale) { report(warning) }
            return try AdventureLoader.bundled(locale: locale)
        } catch {
            report("efb: the adventure cannot be played:\n\(error)\n")
            throw LaunchFailure(status: 65)
        }
    }
}

/// A game that could not start: its message was reported; the process ends with `status`.
package struct LaunchFailure: Error, Hashable, Sendable {
    /// The exit status (sysexits: 64 usage, 65 data, 69 unavailable, 75 try again).
    package let status: Int32

    /// A failure ending with `status`.
    package init(status: Int32) { self.status = status }
}
