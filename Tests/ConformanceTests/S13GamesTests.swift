// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeLaunch
import EscapeRuntime
import EscapeTestSupport
import Foundation
import Testing

/// §13 Many games in one engine (`efb pipe --games N`).
@Suite struct S13GamesTests {
    static let games = ["pipe", "--games", "3", "--seed", "1", "--clock", "virtual"]

    @Test("§13 each game answers its own lines with its own seq; every event says its game")
    func eachGameAnswersItsOwnLines() async throws {
        let transcript = try await EFB.run(
            [
                #"{"type":"next","id":"a","game":2}"#, #"{"type":"next","id":"b"}"#,
                #"{"type":"ping","id":"c","game":1}"#,
            ],
            arguments: Self.games
        )
        #expect(transcript.events.allSatisfy { $0["game"] != nil })
        let hellos = transcript.events.filter { $0.type == "hello" }
        #expect(hellos.map { $0["game"] } == [.int(0), .int(1), .int(2)])
        #expect(hellos.allSatisfy { $0["games"] == .int(3) })
        let dones = transcript.events.filter { $0.type == "done" && $0["replyTo"] != nil }
        #expect(
            dones.map { [$0["replyTo"], $0["game"], $0["seq"]] } == [
                [.string("a"), .int(2), .int(6)], [.string("b"), .int(0), .int(6)], [.string("c"), .int(1), .int(5)],
            ]
        )
    }

    @Test("§13 game i plays seed + i: its events are those of a game of its own with that seed")
    func gameIPlaysSeedPlusI() async throws {
        let lines = [#"{"type":"escape","id":1}"#, #"{"type":"activate","element":"begin","id":2}"#]
        let inGameTwo = lines.map { #"{"game":2,"# + $0.dropFirst() }
        let pool = try await EFB.run(inGameTwo, arguments: Self.games)
        let alone = try await EFB.run(lines, arguments: ["pipe", "--seed", "3", "--clock", "virtual", "--memory-save"])
        func screens(_ transcript: Transcript) -> [JSONValue?] {
            transcript.events.filter { $0.type == "screen" && $0["replyTo"] == .int(2) }.map { $0["elements"] }
        }
        #expect(!screens(alone).isEmpty)
        #expect(screens(pool) == screens(alone))
    }

    /// Before: each game had a monotonic clock of its own, started as it was made, so the pool compared
    /// a later game's deadline with the first game's time and woke early, spinning until it was due.
    @Test("§13 the games share one clock")
    func theGamesShareOneClock() throws {
        let command = try #require(
            PipeCommandLine(arguments: ["pipe", "--games", "200"], standardInputIsTerminal: false)
        )
        let pool = try command.settings.makePool(games: 200, report: { _ in })
        let first = pool.hosts[0].now
        let last = pool.hosts[199].now
        #expect(abs(last - first) < 5, "game 199's clock reads \(last - first) ms from game 0's")
    }
}
