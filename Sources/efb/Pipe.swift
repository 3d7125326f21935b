import ArgumentParser
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import Foundation

/// `efb pipe`: the plain NDJSON pipe on standard input and output.
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

    func validate() throws {
        guard (1...GamePool.maximumGames).contains(games) else {
            throw ValidationError("--games must be between 1 and \(GamePool.maximumGames) (not \(games)).")
        }
        if games > 1, game.save != nil || game.readOnlySave {
            throw ValidationError(
                "--games \(games) keeps every game's progress in memory, so --save and --read-only-save cannot be used with it."
            )
        }
    }

    func run() throws {
        if isatty(0) == 1 {
            func line(_ command: Command) -> String {
                JSONWriter.string(RequestEncoder.json(Request(command: command)))
            }
            let note =
                "efb pipe: type one JSON command per line, e.g. \(line(.game(.next))) or "
                + "\(line(.game(.activate(element: nil)))); \(line(.quit)) ends. The protocol is in Protocol/README.md.\n"
            FileHandle.standardError.write(Data(note.utf8))
        }
        // A protocol client learns of a locked save from save_locked and plays on read-only: errors
        // never end the pipe.
        // Many games' lines come together: each game's answer goes out as soon as it is made.
        try game.play(whenLocked: .readOnly, games: games) { PipeFrontEnd(writesEachAnswer: games > 1) }
    }
}
