// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// Options are checked as the values the program will use, through the real `efb`.
@Suite struct OptionBoundsTests {
    /// Waits for the process to end; `nil` when it was still running after `seconds`.
    private static func exitStatus(_ game: RunningEFB, within seconds: Double = 20) -> Int32? {
        guard poll(seconds: seconds, until: { !game.process.isRunning }) else { return nil }
        game.process.waitUntilExit()
        // What it wrote last is still in the pipe when it exits: read to the end before the output is
        // checked (on a loaded machine the reader could lag, and "bye" seemed missing).
        _ = poll(seconds: seconds, until: { game.output.isEnded })
        return game.process.terminationStatus
    }

    /// Before: 0.0009 s passed the check (`> 0`) and became 0 ms; once a level started, the time
    /// advance looped for ever appending hint effects (17 GB in 90 s) and ignored SIGTERM.
    @Test(arguments: [
        "0.0009", "0.0001", "1e-9", "0x10", "inf", "nan", "-1", "0", "86400.001", " 5", ".", "1.5.0", "+3", "٣",
    ])
    func aHintIntervalThatIsNotWholeMillisecondsInRangeIsRefusedAtStart(value: String) throws {
        let game = try RunningEFB(["pipe", "--clock", "virtual", "--memory-save", "--hint-interval", value])
        game.write(
            Array(#"{"type":"escape"}"#.utf8) + [10] + Array(#"{"type":"activate","element":"begin"}"#.utf8) + [10]
                + Array(#"{"type":"ping"}"#.utf8) + [10]
        )
        let status = Self.exitStatus(game)
        #expect(status == 64, "--hint-interval \(value): \(status.map(String.init) ?? "still running")")
        #expect(game.output.data.isEmpty, "--hint-interval \(value) started a game")
        try waitUntil("efb's standard error to close") { game.errors.isEnded }
        #expect(game.standardError.contains("--hint-interval"), "\(game.standardError)")
    }

    @Test(arguments: ["0.001", "0.2", "30", "86400", "86400.000", "007", "5.", ".5"])
    func aHintIntervalInWholeMillisecondsIsAccepted(value: String) throws {
        let game = try RunningEFB(["pipe", "--clock", "virtual", "--memory-save", "--hint-interval", value])
        game.write(
            Array(#"{"type":"escape"}"#.utf8) + [10] + Array(#"{"type":"activate","element":"begin"}"#.utf8) + [10]
                + Array(#"{"type":"ping"}"#.utf8) + [10]
        )
        game.write(Array(#"{"type":"wait","ms":100000}"#.utf8) + [10])
        game.closeInput()
        #expect(Self.exitStatus(game) == 0, "--hint-interval \(value): \(game.standardError)")
        #expect(game.output.text.contains(#""type":"bye""#))
    }

    @Test(arguments: [
        ["--games", "0"], ["--games", "1025"], ["--games", "-3"], ["--games", "2", "--save", "p.json"],
        ["--games", "2", "--read-only-save"],
    ])
    func aNumberOfGamesOutOfRangeOrWithAFileSaveIsRefusedAtStart(options: [String]) throws {
        let game = try RunningEFB(["pipe", "--clock", "virtual"] + options)
        game.write(Array(#"{"type":"ping"}"#.utf8) + [10])
        let status = Self.exitStatus(game)
        #expect(status == 64, "\(options): \(status.map(String.init) ?? "still running")")
        #expect(game.output.data.isEmpty, "\(options) started a game")
        try waitUntil("efb's standard error to close") { game.errors.isEnded }
        #expect(game.standardError.contains("--games"), "\(game.standardError)")
    }

    /// Before: `--seed -1` was taken for an option, and efb said "Missing value for '--seed <seed>'".
    @Test(arguments: [["--seed", "-1"], ["--seed=-1"], ["--seed", "-18446744073709551616"]])
    func aNegativeSeedIsRefusedInASentence(options: [String]) throws {
        let game = try RunningEFB(["pipe", "--clock", "virtual"] + options)
        game.write(Array(#"{"type":"ping"}"#.utf8) + [10])
        let status = Self.exitStatus(game)
        #expect(status == 64, "\(options): \(status.map(String.init) ?? "still running")")
        #expect(game.output.data.isEmpty, "\(options) started a game")
        try waitUntil("efb's standard error to close") { game.errors.isEnded }
        #expect(!game.standardError.contains("Missing value"), "\(game.standardError)")
        #expect(
            game.standardError.contains("a seed is a whole number from 0 to 18446744073709551615, never negative"),
            "\(game.standardError)"
        )
    }

    @Test func aThousandAndTwentyFourGamesStart() throws {
        let game = try RunningEFB(["pipe", "--clock", "virtual", "--games", "1024"])
        game.write(Array(#"{"type":"ping","id":"last","game":1023}"#.utf8) + [10])
        game.closeInput()
        #expect(Self.exitStatus(game, within: 60) == 0)
        let text = String(decoding: game.output.data, as: UTF8.self)
        #expect(text.contains(#""game":1023,"gen":0,"replyTo":"last","seq":5,"type":"done""#))
        #expect(text.split(separator: "\n").count == 1024 * 6 + 1)
    }
}
