// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Many games in one engine (`efb pipe --games N`, spec section 13).
struct GamePoolTests {
    /// A pool as `efb pipe --games N --seed S --clock virtual` makes it: game `i` seeded `S + i`.
    private static func pool(_ games: Int, seed: UInt64 = 1) -> GamePool {
        GamePool(hosts: (0..<games).map { Support.session(seed: seed + UInt64($0)) })
    }

    /// `line` for game `number`: `"game":N` put first in the object.
    private static func line(_ line: String, game number: Int) -> [UInt8] {
        Array(("{\"game\":\(number)," + line.dropFirst()).utf8)
    }

    /// Every line the pool writes for `inputs`, from its opening to the end of its input.
    private static func output(of pool: GamePool, _ inputs: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        for event in pool.handle(.start) { EventEncoder.encode(event, into: &output) }
        for input in inputs where !pool.isFinished {
            for event in pool.handle(.frame(.line(input))) { EventEncoder.encode(event, into: &output) }
        }
        for event in pool.handle(.endOfInput) { EventEncoder.encode(event, into: &output) }
        return output
    }

    /// Game `number`'s lines of a pool's output, without their `game` and `games`.
    private static func lines(of output: [UInt8], game number: Int, games: Int) -> [String] {
        let mark = "\"game\":\(number),"
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains(mark) else { return nil }
            return line.replacingOccurrences(of: mark, with: "").replacingOccurrences(
                of: "\"games\":\(games),",
                with: ""
            )
        }
    }

    private static func standalone(_ inputs: [String], seed: UInt64) -> [String] {
        let bytes = Array(inputs.map { $0 + "\n" }.joined().utf8)
        let output = Support.transcript(of: bytes, session: Support.session(seed: seed))
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Three games, each sent a whole example game line by line in turn: each says byte for byte what
    /// `efb pipe` says playing that game alone with its seed, plus `game`.
    @Test func eachGameIsTheGameAPipePlaysAlone() throws {
        let example = Support.examples.appendingPathComponent("full-game-1.1.commands.ndjson")
        // Without its closing `quit`, which would end every game: the end of the input ends them.
        let commands = try String(contentsOf: example, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.contains(#""type":"quit""#) }
        let pool = Self.pool(3, seed: 1)
        let inputs = commands.flatMap { command in (0..<3).map { Self.line(command, game: $0) } }
        let output = Self.output(of: pool, inputs)
        for number in 0..<3 {
            let alone = Self.standalone(commands, seed: 1 + UInt64(number))
            let mine = Self.lines(of: output, game: number, games: 3)
            #expect(mine.count == alone.count && mine.count > 700, "game \(number)")
            let differing = zip(mine, alone).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(differing == nil, "game \(number), line \(differing ?? 0): \(differing.map { mine[$0] } ?? "")")
        }
        // The example's game escapes with seed 1.
        #expect(Self.lines(of: output, game: 0, games: 3).contains { $0.contains(#""reason":"escaped""#) })
        let validation = try Support.validate("events", output)
        #expect(validation.ok, "\(validation.report)")
    }

    @Test func theOpeningsComeInOrderAndEachHelloSaysHowManyGames() throws {
        let events = try Support.events(Self.output(of: Self.pool(2), []))
        let opening = events.prefix(8).map { [$0["type"], $0["game"]] }
        let expected: [[JSONValue?]] = [0, 1].flatMap { game in
            ["hello", "screen", "focus", "progress"].map { [.string($0), .int(game)] }
        }
        #expect(opening == expected)
        #expect(events[0]["games"] == .int(2) && events[4]["games"] == .int(2))
        #expect(events.allSatisfy { $0["game"] != nil })
    }

    @Test func linesWithoutAGameOrWhoseGameCannotBeReadAreGameZeros() throws {
        let output = Self.output(
            of: Self.pool(2),
            [
                Array(#"{"type":"next","id":"plain"}"#.utf8),
                Array("nope".utf8),
                Array(#"{"type":"next","id":"far","game":2}"#.utf8),
                Array(#"{"type":"fly","id":"fly","game":1}"#.utf8),
            ]
        )
        let events = try Support.events(output).filter { $0["replyTo"] != nil || $0["code"] != nil }
        func game(of id: String) -> [JSONValue?] { events.filter { $0["replyTo"] == .string(id) }.map { $0["game"] } }
        #expect(game(of: "plain") == [.int(0), .int(0)])
        #expect(game(of: "far") == [.int(0), .int(0)])
        #expect(events.first { $0["replyTo"] == .string("far") }?["field"] == .string("game"))
        #expect(game(of: "fly") == [.int(1), .int(1)])
        let malformed = try #require(events.first { $0["code"] == .string("malformed_json") })
        #expect(malformed["game"] == .int(0))
        // Each game counts its own seq: game 1 answered one line after its four opening events.
        #expect(events.first { $0["replyTo"] == .string("fly") }?["seq"] == .int(5))
    }

    @Test func aQuitEndsEveryGame() throws {
        let pool = Self.pool(3)
        _ = pool.handle(.start)
        let events = pool.handle(.frame(.line(Self.line(#"{"type":"quit","id":"q"}"#, game: 1))))
        #expect(pool.isFinished)
        let ends = events.map { "\($0.game ?? -1) \($0.event)" }
        #expect(
            ends == [
                "1 ended(reason: EscapeCore.EndReason.quit, cutShort: true)", "1 done", "1 bye",
                "0 ended(reason: EscapeCore.EndReason.eof, cutShort: true)", "0 bye",
                "2 ended(reason: EscapeCore.EndReason.eof, cutShort: true)", "2 bye",
            ]
        )
        #expect(events[0].replyTo == .string("q") && events[3].replyTo == nil)
    }

    /// A batch plays in its line's game, all or nothing, as in a pipe of one game.
    @Test func aBatchPlaysInItsGame() throws {
        let pool = Self.pool(2)
        _ = pool.handle(.start)
        let batch = #"{"type":"batch","id":"b","commands":[{"type":"escape"},{"type":"activate","element":"begin"}]}"#
        let events = pool.handle(.frame(.line(Self.line(batch, game: 1))))
        #expect(events.allSatisfy { $0.game == 1 })
        #expect(pool.hosts[1].engine.generation > 0 && pool.hosts[0].engine.generation == 0)
    }

    /// An embedder's request for a game the pool does not have is refused by game 0, as the line would
    /// be; before, it indexed past the pool's games and trapped.
    @Test func aRequestForAGameThePoolDoesNotHaveIsRefusedByGameZero() throws {
        let pool = Self.pool(2)
        _ = pool.handle(.start)
        for input in [
            SessionInput.request(Request(id: .string("far"), command: .game(.next), game: 7)),
            .question(Request(id: .string("far"), command: .state, game: -1)),
            .requests([Request(id: .string("far"), command: .game(.next), game: 2)]),
        ] {
            let events = pool.handle(input)
            #expect(events.map(\.game) == [0, 0])
            guard case .error(let error) = events.first?.event else {
                Issue.record("no error: \(events)")
                continue
            }
            #expect(error.field == "game" && error.message == "game must be between 0 and 1")
            #expect(events.allSatisfy { $0.replyTo == .string("far") })
        }
    }

    /// A pool of one is `efb pipe` itself: its lines carry no `game`, and `game` may only be 0.
    @Test func aPoolOfOneWritesNoGame() throws {
        let inputs = [
            #"{"type":"next","id":1}"#, #"{"type":"next","id":2,"game":0}"#, #"{"type":"next","id":3,"game":1}"#,
        ]
        let output = Self.output(of: Self.pool(1), inputs.map { Array($0.utf8) })
        #expect(
            String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
                == Self.standalone(inputs, seed: 1)
        )
        #expect(!String(decoding: output, as: UTF8.self).contains(#""game":"#))
        #expect(String(decoding: output, as: UTF8.self).contains("game must be between 0 and 0"))
    }
}
