// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeLaunch
import EscapeRuntime

/// `efb pipe`: the plain NDJSON pipe on standard input and output.
///
/// `efb` starts the pipe itself (``PipeCommandLine``) and comes here only for what its reader leaves to
/// ArgumentParser (help, a repeated option, a value to refuse with a message); both play through
/// ``PipeCommandLine/run()``.
struct Pipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play through the JSON protocol on standard input and output (one JSON object per line)."
    )

    @OptionGroup var game: GameOptions

    @Option(
        help: ArgumentHelp(
            "Host this many games (1 to \(GamePool.maximumGames)), each line naming its game in `game`; more than one are kept in memory.",
            valueName: "n"
        )
    )
    var games = 1

    /// The pipe these options start.
    var commandLine: PipeCommandLine { PipeCommandLine(settings: game.settings, games: games) }

    func validate() throws {
        if let problem = commandLine.problem { throw ValidationError(problem) }
    }

    func run() throws {
        let status = commandLine.run()
        if status != 0 { throw ExitCode(status) }
    }
}
