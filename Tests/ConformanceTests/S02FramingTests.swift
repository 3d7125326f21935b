// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Testing

/// §2 Framing: lines, blank lines, the length bound, strict JSON, numbers, `null`, and what the engine writes.
@Suite struct S02FramingTests {
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The single error a line got, or `nil` when it got none; the line's `done` is checked too.
    private static func code(of line: [UInt8]) async throws -> (code: String?, error: Event?) {
        let transcript = try await EFB.run(bytes: line + Array("\n".utf8))
        let reply = Array(transcript.events.dropFirst(transcript.opening.count).dropLast(2))
        #expect(reply.last?.type == "done")
        #expect(reply.filter { $0.type == "done" }.count == 1)
        let errors = reply.filter { $0.type == "error" }
        #expect(errors.count <= 1)
        return (errors.first?.string("code"), errors.first)
    }

    @Test("§2 Lines end with \\n; one \\r just before it is dropped, so \\r\\n works")
    func crlfWorks() async throws {
        let transcript = try await EFB.run(
            bytes: Array("{\"type\":\"ping\",\"id\":1}\r\n{\"type\":\"ping\",\"id\":2}\n".utf8)
        )
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.types(2) == ["done"])
        #expect(transcript.all("error").isEmpty)
    }

    @Test("§2 A last line without a terminator, just before the end of input, is still handled")
    func unterminatedLastLine() async throws {
        let transcript = try await EFB.run(bytes: Array(#"{"type":"ping","id":"last"}"#.utf8))
        #expect(transcript.types("last") == ["done"])
        #expect(transcript.events.last?.type == "bye")
    }

    @Test("§2 The engine ends every line it writes with \\n only")
    func outputLineEnds() async throws {
        let transcript = try await EFB.run([#"{"type":"state","id":1}"#, #"{"type":"quit"}"#])
        #expect(transcript.bytes.last == UInt8(ascii: "\n"))
        #expect(!transcript.bytes.contains(UInt8(ascii: "\r")))
    }

    @Test("§2 BOM: a UTF-8 BOM at the very start of a line is skipped, on every line")
    func bomAtLineStartIsSkipped() async throws {
        let transcript = try await EFB.run(
            bytes: Self.bom + Array("{\"type\":\"ping\",\"id\":1}\n".utf8) + Self.bom
                + Array("{\"type\":\"ping\",\"id\":2}\n".utf8)
        )
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.types(2) == ["done"])
    }

    @Test("§2 BOM: a BOM anywhere else is a JSON syntax error (malformed_json)")
    func bomElsewhereIsMalformed() async throws {
        #expect(
            try await Self.code(of: Array(" ".utf8) + Self.bom + Array(#"{"type":"ping"}"#.utf8)).code
                == "malformed_json"
        )
        #expect(try await Self.code(of: Array(#"{"type":"ping"}"#.utf8) + Self.bom).code == "malformed_json")
        #expect(try await Self.code(of: Self.bom + Self.bom + Array(#"{"type":"ping"}"#.utf8)).code == "malformed_json")
    }

    @Test("§2 Blank lines (empty, or only spaces, tabs and CRs, after a BOM if any) get no reply at all")
    func blankLinesGetNoReply() async throws {
        let blank: [UInt8] =
            Array("\n   \n\t \t\n\r\n \r \r\n".utf8) + Self.bom + Array(" \t\n".utf8) + Self.bom + [0x0A]
        let transcript = try await EFB.run(bytes: blank + Array("{\"type\":\"ping\",\"id\":\"p\"}\n".utf8))
        let reply = Array(transcript.events.dropFirst(transcript.opening.count))
        #expect(reply.compactMap(\.type) == ["done", "ended", "bye"])
        #expect(reply.first?["replyTo"] == "p")
    }

    @Test(
        "§2 Blank lines: any other whitespace (form feed, no-break space) makes the line malformed_json",
        arguments: [[0x0C], [0xC2, 0xA0], [0x0B]] as [[UInt8]]
    )
    func otherWhitespaceIsMalformed(space: [UInt8]) async throws {
        #expect(try await Self.code(of: space).code == "malformed_json")
        #expect(try await Self.code(of: space + Array(#"{"type":"ping"}"#.utf8)).code == "malformed_json")
    }

    /// A ping line of exactly `length` bytes.
    private static func pingLine(length: Int, id: String = "big") -> [UInt8] {
        let head = Array("{\"type\":\"ping\",\"id\":\"\(id)\",\"pad\":\"".utf8)
        return head + [UInt8](repeating: UInt8(ascii: "a"), count: length - head.count - 2) + Array("\"}".utf8)
    }

    @Test("§2 Line length: a line of exactly 1 MiB (terminator and a dropped \\r excluded) is read normally")
    func lineOfExactlyOneMiB() async throws {
        let transcript = try await EFB.run(
            bytes: Self.pingLine(length: 1_048_576) + Array("\r\n".utf8)
                + Self.bom + Self.pingLine(length: 1_048_573, id: "bom") + [0x0A]
        )
        #expect(transcript.types("big") == ["done"])
        #expect(transcript.types("bom") == ["done"])
    }

    @Test(
        "§2 Line length: a longer line gets line_too_long without replyTo, then done; the BOM counts; the next line is read"
    )
    func longerLineIsRefused() async throws {
        let transcript = try await EFB.run(
            bytes: Self.pingLine(length: 1_048_577) + [0x0A] + Self.bom + Self.pingLine(length: 1_048_574) + [0x0A]
                + Array("{\"type\":\"ping\",\"id\":\"next\"}\n".utf8)
        )
        let reply = Array(transcript.events.dropFirst(transcript.opening.count))
        #expect(reply.compactMap(\.type) == ["error", "done", "error", "done", "done", "ended", "bye"])
        #expect(reply[0].string("code") == "line_too_long")
        #expect(reply[2].string("code") == "line_too_long")
        #expect(reply[0...3].allSatisfy { $0["replyTo"] == nil })
        #expect(reply[4]["replyTo"] == "next")
    }

    @Test(
        "§2 Strict JSON: a line that is not valid UTF-8 (stray bytes, overlong forms, encoded surrogates) is invalid_utf8",
        arguments: [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80]] as [[UInt8]]
    )
    func invalidUTF8(bad: [UInt8]) async throws {
        let line = Array(#"{"type":"ping","id":""#.utf8) + bad + Array(#""}"#.utf8)
        let (code, error) = try await Self.code(of: line)
        #expect(code == "invalid_utf8")
        #expect(error?["replyTo"] == nil)
    }

    @Test(
        "§2 Strict JSON: bad syntax, quotes, trailing commas, leading zeros, trailing data, raw controls, bad escapes are malformed_json",
        arguments: [
            #"{"type":"ping""#, #"{'type':'ping'}"#, #"{"type":"ping",}"#, #"{"type":"wait","ms":01}"#,
            #"{"type":"ping"}{"type":"ping"}"#, "{\"type\":\"ping\",\"id\":\"a\u{01}b\"}", "{\"type\":\"ping\"}\u{00}",
            #"{"type":"ping","id":"\x"}"#, #"{"type":"ping"} x"#, "{\"type\":\"ping\",\"id\":\"a\u{1F}\"}",
        ]
    )
    func malformedJSON(line: String) async throws {
        let (code, error) = try await Self.code(of: Array(line.utf8))
        #expect(code == "malformed_json")
        #expect(error?["replyTo"] == nil)
    }

    @Test(
        "§2 Strict JSON: the same key twice at any depth, compared after unescaping and canonical equivalence, is malformed_json",
        arguments: [
            #"{"type":"ping","type":"ping"}"#, #"{"type":"ping","\u0074ype":"ping"}"#,
            #"{"type":"hello","protocol":1,"keys":{"next":"a","next":"b"}}"#,
            "{\"type\":\"ping\",\"caf\u{E9}\":1,\"cafe\u{301}\":2}",
        ]
    )
    func duplicateKeys(line: String) async throws {
        #expect(try await Self.code(of: Array(line.utf8)).code == "malformed_json")
    }

    @Test(
        "§2 Strict JSON: a \\u escape that is a lone surrogate is malformed_json",
        arguments: [
            #"{"type":"ping","id":"\uD800"}"#, #"{"type":"ping","id":"\uDC00"}"#,
            #"{"type":"ping","id":"\uD800\u0041"}"#,
        ]
    )
    func loneSurrogates(line: String) async throws {
        #expect(try await Self.code(of: Array(line.utf8)).code == "malformed_json")
    }

    @Test("§2 Strict JSON: a number that overflows a double, such as 1e999999, is malformed_json")
    func overflowingNumber() async throws {
        #expect(try await Self.code(of: Array(#"{"type":"wait","ms":1e999999}"#.utf8)).code == "malformed_json")
    }

    /// A ping carrying a value nested `depth` levels deep in all (the command object counts as level 1).
    private static func nested(depth: Int) -> [UInt8] {
        Array(
            ("{\"type\":\"ping\",\"x\":" + String(repeating: "[", count: depth - 1)
                + String(repeating: "]", count: depth - 1) + "}").utf8
        )
    }

    @Test("§2 Strict JSON: nesting more than 64 deep is too_deep; 64 levels in all (the command counts) are accepted")
    func nestingDepth() async throws {
        #expect(try await Self.code(of: Self.nested(depth: 64)).code == nil)
        let (code, error) = try await Self.code(of: Self.nested(depth: 65))
        #expect(code == "too_deep")
        #expect(error?["replyTo"] == nil)
    }

    @Test(
        "§2 Strict JSON: valid JSON that is not an object is not_an_object",
        arguments: [#"[{"type":"ping"}]"#, #""ping""#, "1", "true", "false", "null", " 2.5 "]
    )
    func notAnObject(line: String) async throws {
        #expect(try await Self.code(of: Array(line.utf8)).code == "not_an_object")
    }

    @Test("§2 Strict JSON: only the first problem found, reading from the start of the line, is reported")
    func firstProblemOnly() async throws {
        // Invalid UTF-8 is checked before the JSON; a duplicate key before a syntax error.
        #expect(try await Self.code(of: Array("[1,".utf8) + [0xFF]).code == "invalid_utf8")
        #expect(try await Self.code(of: Array(#"{"a":1,"a":2,}"#.utf8)).code == "malformed_json")
        #expect(try await Self.code(of: Array(#"{"type":"fly","id":null}"#.utf8)).error?.string("field") == "id")
    }

    @Test("§2 Strict JSON: \\u0000 written as an escape is valid JSON and is accepted in strings")
    func escapedNulIsAccepted() async throws {
        let transcript = try await EFB.run([#"{"type":"ping","id":"a\u0000b"}"#])
        #expect(transcript.types("a\u{0}b") == ["done"])
    }

    @Test(
        "§2 Numbers: an integer field takes any JSON number with an integral value (1000.0, 1e3, 1E3, 10000e-1, -0)",
        arguments: ["1000", "1000.0", "1e3", "1E3", "10000e-1", "-0", "0.0e5"]
    )
    func integralNumbers(number: String) async throws {
        let transcript = try await EFB.run([#"{"type":"wait","id":"w","ms":\#(number)}"#])
        #expect(transcript.types("w") == ["done"])
    }

    @Test("§2 Numbers: a number with a fraction is refused with invalid_params naming the field")
    func fractionIsRefused() async throws {
        let transcript = try await EFB.run([#"{"type":"wait","id":"w","ms":1.5}"#])
        let error = try #require(transcript.error("w"))
        #expect(error.string("code") == "invalid_params")
        #expect(error.string("field") == "ms")
        #expect(error.string("message") == "ms must be an integer, not 1.5")
    }

    @Test("§2 Numbers: a value outside a field's range gets invalid_params with the range in words")
    func outOfRange() async throws {
        let transcript = try await EFB.run([
            #"{"type":"goto","id":1,"chapter":0,"level":1}"#,
            #"{"type":"ping","id":2,"ifGen":9007199254740992}"#,
            #"{"type":"wait","id":3,"ms":86400001}"#,
        ])
        #expect(transcript.error(1)?.string("message") == "chapter must be at least 1")
        #expect(transcript.error(1)?.string("field") == "chapter")
        #expect(transcript.error(2)?.string("message") == "ifGen must be at most 9007199254740991")
        #expect(transcript.error(2)?.string("field") == "ifGen")
        #expect(transcript.error(3)?.string("message") == "ms must be between 0 and 86400000")
        #expect(transcript.error(3)?.string("field") == "ms")
    }

    @Test("§2 null is not a value of any field: refused with invalid_params like any other wrong type")
    func nullIsRefused() async throws {
        let transcript = try await EFB.run([
            #"{"type":"focus","id":1,"element":null}"#, #"{"type":"ping","id":2,"ifGen":null}"#,
            #"{"type":"hello","id":3,"protocol":1,"keys":null}"#,
        ])
        #expect(transcript.error(1)?.string("code") == "invalid_params")
        #expect(transcript.error(1)?.string("field") == "element")
        #expect(transcript.error(1)?.string("message") == "element must be a string, not null")
        #expect(transcript.error(2)?.string("field") == "ifGen")
        #expect(transcript.error(3)?.string("field") == "keys")
    }

    @Test("§2 Unknown fields are ignored: at the top level, inside hello's objects, inside batched commands")
    func unknownFieldsAreIgnored() async throws {
        let transcript = try await EFB.run([
            #"{"type":"ping","id":1,"mine":{"a":[1,2]}}"#,
            #"{"type":"hello","id":2,"protocol":{"min":[1,0],"max":[1,1],"x":1},"keys":{"next":"n","zz":"q"},"extra":true}"#,
            #"{"type":"batch","id":3,"commands":[{"type":"next","note":"x"}]}"#,
        ])
        #expect(transcript.all("error").isEmpty)
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.types(3).last == "done")
    }

    @Test("§2 What the engine writes: one compact JSON object per line, keys sorted in byte order")
    func compactSortedOutput() async throws {
        let transcript = try await EFB.run(
            [EFB.hello11, #"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#, #"{"type":"state"}"#],
            arguments: EFB.virtual
        )
        for line in transcript.lines {
            let value = try JSONReader.read(line)
            #expect(JSONWriter.string(value) == String(decoding: line, as: UTF8.self))
        }
    }

    @Test(
        "§2 What the engine writes: \" \\ LF CR TAB short escapes, other controls and DEL as \\u00xx, U+2028/2029/0085 escaped, the rest raw"
    )
    func stringEscapes() async throws {
        let id = #""a\"\\\n\r\t\u0008\u001f\u007f\u2028\u2029\u0085é—/😀""#
        let transcript = try await EFB.run([#"{"type":"ping","id":\#(id)}"#])
        let text = String(decoding: transcript.bytes, as: UTF8.self)
        #expect(text.contains(#""replyTo":"a\"\\\n\r\t\u0008\u001f\u007f\u2028\u2029\u0085é—/😀""#))
    }
}
