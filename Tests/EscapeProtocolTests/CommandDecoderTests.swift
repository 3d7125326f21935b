// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import Testing

struct CommandDecoderTests {
    private func decode(_ text: String) -> CommandDecoder.Outcome {
        CommandDecoder.decode(Array(text.utf8))
    }

    private func code(_ text: String) -> ErrorCode? {
        if case .failure(let error, _) = decode(text) { return error.code }
        return nil
    }

    @Test(
        arguments: [
            (#"{"type":"next"}"#, Command.game(.next)),
            (#"{"type":"previous"}"#, .game(.previous)),
            (#"{"type":"first"}"#, .game(.first)),
            (#"{"type":"last"}"#, .game(.last)),
            (#"{"type":"focus","element":"door"}"#, .game(.focus(element: "door"))),
            (#"{"type":"activate"}"#, .game(.activate(element: nil))),
            (#"{"type":"activate","element":"x"}"#, .game(.activate(element: "x"))),
            (#"{"type":"rotor","direction":"next"}"#, .game(.rotor(.next))),
            (#"{"type":"rotorItem","direction":"previous"}"#, .game(.rotorItem(.previous))),
            (#"{"type":"action","name":"Pump"}"#, .game(.action(.name("Pump")))),
            (#"{"type":"action","index":2}"#, .game(.action(.index(2)))),
            (#"{"type":"adjust","direction":"increment"}"#, .game(.adjust(.increment))),
            (#"{"type":"input","text":"café"}"#, .game(.input(text: "café", element: nil))),
            (#"{"type":"magicTap"}"#, .game(.magicTap)),
            (#"{"type":"escape"}"#, .game(.escape)),
            (#"{"type":"hint"}"#, .game(.hint)),
            (#"{"type":"menu"}"#, .game(.menu)),
            (#"{"type":"goto","chapter":2,"level":3}"#, .game(.goto(chapter: 2, level: 3))),
            (#"{"type":"replay"}"#, .game(.replay)),
            (#"{"type":"assistive","active":false}"#, .game(.assistive(active: false))),
            (#"{"type":"repeat"}"#, .game(.repeatAnnouncement)),
            (#"{"type":"state"}"#, .state),
            (#"{"type":"ping"}"#, .ping),
            (#"{"type":"wait","ms":1500}"#, .wait(milliseconds: 1500)),
            (#"{"type":"quit"}"#, .quit),
            (
                #"{"type":"hello","protocol":1,"client":"c","capabilities":["x"],"keys":{"next":"LNDN"}}"#,
                .hello(
                    ClientHello(
                        client: "c",
                        acceptedVersions: .versions([.v1_0]),
                        capabilities: ["x"],
                        keys: [.next: "LNDN"]
                    )
                )
            ),
        ]
    )
    func decodesEveryCommand(_ sample: (String, Command)) {
        #expect(decode(sample.0) == .request(Request(command: sample.1)))
    }

    @Test func decodesTheCommandsOfProtocol1_1() {
        #expect(
            decode(#"{"type":"batch","commands":[{"type":"next","ifGen":3},{"type":"wait","ms":1e3}]}"#)
                == .request(
                    Request(
                        command: .batch([BatchEntry(.game(.next), ifGen: 3), BatchEntry(.wait(milliseconds: 1000))])
                    )
                )
        )
        #expect(decode(#"{"type":"cancel","target":2e0}"#) == .request(Request(command: .cancel(target: .int(2)))))
        #expect(
            decode(#"{"type":"hello","protocol":{"min":[1,0],"max":[1,1]},"locale":"fr"}"#)
                == .request(
                    Request(
                        command: .hello(
                            ClientHello(client: nil, acceptedVersions: .range(min: .v1_0, max: .v1_1), locale: "fr")
                        )
                    )
                )
        )
        #expect(
            decode(#"{"type":"hello","protocol":[[1,0],[1,1]]}"#)
                == .request(
                    Request(command: .hello(ClientHello(client: nil, acceptedVersions: .versions([.v1_0, .v1_1]))))
                )
        )
    }

    @Test func aVersionRequestPicksTheNewestCommonVersion() {
        let v2 = ProtocolVersion(major: 2, minor: 0)
        #expect(VersionRequest.versions([.v1_0]).best(among: [.v1_0, .v1_1]) == .v1_0)
        #expect(VersionRequest.versions([v2, .v1_1, .v1_0]).best(among: [.v1_0, .v1_1]) == .v1_1)
        #expect(VersionRequest.range(min: .v1_0, max: v2).best(among: [.v1_0, .v1_1]) == .v1_1)
        #expect(VersionRequest.range(min: .v1_1, max: v2).best(among: [.v1_0]) == nil)
        #expect(VersionRequest.versions([v2]).best(among: [.v1_0, .v1_1]) == nil)
    }

    @Test func keepsTheEnvelopeAndIgnoresUnknownFields() {
        #expect(
            decode(#"{"type":"next","id":"k1","ifGen":4,"extra":{"x":1}}"#)
                == .request(Request(id: .string("k1"), ifGen: 4, command: .game(.next)))
        )
        #expect(decode(#"{"type":"next","id":7}"#) == .request(Request(id: .int(7), command: .game(.next))))
    }

    @Test func acceptsAByteOrderMark() {
        #expect(
            CommandDecoder.decode([0xEF, 0xBB, 0xBF] + Array(#"{"type":"ping"}"#.utf8))
                == .request(Request(command: .ping))
        )
    }

    @Test(arguments: ["", "   ", "\t", " \r"])
    func ignoresBlankLines(_ text: String) {
        #expect(decode(text) == .blank)
    }

    @Test(
        arguments: [
            ("{", ErrorCode.malformedJSON), ("not json", .malformedJSON), (#"{"type":"next",}"#, .malformedJSON),
            (#"{"type":"next","type":"quit"}"#, .malformedJSON), (#"{"type":"input","text":"\ud800"}"#, .malformedJSON),
            (#"{"type":"wait","ms":1e999}"#, .malformedJSON), ("{\"type\":\"ping\"}\u{0}", .malformedJSON),
            ("42", .notAnObject), ("\"next\"", .notAnObject), ("[]", .notAnObject), ("null", .notAnObject),
            ("true", .notAnObject), (String(repeating: "[", count: 100_000), .tooDeep),
            (#"{"type":"dance"}"#, .unknownCommand), (#"{}"#, .invalidParams), (#"{"type":3}"#, .invalidParams),
            (#"{"type":"focus"}"#, .invalidParams), (#"{"type":"focus","element":5}"#, .invalidParams),
            (#"{"type":"rotor","direction":"up"}"#, .invalidParams),
            (#"{"type":"goto","chapter":0,"level":1}"#, .invalidParams),
            (#"{"type":"goto","chapter":"1","level":1}"#, .invalidParams),
            (#"{"type":"wait","ms":-1}"#, .invalidParams),
            (#"{"type":"wait","ms":99999999999}"#, .invalidParams), (#"{"type":"wait","ms":1.5}"#, .invalidParams),
            (#"{"type":"wait","ms":1e300}"#, .invalidParams), (#"{"type":"action"}"#, .invalidParams),
            (#"{"type":"action","index":0}"#, .invalidParams),
            (#"{"type":"assistive","active":"yes"}"#, .invalidParams),
            (#"{"type":"next","id":[1]}"#, .invalidParams), (#"{"type":"next","ifGen":"3"}"#, .invalidParams),
            (#"{"type":"hello"}"#, .invalidParams), (#"{"type":"hello","protocol":1,"keys":{"a":1}}"#, .invalidParams),
        ]
    )
    func answersBadInputWithItsCode(_ sample: (String, ErrorCode)) {
        #expect(code(sample.0) == sample.1, "\(sample.0.prefix(60))")
    }

    @Test func refusesInvalidUTF8() {
        #expect(
            CommandDecoder.decode([0x7B, 0xFF, 0x7D])
                == .failure(DecodingFailure(.invalidUTF8, EngineWords.Phrase(.decodeInvalidUTF8)), replyTo: nil)
        )
        let overlong: [UInt8] = Array(#"{"type":"input","text":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        guard case .failure(let error, _) = CommandDecoder.decode(overlong) else {
            Issue.record("an overlong encoding is not UTF-8")
            return
        }
        #expect(error.code == .invalidUTF8)
    }

    @Test func namesTheFieldAndKeepsTheIDOfABadCommand() {
        guard case .failure(let error, let replyTo) = decode(#"{"type":"goto","id":"g","chapter":1}"#) else {
            Issue.record("a goto without a level is refused")
            return
        }
        #expect(error.field == "level")
        #expect(replyTo == .string("g"))
    }

    @Test func limitsTheLengthOfTypedText() {
        let long = String(repeating: "a", count: CommandDecoder.maximumInputLength + 1)
        #expect(code(#"{"type":"input","text":"\#(long)"}"#) == .inputTooLong)
        let longest = String(repeating: "é", count: CommandDecoder.maximumInputLength)
        #expect(code(#"{"type":"input","text":"\#(longest)"}"#) == nil)
    }
}
