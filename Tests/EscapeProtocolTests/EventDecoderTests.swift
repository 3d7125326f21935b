// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import Foundation
import Testing

struct EventDecoderTests {
    private static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol/examples")

    /// The transcripts of Protocol/examples, with how many lines (events) each one has.
    static let transcripts = [
        ("full-game.transcript.ndjson", 658), ("full-game-1.1.transcript.ndjson", 758),
        ("bot-features.transcript.ndjson", 45), ("chapters-1.2.transcript.ndjson", 34),
    ]

    /// The `hello` every transcript opens with, as the engine wrote it in protocol 1.0.
    static let openingHello = ServerHello(
        protocolVersion: 1,
        version: .v1_0,
        versions: [.v1_0, .v1_1, .v1_2, .v1_3],
        engineVersion: "0.1.0",
        locale: "en",
        adventureID: "escape-from-blindness",
        adventureTitle: "Escape From Blindness",
        capabilities: [
            "adjust", "aimedGestures", "assistive", "batch", "cancel", "customActions", "escape", "hints", "ifGen",
            "levelMenu", "magicTap", "repeat", "rotors", "snapshot", "timePressure", "validActions", "virtualClock",
        ]
    )

    private func reencoded(_ line: some Collection<UInt8>, protocolMinor: Int = 0) throws -> [UInt8] {
        var output: [UInt8] = []
        EventEncoder.encode(try EventDecoder.decode(line, protocolMinor: protocolMinor), into: &output)
        return output
    }

    @Test(arguments: transcripts)
    func everyLineOfATranscriptDecodesAndEncodesBackByteForByte(name: String, lineCount: Int) throws {
        let bytes = try Array(Data(contentsOf: Self.examples.appendingPathComponent(name)))
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        try #require(lines.count == lineCount)
        for (index, line) in lines.enumerated() {
            #expect(
                try reencoded(line) == Array(line) + [UInt8(ascii: "\n")],
                "\(String(decoding: line, as: UTF8.self))"
            )
            // One session per transcript: the lines are numbered from 1, without a gap.
            #expect(try EventDecoder.decode(line).seq == index + 1)
        }
        let first = try EventDecoder.decode(lines[0])
        #expect(first == StampedEvent(seq: 1, replyTo: nil, generation: 0, event: .hello(Self.openingHello)))
        let last = try EventDecoder.decode(lines[lineCount - 1])
        #expect(last.event == .bye)
        #expect(last.replyTo == .string("quit"))
    }

    /// The focus line bot-features.transcript.ndjson sends third.
    static let focusLine = Array(
        #"{"count":3,"element":{"id":"title","label":"Darkness","traits":["header"]},"gen":0,"index":1,"screen":"intro-1","seq":3,"type":"focus"}"#
            .utf8
    )

    @Test func damagedLinesAreErrorsNeverCrashes() throws {
        let bytes = try Array(Data(contentsOf: Self.examples.appendingPathComponent("bot-features.transcript.ndjson")))
        for line in bytes.split(separator: UInt8(ascii: "\n")).map(Array.init) {
            let original = try EventDecoder.decode(line)
            // A line cut short is never JSON: every cut is an error that says so.
            for end in stride(from: 0, to: line.count, by: 7) {
                let error = #expect(throws: EventDecodingError.self) { try EventDecoder.decode(line[..<end]) }
                #expect(error?.field == nil)
                #expect(error?.problem.hasPrefix("not JSON: ") == true, "\(String(describing: error))")
            }
            // Every byte swapped for a quote, a brace or a digit: an error, or an event of the same kind
            // (the damage fell in a value or an ignored member).
            for index in stride(from: 0, to: line.count, by: 5) {
                for byte in [UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "7")] {
                    var damaged = line
                    damaged[index] = byte
                    guard let event = try? EventDecoder.decode(damaged) else { continue }
                    #expect(Self.kind(of: event.event) == Self.kind(of: original.event))
                    // What the encoder writes of it is canonical: read and written again, it stays byte for
                    // byte (the first writing may differ: a valid action's command gets the action's element).
                    let written = try reencoded(damaged)
                    #expect(
                        try reencoded(written.dropLast()) == written,
                        "\(String(decoding: damaged, as: UTF8.self))"
                    )
                }
            }
        }
    }

    @Test func aDigitInATextIsReadAsText() throws {
        var damaged = Self.focusLine
        let label = try #require(damaged.firstRange(of: Array("Darkness".utf8)))
        damaged[label.lowerBound] = UInt8(ascii: "7")
        let event = try EventDecoder.decode(damaged)
        let expected = FocusState(
            screen: "intro-1",
            element: Element(id: "title", label: "7arkness", traits: [.header]),
            index: 1,
            count: 3
        )
        #expect(event == StampedEvent(seq: 3, replyTo: nil, generation: 0, event: .game(.focus(expected))))
        // A digit in a number is read as that number.
        var renumbered = Self.focusLine
        let count = try #require(renumbered.firstRange(of: Array(#""count":3"#.utf8)))
        renumbered[count.upperBound - 1] = UInt8(ascii: "7")
        let focus = try EventDecoder.decode(renumbered)
        let title = Element(id: "title", label: "Darkness", traits: [.header])
        #expect(focus.event == .game(.focus(FocusState(screen: "intro-1", element: title, index: 1, count: 7))))
    }

    /// The case of an event, without its values.
    private static func kind(of event: Event) -> String {
        switch event {
        case .hello: "hello"
        case .game(let game):
            switch game {
            case .screen: "screen"
            case .focus: "focus"
            case .announce: "announce"
            case .rotor: "rotor"
            case .actions: "actions"
            case .result: "result"
            case .sound: "sound"
            case .ended: "game ended"
            case .elementChanged: "elementChanged"
            case .timer: "timer"
            case .ambient: "ambient"
            }
        case .progress: "progress"
        case .error: "error"
        case .done: "done"
        case .bye: "bye"
        case .ended: "ended"
        case .validActions: "validActions"
        case .observation: "observation"
        case .snapshot: "snapshot"
        case .idle: "idle"
        case .role: "role"
        }
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
            ("{", nil, "not JSON: expected a string key at byte 1"),
            ("[1]", nil, "an event is an object, not array"),
            (#"{"seq":1}"#, "type", "is missing"),
            (#"{"type":"done"}"#, "seq", "is missing"),
            (#"{"type":"warp","seq":1}"#, "type", #""warp" names no event"#),
            (#"{"type":"done","seq":"1"}"#, "seq", "must be an integer, not string"),
            (#"{"type":"done","seq":1,"replyTo":true}"#, "replyTo", "must be a string or an integer, not boolean"),
            (
                #"{"type":"focus","seq":1,"gen":0,"screen":"s","index":1,"count":1,"element":{"id":"x","label":"X","traits":["wand"]}}"#,
                "element.traits[0]", #""wand" names no trait"#
            ),
            (
                #"{"type":"sound","seq":1,"name":"trumpet"}"#, "name",
                #""trumpet" is not one of "boundary", "chapter", "solved", "wrong", "hint", "locked", "escaped", "#
                    + #""assistive-lost", "assistive-back", "dial", "torch-last-minute", "torch-countdown", "torch-out""#
            ),
            (
                #"{"type":"validActions","seq":1,"gen":0,"screen":"s","actions":[{"element":null,"label":"L","needsText":false,"command":{"type":"fly"}}]}"#,
                "actions[0].command.type", "not a command (unknown_command)"
            ),
            (
                #"{"type":"validActions","seq":1,"gen":0,"screen":"s","actions":[{"element":null,"label":"L","needsText":false,"command":{"type":"ping"}}]}"#,
                "actions[0].command", "not a gesture"
            ),
            (
                #"{"type":"rotor","seq":1,"element":"door","rotor":"r","rotorIndex":1,"rotorCount":1,"itemIndex":null,"itemCount":2}"#,
                "item", "is missing"
            ),
        ] as [(String, String?, String)]
    )
    func aBadLineIsAClearErrorNamingItsField(line: String, field: String?, problem: String) {
        #expect(throws: EventDecodingError(field: field, problem)) {
            try EventDecoder.decode(Array(line.utf8))
        }
    }
}
