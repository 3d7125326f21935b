import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import Foundation
import Testing

/// Every class of bad input gets its documented answer, and the next command still works.
struct BadInputTests {
    /// A bad line, and the error code it must get (`nil`: accepted without an error).
    static let corpus: [(name: String, line: [UInt8], code: String?)] = [
        ("truncated object", Array("{\"type\":".utf8), "malformed_json"),
        ("trailing comma", Array("{\"type\":\"next\",}".utf8), "malformed_json"),
        ("single quotes", Array("{'type':'next'}".utf8), "malformed_json"),
        ("bare word", Array("next".utf8), "malformed_json"),
        ("two objects", Array("{} {}".utf8), "malformed_json"),
        ("number", Array("42".utf8), "not_an_object"),
        ("string", Array("\"next\"".utf8), "not_an_object"),
        ("array", Array("[{\"type\":\"next\"}]".utf8), "not_an_object"),
        ("null", Array("null".utf8), "not_an_object"),
        ("byte-order mark", [0xEF, 0xBB, 0xBF] + Array("{\"type\":\"ping\"}".utf8), nil),
        ("wrong field type", Array("{\"type\":\"focus\",\"element\":12}".utf8), "invalid_params"),
        ("unknown command", Array("{\"type\":\"fly\"}".utf8), "unknown_command"),
        ("missing type", Array("{\"id\":1}".utf8), "invalid_params"),
        ("missing field", Array("{\"type\":\"goto\",\"chapter\":1}".utf8), "invalid_params"),
        ("goto beyond the game", Array("{\"type\":\"goto\",\"chapter\":99,\"level\":1}".utf8), "invalid_params"),
        ("action index past the list", Array("{\"type\":\"action\",\"index\":99}".utf8), "not_now"),
        ("invalid UTF-8", [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D], "invalid_utf8"),
        ("NUL byte", Array("{\"type\":\"ping\"}".utf8) + [0], "malformed_json"),
        ("NUL in a string", Array("{\"type\":\"input\",\"text\":\"a".utf8) + [0] + Array("\"}".utf8), "malformed_json"),
        ("lone surrogate", Array("{\"type\":\"input\",\"text\":\"\\udead\"}".utf8), "malformed_json"),
        ("deep nesting", Array(String(repeating: "[", count: 100_000).utf8), "too_deep"),
        ("huge number", Array("{\"type\":\"wait\",\"ms\":1e999999}".utf8), "malformed_json"),
        ("huge integer", Array("{\"type\":\"wait\",\"ms\":123456789012345678901234567890}".utf8), "invalid_params"),
        ("duplicate keys", Array("{\"type\":\"next\",\"type\":\"quit\"}".utf8), "malformed_json"),
        ("empty line", [], nil),
        ("line of spaces", Array("      ".utf8), nil),
        ("CRLF ending", Array("{\"type\":\"ping\"}\r".utf8), nil),
    ]

    @Test func eachBadLineGetsItsErrorAndTheNextCommandWorks() throws {
        for sample in Self.corpus {
            let session = Support.session()
            _ = session.start()
            var framer = LineFramer()
            let frames = framer.feed(sample.line + [0x0A] + Array("{\"type\":\"ping\",\"id\":\"after\"}\n".utf8))
            let events = frames.flatMap { session.handle($0) }
            let errors = events.compactMap { stamped -> ErrorCode? in
                if case .error(let error) = stamped.event { return error.code }
                return nil
            }
            #expect(errors.map(\.rawValue) == (sample.code.map { [$0] } ?? []), "\(sample.name)")
            #expect(events.last?.event == .done, "\(sample.name)")
            #expect(events.last?.replyTo == .string("after"), "\(sample.name)")
        }
    }

    @Test func theExecutableAnswersEveryBadLineAndKeepsGoing() throws {
        var input: [UInt8] = []
        for sample in Self.corpus { input += sample.line + [0x0A] }
        input += Array(repeating: UInt8(ascii: "x"), count: 16 << 20) + [0x0A]
        input += Array("{\"type\":\"state\",\"id\":\"final\"}".utf8)  // no newline at the end
        let result = try Support.run(["pipe", "--seed", "1", "--clock", "virtual", "--memory-save"], input: input)
        #expect(result.status == 0)
        let events = try Support.events(result.stdout)
        let codes = events.compactMap { event -> String? in
            guard event["type"] == "error", case .string(let code) = event["code"] else { return nil }
            return code
        }
        #expect(codes == Self.corpus.compactMap(\.code) + ["line_too_long"])
        #expect(events.contains { $0["type"] == "done" && $0["replyTo"] == "final" })
        #expect(events.last?["type"] == "bye")
        let validation = try Support.validate("events", result.stdout)
        #expect(validation.ok, "\(validation.report)")
    }

    @Test func aStaleCommandIsRefusedWithoutEffect() throws {
        let session = Support.session()
        _ = session.start()
        let generation = session.engine.generation
        _ = session.handle(Request(command: .game(.next)))
        let events = session.handle(Request(id: .int(1), ifGen: generation, command: .game(.next)))
        #expect(
            events.map(\.event) == [
                .error(
                    ProtocolError(
                        .stale,
                        "the state has moved on to generation \(generation + 1) (the command expected \(generation))",
                        field: "ifGen"
                    )
                ), .done,
            ]
        )
        #expect(session.engine.focus.index == 2)
        let fresh = session.handle(Request(ifGen: generation + 1, command: .game(.next)))
        #expect(session.engine.focus.index == 3)
        #expect(fresh.last?.event == .done)
    }

    @Test func anUnsupportedProtocolVersionIsReportedButAnswered() {
        let session = Support.session()
        _ = session.start()
        let events = session.handle(Request(id: .int(1), command: .hello(ClientHello(client: nil, protocolVersion: 2))))
        guard case .error(let error) = events.first?.event else {
            Issue.record("expected an error first")
            return
        }
        #expect(error.code == .unsupportedProtocol)
        guard case .hello = events[1].event else {
            Issue.record("the hello is still answered")
            return
        }
    }
}
