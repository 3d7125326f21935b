// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import Testing

struct JSONReaderTests {
    private func read(_ text: String) throws(JSONReadError) -> JSONValue {
        try JSONReader.read(Array(text.utf8))
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try read(#" {"a": [1, -2.5, 3e2, true, false, null], "b": "x\u00e9\ud83d\ude00\n\"\\\/"} "#)
        #expect(value == ["a": [1, .double(-2.5), .int(300), true, false, nil], "b": "xé😀\n\"\\/"])
    }

    @Test func keepsLargeIntegersExact() throws {
        #expect(try read("9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try read("1.0") == .int(1))
    }

    /// Integrality is read from the digits, never from the nearest double (issue 26 G): before,
    /// `1e-400` was `.double(0)` and `9007199254740991.0000000001` `.double(9007199254740991)`,
    /// which every integer field then took as integers.
    @Test(
        arguments: [
            "1e-400", "-1e-400", "9007199254740991.0000000001", "0.5", "1.5e0", "15e-1", "1000000000000000000001e-21",
            "4.9e-324", "2.4703282292062328e-324", "9223372036854775807.5",
        ]
    )
    func aNumberWithAFractionIsNeverAnInteger(text: String) throws {
        guard case .double = try read(text) else {
            Issue.record("\(text) was read as \(try read(text))")
            return
        }
    }

    @Test func anIntegralNumberIsTheExactIntegerHoweverItIsWritten() throws {
        let samples: [(String, JSONValue)] = [
            ("1000.0", .int(1000)), ("1e3", .int(1000)), ("1E+3", .int(1000)), ("10000e-1", .int(1000)),
            ("-0", .int(0)), ("-0.0", .int(0)), ("0e-99999999999999999999", .int(0)), ("0.000e5", .int(0)),
            ("9007199254740993e0", .int(9_007_199_254_740_993)), ("9007199254740993.000", .int(9_007_199_254_740_993)),
            ("-9223372036854775808.0", .int(.min)), ("18446744073709551615e0", .uint(.max)),
            ("1e19", .uint(10_000_000_000_000_000_000)), ("1e20", .double(1e20)), ("-1e19", .double(-1e19)),
            ("12300e-2", .int(123)),
        ]
        for (text, value) in samples { #expect(try read(text) == value, "\(text)") }
    }

    @Test(
        arguments: [
            ("{", JSONReadError.Kind.syntax), ("{\"a\":1,}", .syntax), ("[1 2]", .syntax), ("'a'", .syntax),
            ("{\"a\":01}", .syntax), ("tru", .syntax), ("\"\u{1}\"", .syntax), ("\"a\\x\"", .syntax),
            ("{} {}", .syntax),
            ("1e400", .numberOutOfRange), ("-1e999", .numberOutOfRange), ("\"\\ud800\"", .loneSurrogate),
            ("\"\\udc00x\"", .loneSurrogate), ("\"\\ud800\\u0041\"", .loneSurrogate),
            ("{\"a\":1,\"a\":2}", .duplicateKey),
            ("", .syntax), ("nul", .syntax), ("\"abc", .syntax),
        ]
    )
    func refusesBadInput(_ sample: (String, JSONReadError.Kind)) {
        #expect(throws: JSONReadError.self) { try read(sample.0) }
        do {
            _ = try read(sample.0)
        } catch {
            #expect(error.kind == sample.1, "\(sample.0)")
        }
    }

    @Test func refusesDeepNestingWithoutRecursingFurther() {
        let deep = String(repeating: "[", count: 100_000)
        do {
            _ = try read(deep)
            Issue.record("deep nesting must be refused")
        } catch {
            #expect(error.kind == .tooDeep)
            #expect(error.offset == JSONReader.maximumDepth)
        }
        let allowed =
            String(repeating: "[", count: JSONReader.maximumDepth)
            + String(repeating: "]", count: JSONReader.maximumDepth)
        #expect(throws: Never.self) { try read(allowed) }
    }

    @Test func bigIntegersBecomeDoubles() throws {
        #expect(try read("123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(try read("18446744073709551616") == .double(18_446_744_073_709_551_616))
    }

    @Test func keepsUnsignedIntegersAboveIntMaxExact() throws {
        #expect(try read("18446744073709551615") == .uint(.max))
        #expect(try read("9223372036854775808") == .uint(9_223_372_036_854_775_808))
        #expect(try read("9223372036854775807") == .int(.max))
        #expect(try read("-9223372036854775808") == .int(.min))
        #expect(try read("-9223372036854775809") == .double(-9.223_372_036_854_775_808e18))
    }
}

struct JSONWriterTests {
    @Test func sortsKeysAndWritesCompactly() {
        #expect(JSONWriter.string(["b": 1, "a": [true, nil], "c": "x"]) == #"{"a":[true,null],"b":1,"c":"x"}"#)
    }

    @Test func escapesLineSeparatorsAndControls() {
        let text = JSONWriter.string(.string("a\u{2028}b\u{2029}c\u{85}d\u{0}e\u{7F}\t\"\\/é"))
        #expect(text == #""a\u2028b\u2029c\u0085d\u0000e\u007f\t\"\\/é""#)
    }

    @Test func writesTheWayJSONEncoderDoesInItsStyle() {
        let text = JSONWriter.string(.string("a/b\u{8}\u{C}\u{1}\u{7F}\u{2028}\u{85}é"), style: .jsonEncoder)
        #expect(text == #""a\/b\b\f\u0001\#u{7F}\#u{2028}\#u{85}é""#)
        #expect(JSONWriter.string(.string("a/b\u{8}"), style: .wire) == #""a/b\u0008""#)
        #expect(JSONWriter.string([.double(3), .double(-0.0), .double(0.5)], style: .jsonEncoder) == "[3,-0,0.5]")
        #expect(JSONWriter.string([.double(3), .double(0.5)], style: .wire) == "[3.0,0.5]")
        #expect(
            JSONWriter.string(["\u{212B}": 1, "\u{D0}": 2], style: .jsonEncoder) == "{\"\u{D0}\":2,\"\u{212B}\":1}"
        )
        #expect(JSONWriter.string(.uint(.max)) == "18446744073709551615")
    }

    @Test func whatItWritesReadsBackTheSame() throws {
        let value: JSONValue = ["text": "line\nbreak \u{2028} 😀", "n": -42, "d": .double(0.25), "list": [[:], []]]
        #expect(try JSONReader.read(Array(JSONWriter.string(value).utf8)) == value)
    }
}

/// The flat fast path reads exactly what the general reader reads, or leaves the line to it.
struct FlatObjectTests {
    /// Pieces lines are made of: plain ones, and every kind the fast path must leave alone.
    static let pieces = [
        "{", "}", "{", "}", ",", ",", ":", ":", " ", "\t", "\r", "\n", "\"id\"", "\"type\"", "\"text\"", "\"id\"",
        "\"a b\"", "\"é\"", "\"\"", "\"x\\\"y\"", "\"\\u00e9\"", "\"tab\there\"", "0", "7", "-3", "-0", "01", "1.5",
        "1e3", "2E-1", "123456789012345", "1234567890123456", "-123456789012345", "true", "false", "null", "tru",
        "nul", "[]", "[1]", "{}", "\"", "-", "+1", "x",
    ]

    /// A generator of its own, so every run makes the same lines.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    @Test func agreesWithTheReaderOnRandomLines() {
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var flat = 0
        for _ in 0..<60_000 {
            var text = "{"
            let members = Int.random(in: 0...4, using: &generator)
            for member in 0..<members {
                if member > 0 {
                    text += Bool.random(using: &generator) ? "," : Self.pieces.randomElement(using: &generator)!
                }
                text +=
                    Bool.random(using: &generator) ? "\"k\(member)\"" : Self.pieces.randomElement(using: &generator)!
                text += Bool.random(using: &generator) ? ":" : Self.pieces.randomElement(using: &generator)!
                text += Self.pieces.randomElement(using: &generator)!
            }
            text += Int.random(in: 0..<8, using: &generator) == 0 ? Self.pieces.randomElement(using: &generator)! : "}"
            let bytes = Array(text.utf8)
            guard let members = JSONReader.readFlatObject(bytes[...]) else { continue }
            flat += 1
            let read = try? JSONReader.read(bytes)
            #expect(
                read == .object(Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })),
                "\(text)"
            )
            #expect(Set(members.map(\.name)).count == members.count, "\(text)")
        }
        // The lines it reads are a good share of them, not a handful.
        #expect(flat > 5_000)
    }

    @Test func readsPlainCommandLines() {
        let lines = [
            #"{"type":"next","id":1}"#, #" { "type" : "input" , "text" : "la clé" , "id" : "a-1" } "#,
            #"{"type":"goto","chapter":2,"level":-15,"ifGen":0,"game":null,"active":true,"x":false}"#, "{}",
        ]
        for line in lines {
            #expect(JSONReader.readFlatObject(Array(line.utf8)[...]) != nil, "\(line)")
        }
    }

    @Test func leavesEverythingElseToTheReader() {
        let lines = [
            #"{"a":"\n"}"#, #"{"a":1.0}"#, #"{"a":1e2}"#, #"{"a":01}"#, #"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":1,"a":2}"#,
            #"{"a":1234567890123456}"#, #"{"a":"\u0041"}"#, "{\"a\":\"\u{1}\"}", #"{"a":1} x"#, #"[1]"#, #"{"a":1,}"#,
            #"{"a" 1}"#, #"{"a":-}"#, "{" + (0..<17).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
        ]
        for line in lines {
            #expect(JSONReader.readFlatObject(Array(line.utf8)[...]) == nil, "\(line)")
        }
    }
}
