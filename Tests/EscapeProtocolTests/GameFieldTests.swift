// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import Testing

/// `game`: which game a line is for, in an engine that hosts many (`efb pipe --games N`).
struct GameFieldTests {
    private func routed(_ text: String, games: Int) -> CommandDecoder.Routed {
        CommandDecoder.decode(Array(text.utf8), games: games)
    }

    private func failure(_ outcome: CommandDecoder.Outcome) -> (DecodingFailure, RequestID?)? {
        if case .failure(let failure, let id) = outcome { return (failure, id) }
        return nil
    }

    @Test func aLineNamesItsGameOrPlaysInGameZero() {
        let named = routed(#"{"type":"next","id":1,"game":3}"#, games: 4)
        #expect(named.game == 3)
        #expect(named.outcome == .request(Request(id: .int(1), command: .game(.next), game: 3)))
        let unnamed = routed(#"{"type":"next"}"#, games: 4)
        #expect(unnamed.game == 0)
        #expect(unnamed.outcome == .request(Request(command: .game(.next))))
        // An integral number spelled otherwise is the integer, as for every field.
        #expect(routed(#"{"type":"next","game":2.0}"#, games: 4).game == 2)
        #expect(routed(#"{"type":"next","game":1e0}"#, games: 4).game == 1)
    }

    @Test(arguments: [
        (#"{"type":"next","id":"a","game":4}"#, "game must be between 0 and 3"),
        (#"{"type":"next","id":"a","game":-1}"#, "game must be between 0 and 3"),
        (#"{"type":"next","id":"a","game":1.5}"#, "game must be an integer, not 1.5"),
        (#"{"type":"next","id":"a","game":"1"}"#, "game must be an integer, not a string"),
        (#"{"type":"next","id":"a","game":null}"#, "game must be an integer, not null"),
    ])
    func aGameThatCannotBeReadIsRefusedAndAnsweredByGameZero(line: String, message: String) throws {
        let result = routed(line, games: 4)
        #expect(result.game == nil)
        let (refusal, id) = try #require(failure(result.outcome))
        #expect(refusal.code == .invalidParams)
        #expect(refusal.field == "game")
        #expect(id == .string("a"))
        #expect(ProtocolError(refusal, in: EngineWords.english).message == message)
    }

    @Test func anEngineOfOneGameTakesOnlyGameZero() throws {
        #expect(
            CommandDecoder.decode(Array(#"{"type":"next","game":0}"#.utf8))
                == .request(Request(command: .game(.next), game: 0))
        )
        let (refusal, _) = try #require(failure(CommandDecoder.decode(Array(#"{"type":"next","game":1}"#.utf8))))
        #expect(ProtocolError(refusal, in: EngineWords.english).message == "game must be between 0 and 0")
    }

    /// `id`, then `game`, then `ifGen`, then `type`: a failure after `game` still tells the game.
    @Test func gameIsCheckedAfterIDAndBeforeIfGen() throws {
        let badID = routed(#"{"type":"next","id":null,"game":9}"#, games: 2)
        #expect(try #require(failure(badID.outcome)).0.field == "id")
        #expect(badID.game == nil)
        let badIfGen = routed(#"{"type":"next","game":9,"ifGen":-1}"#, games: 2)
        #expect(try #require(failure(badIfGen.outcome)).0.field == "game")
        let laterFailure = routed(#"{"type":"fly","id":5,"game":1,"ifGen":-1}"#, games: 2)
        #expect(try #require(failure(laterFailure.outcome)).0.field == "ifGen")
        #expect(laterFailure.game == 1)
        let unknown = routed(#"{"type":"fly","game":1}"#, games: 2)
        #expect(try #require(failure(unknown.outcome)).0.code == .unknownCommand)
        #expect(unknown.game == 1)
    }

    @Test func unreadableLinesNameNoGame() {
        for line in ["nope", "[1]", #"{"type":"next""#] {
            #expect(routed(line, games: 3).game == nil)
        }
        #expect(routed("   ", games: 3).outcome == .blank)
    }

    @Test func aBatchedCommandCarriesNoGame() throws {
        let result = routed(
            #"{"type":"batch","game":1,"commands":[{"type":"next"},{"type":"next","game":1}]}"#,
            games: 2
        )
        #expect(result.game == 1)
        let (refusal, _) = try #require(failure(result.outcome))
        #expect(refusal.field == "commands[1].game")
        #expect(
            ProtocolError(refusal, in: EngineWords.english).message
                == "commands[1]: a batched command carries no game: the batch's game is the one it plays in"
        )
    }

    @Test func eventsSayTheirGameAndHelloHowMany() throws {
        var hello = StampedEvent(
            seq: 1,
            replyTo: nil,
            generation: 0,
            event: .hello(
                ServerHello(
                    protocolVersion: 1,
                    engineVersion: "0.1.0",
                    locale: "en",
                    adventureID: "a",
                    adventureTitle: "A",
                    capabilities: [],
                    games: 8
                )
            )
        )
        hello.game = 7
        var line: [UInt8] = []
        EventEncoder.encode(hello, into: &line)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#""game":7,"games":8,"gen":0"#))
        let decoded = try EventDecoder.decode(try JSONReader.read(line.dropLast()))
        #expect(decoded == hello)
    }
}
