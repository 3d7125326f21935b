import EscapeCore
import EscapeJSON
import EscapeProtocol
import Foundation
import Testing

struct EventDecoderTests {
    private static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol/examples")

    static let transcripts = [
        "full-game.transcript.ndjson", "full-game-1.1.transcript.ndjson", "bot-features.transcript.ndjson",
        "chapters-1.2.transcript.ndjson",
    ]

    private func reencoded(_ line: some Collection<UInt8>, protocolMinor: Int = 0) throws -> [UInt8] {
        var output: [UInt8] = []
        EventEncoder.encode(try EventDecoder.decode(line, protocolMinor: protocolMinor), into: &output)
        return output
    }

    @Test(arguments: transcripts)
    func everyLineOfATranscriptDecodesAndEncodesBackByteForByte(name: String) throws {
        let bytes = try Array(Data(contentsOf: Self.examples.appendingPathComponent(name)))
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count > 10)
        for line in lines {
            #expect(
                try reencoded(line) == Array(line) + [UInt8(ascii: "\n")],
                "\(String(decoding: line, as: UTF8.self))"
            )
        }
    }

    @Test func damagedLinesAreErrorsNeverCrashes() throws {
        let bytes = try Array(Data(contentsOf: Self.examples.appendingPathComponent("bot-features.transcript.ndjson")))
        var decoded = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")).map(Array.init) {
            // Every cut, and every byte swapped for a quote, a brace or a digit: an event or an error.
            for end in stride(from: 0, to: line.count, by: 7) where (try? EventDecoder.decode(line[..<end])) != nil {
                decoded += 1
            }
            for index in stride(from: 0, to: line.count, by: 5) {
                for byte in [UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "7")] {
                    var damaged = line
                    damaged[index] = byte
                    if (try? EventDecoder.decode(damaged)) != nil { decoded += 1 }
                }
            }
        }
        #expect(decoded > 0, "some damage leaves a valid event (a digit in a text)")
    }

    @Test func theVersionIsReadFromTheLine() throws {
        let old = try EventDecoder.decode(
            Array(#"{"seq":4,"text":"Hi","priority":"polite","category":"feedback","type":"announce"}"#.utf8)
        )
        #expect(old.protocolMinor == 0)
        let told = try EventDecoder.decode(Array(#"{"seq":4,"type":"bye"}"#.utf8), protocolMinor: 1)
        #expect(told.protocolMinor == 0, "the line says 1.0, whatever the connection speaks")
        #expect(old.event == .game(.announce(Announcement("Hi", category: .feedback))))
        let new = try EventDecoder.decode(
            Array(
                #"{"gen":3,"seq":4,"replyTo":"a","text":"Hi","priority":"polite","category":"feedback","type":"announce"}"#
                    .utf8
            )
        )
        #expect(new.protocolMinor == 1)
        #expect(new.generation == 3)
        #expect(new.replyTo == .string("a"))
    }

    @Test(
        arguments: [
            #"{"controlFree":true,"gen":2,"role":"observer","seq":2,"type":"role"}"#,
            #"{"gen":2,"seq":9,"type":"idle"}"#,
            #"{"gen":5,"limitMs":60000,"paused":false,"remainingMs":1000,"seq":3,"type":"timer"}"#,
            #"{"gen":1,"loop":"wind-in-a-shaft","name":"ambient","seq":3,"type":"sound"}"#,
            #"{"code":"read_only","gen":1,"message":"no","replyTo":7,"seq":3,"type":"error"}"#,
            #"{"element":{"id":"d","label":"Dial","traits":["adjustable"],"value":"3"},"gen":1,"seq":3,"type":"elementChanged"}"#,
        ]
    )
    func eventsOfAServedGameRoundTrip(line: String) throws {
        #expect(try reencoded(Array(line.utf8), protocolMinor: 1) == Array((line + "\n").utf8))
    }

    @Test(
        arguments: [
            ("{", nil),
            ("[1]", nil),
            (#"{"seq":1}"#, "type"),
            (#"{"type":"done"}"#, "seq"),
            (#"{"type":"warp","seq":1}"#, "type"),
            (#"{"type":"done","seq":"1"}"#, "seq"),
            (#"{"type":"done","seq":1,"replyTo":true}"#, "replyTo"),
            (
                #"{"type":"focus","seq":1,"gen":0,"screen":"s","index":1,"count":1,"element":{"id":"x","label":"X","traits":["wand"]}}"#,
                "element.traits[0]"
            ),
            (#"{"type":"sound","seq":1,"name":"trumpet"}"#, "name"),
            (
                #"{"type":"validActions","seq":1,"gen":0,"screen":"s","actions":[{"element":null,"label":"L","needsText":false,"command":{"type":"fly"}}]}"#,
                "actions[0].command.type"
            ),
            (
                #"{"type":"validActions","seq":1,"gen":0,"screen":"s","actions":[{"element":null,"label":"L","needsText":false,"command":{"type":"ping"}}]}"#,
                "actions[0].command"
            ),
            (
                #"{"type":"rotor","seq":1,"element":"door","rotor":"r","rotorIndex":1,"rotorCount":1,"itemIndex":null,"itemCount":2}"#,
                "item"
            ),
        ] as [(String, String?)]
    )
    func aBadLineIsAClearErrorNamingItsField(line: String, field: String?) {
        #expect {
            try EventDecoder.decode(Array(line.utf8))
        } throws: { error in
            guard let error = error as? EventDecodingError else { return false }
            return error.field == field && !error.description.isEmpty
        }
    }
}
