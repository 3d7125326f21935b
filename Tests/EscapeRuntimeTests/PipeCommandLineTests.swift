// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeCore
import EscapeLaunch
import Testing

@testable import efb_full

/// `efb` reads the pipe's command line itself, without ArgumentParser (which, with Foundation, it does
/// not link); every command line it takes must mean exactly what the whole program's ArgumentParser
/// makes of it, and everything else goes to the whole program.
@Suite struct PipeCommandLineTests {
    /// What ArgumentParser makes of `arguments`: the pipe, or `nil` when it is something else or an error.
    private static func parsedByArgumentParser(_ arguments: [String]) -> PipeCommandLine? {
        (try? EFB.parseAsRoot(arguments) as? efb_full.Pipe)?.commandLine
    }

    /// Words a command line is drawn from: every option of the pipe, good and bad values, forms with
    /// `=`, other subcommands, help and stray words.
    private static let words = [
        "pipe", "pipe", "play", "validate", "help", "--help", "-h", "--version", "--", "-x", "", "extra",
        "--seed", "--seed", "--seed=7", "--seed=", "3", "18446744073709551615", "18446744073709551616", "-1", "+5",
        "0x10", "--clock", "--clock", "real", "virtual", "Virtual", "--clock=virtual", "--save", "progress.json",
        "--save=p.json", "--save=", "--memory-save", "--memory-save", "--memory-save=1", "--read-only-save",
        "--locale", "fr", "fr_FR.UTF-8", "--locale=en", "--adventure", "docs/examples/lantern-room.json",
        "--hint-interval", "--hint-interval", "0.5", "0.0009", "30", "86400.001", "--hint-interval=0.001",
        "--hints-at-once", "--no-time-pressure", "--no-time-pressure=true", "--games", "--games", "2", "0", "1025",
        "--games=3", "--games=1024", "--memory", "--seeds",
    ]

    @Test func everyCommandLineEfbReadsMeansWhatArgumentParserMakesOfIt() {
        var random = SeededGenerator(seed: 29)
        var taken = 0
        for _ in 0..<4000 {
            let count = Int.random(in: 0...7, using: &random)
            let arguments = (0..<count).map { _ in Self.words.randomElement(using: &random)! }
            guard let read = PipeCommandLine(arguments: arguments, standardInputIsTerminal: false) else { continue }
            taken += 1
            #expect(Self.parsedByArgumentParser(arguments) == read, "\(arguments)")
        }
        // Enough of them are the pipe's for the comparison to mean something.
        #expect(taken > 200, "only \(taken) of 4000 command lines were read as the pipe's")
    }

    /// One good value for each option, or the flag alone.
    private static let goodOptions: [(name: String, values: [String])] = [
        ("--seed", ["0", "42", "18446744073709551615"]), ("--clock", ["real", "virtual"]),
        ("--save", ["progress.json", "/tmp/a b.json"]), ("--memory-save", []), ("--read-only-save", []),
        ("--locale", ["fr", "en_GB.UTF-8", "C"]), ("--adventure", ["lantern.json"]),
        ("--hint-interval", ["0.001", "5", "86400"]), ("--hints-at-once", []), ("--no-time-pressure", []),
        ("--games", ["1", "7", "1024"]),
    ]

    @Test func theOptionsAsBotsAndEmbeddersWriteThemAreReadWithoutTheWholeProgram() {
        var random = SeededGenerator(seed: 30)
        for round in 0..<1000 {
            var arguments: [String] = Bool.random(using: &random) ? ["pipe"] : []
            for (name, values) in Self.goodOptions.shuffled(using: &random) where Bool.random(using: &random) {
                guard let value = values.randomElement(using: &random) else {
                    arguments.append(name)
                    continue
                }
                if Bool.random(using: &random) {
                    arguments.append("\(name)=\(value)")
                } else {
                    arguments += [name, value]
                }
            }
            let byArgumentParser = Self.parsedByArgumentParser(arguments)
            let read = PipeCommandLine(arguments: arguments, standardInputIsTerminal: false)
            // What ArgumentParser refuses (--save with --memory-save, many games with a save) is left to it.
            #expect(read == byArgumentParser, "round \(round): \(arguments)")
        }
    }

    @Test func aCommandLineThatIsNotThePipesGoesToTheWholeProgram() {
        for arguments in [
            ["play"], ["pipe", "--help"], ["--version"], ["pipe", "extra"],
            ["pipe", "--clock", "sundial"], ["pipe", "--games", "0"], ["pipe", "--memory-save", "--save", "p.json"],
            ["pipe", "--hint-interval", "0.0009"], ["pipe", "--seed"], ["pipe", "--save", "-"], ["help", "pipe"],
        ] {
            #expect(PipeCommandLine(arguments: arguments, standardInputIsTerminal: false) == nil, "\(arguments)")
        }
        // At a terminal, no subcommand plays there; `pipe` is still the pipe.
        #expect(PipeCommandLine(arguments: [], standardInputIsTerminal: true) == nil)
        #expect(PipeCommandLine(arguments: ["--seed", "3"], standardInputIsTerminal: true) == nil)
        #expect(PipeCommandLine(arguments: ["pipe"], standardInputIsTerminal: true) != nil)
        #expect(PipeCommandLine(arguments: [], standardInputIsTerminal: false) == PipeCommandLine(settings: .init()))
    }

    @Test func anOptionGivenTwiceKeepsItsLastValueAsInArgumentParser() throws {
        let arguments = ["pipe", "--locale", "en", "--hints-at-once", "--locale=fr", "--hints-at-once", "--seed", "4"]
        let read = try #require(PipeCommandLine(arguments: arguments, standardInputIsTerminal: false))
        #expect(read.settings.locale == "fr")
        #expect(read.settings.hintsAtOnce)
        #expect(read == Self.parsedByArgumentParser(arguments))
    }

    @Test func aTildeAtTheStartOfAPathIsTheHomeFolderAsItWasThroughFoundation() {
        let environment = ["HOME": "/home/player"]
        #expect(ProcessEnvironment.expandingTilde("~", environment: environment) == "/home/player")
        #expect(
            ProcessEnvironment.expandingTilde("~/games/a.json", environment: environment) == "/home/player/games/a.json"
        )
        #expect(ProcessEnvironment.expandingTilde("a~/b.json", environment: environment) == "a~/b.json")
        #expect(ProcessEnvironment.expandingTilde("/x/~/b.json", environment: environment) == "/x/~/b.json")
        #expect(ProcessEnvironment.expandingTilde("~root/a.json", environment: environment) == "/root/a.json")
        #expect(
            ProcessEnvironment.expandingTilde("~no-such-player-here/a.json", environment: environment)
                == "~no-such-player-here/a.json"
        )
    }
}
