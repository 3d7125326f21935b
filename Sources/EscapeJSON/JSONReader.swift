// SPDX-License-Identifier: Apache-2.0
/// Why a line is not acceptable JSON.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: Sendable, Hashable {
        /// Not JSON at all: a stray character, an unterminated string, trailing data, a bad escape.
        case syntax
        /// Nested deeper than the reader allows.
        case tooDeep
        /// A number too large to represent.
        case numberOutOfRange
        /// A `\u` escape that is half of a surrogate pair.
        case loneSurrogate
        /// The same key twice in one object.
        case duplicateKey
    }

    /// The problem itself, for a program to put in its own words; ``detail`` says it in English.
    public enum Problem: Sendable, Hashable {
        /// The input ends inside a value.
        case unexpectedEnd
        /// A character that cannot start or continue a value here.
        case unexpectedCharacter
        /// Something after the one value the input holds.
        case trailingData
        /// An object member that does not start with a string key.
        case expectedKey
        /// A key not followed by `:`.
        case expectedColon
        /// An object member followed by neither `,` nor `}`.
        case expectedCommaOrBrace
        /// An array item followed by neither `,` nor `]`.
        case expectedCommaOrBracket
        /// An unescaped control character in a string.
        case controlCharacter
        /// A backslash followed by a letter JSON does not know.
        case invalidEscape
        /// A `\u` escape without four hex digits, or naming no scalar.
        case invalidUnicodeEscape
        /// A string that never ends.
        case unterminatedString
        /// A number that does not follow JSON's grammar (`01`, `1.`, `-`).
        case invalidNumber
        /// A number too large to represent.
        case numberOutOfRange
        /// Arrays and objects nested deeper than `limit`.
        case tooDeep(limit: Int)
        /// A `\u` escape of a low surrogate with no high one before it.
        case loneLowSurrogate
        /// A `\u` escape of a high surrogate with no escape after it.
        case loneHighSurrogate
        /// A `\u` escape of a high surrogate followed by an escape that is not a low one.
        case unpairedHighSurrogate
        /// The same key twice in one object.
        case duplicateKey(String)

        /// The problem in English.
        public var detail: String {
            switch self {
            case .unexpectedEnd: "unexpected end of input"
            case .unexpectedCharacter: "unexpected character"
            case .trailingData: "unexpected data after the value"
            case .expectedKey: "expected a string key"
            case .expectedColon: "expected ':'"
            case .expectedCommaOrBrace: "expected ',' or '}'"
            case .expectedCommaOrBracket: "expected ',' or ']'"
            case .controlCharacter: "control character in a string"
            case .invalidEscape: "invalid escape"
            case .invalidUnicodeEscape: "invalid \\u escape"
            case .unterminatedString: "unterminated string"
            case .invalidNumber: "invalid number"
            case .numberOutOfRange: "number out of range"
            case .tooDeep(let limit): "nesting deeper than \(limit) levels"
            case .loneLowSurrogate: "lone low surrogate in a \\u escape"
            case .loneHighSurrogate: "lone high surrogate in a \\u escape"
            case .unpairedHighSurrogate: "high surrogate not followed by a low one"
            case .duplicateKey(let key): "duplicate key \"\(key)\""
            }
        }

        /// The kind the problem is of.
        public var kind: Kind {
            switch self {
            case .unexpectedEnd, .unexpectedCharacter, .trailingData, .expectedKey, .expectedColon,
                .expectedCommaOrBrace, .expectedCommaOrBracket, .controlCharacter, .invalidEscape,
                .invalidUnicodeEscape, .unterminatedString, .invalidNumber:
                .syntax
            case .numberOutOfRange: .numberOutOfRange
            case .tooDeep: .tooDeep
            case .loneLowSurrogate, .loneHighSurrogate, .unpairedHighSurrogate: .loneSurrogate
            case .duplicateKey: .duplicateKey
            }
        }
    }

    /// The problem.
    public var problem: Problem
    /// 0-based byte offset in the input where it was found.
    public var offset: Int

    /// The kind of problem.
    public var kind: Kind { problem.kind }
    /// What was wrong, for people, in English.
    public var detail: String { problem.detail }

    /// A sentence naming the problem and where it is.
    public var description: String { "\(detail) at byte \(offset)" }
}

/// A strict RFC 8259 reader over UTF-8 bytes.
///
/// It differs from Foundation's JSON decoder where the protocol needs it to: a duplicate key, a lone
/// surrogate, an over-deep nesting and an out-of-range number each get their own error instead of
/// being accepted quietly or reported as a type mismatch, and integers keep their exact value.
/// The input must already be valid UTF-8 (the line framer checks).
public struct JSONReader {
    /// How deep arrays and objects may nest.
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one JSON value that must fill the whole input, apart from surrounding whitespace.
    ///
    /// - Parameter bytes: UTF-8 text.
    /// - Returns: The value.
    /// - Throws: ``JSONReadError`` naming the first problem.
    public static func read(_ bytes: some Collection<UInt8>) throws(JSONReadError) -> JSONValue {
        var reader = JSONReader(Array(bytes))
        reader.skipWhitespace()
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error(.trailingData) }
        return value
    }

    private func error(_ problem: JSONReadError.Problem) -> JSONReadError {
        JSONReadError(problem: problem, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws(JSONReadError) -> JSONValue {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error(.unexpectedCharacter)
        }
    }

    private mutating func readLiteral(_ word: String, _ value: JSONValue) throws(JSONReadError) -> JSONValue {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error(.unexpectedCharacter) }
            index += 1
        }
        return value
    }

    private mutating func enter() throws(JSONReadError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error(.tooDeep(limit: Self.maximumDepth))
        }
    }

    private mutating func readObject() throws(JSONReadError) -> JSONValue {
        try enter()
        index += 1
        // Room for a command line's keys, so the first few do not each grow the table.
        var object = [String: JSONValue](minimumCapacity: 8)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(.expectedKey)
            }
            let keyOffset = index
            let key = try readString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error(.expectedColon) }
            index += 1
            skipWhitespace()
            let value = try readValue()
            guard object.updateValue(value, forKey: key) == nil else {
                throw JSONReadError(problem: .duplicateKey(key), offset: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(object)
            } else {
                throw error(.expectedCommaOrBrace)
            }
        }
    }

    private mutating func readArray() throws(JSONReadError) -> JSONValue {
        try enter()
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try readValue())
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(array)
            } else {
                throw error(.expectedCommaOrBracket)
            }
        }
    }

    private mutating func readString() throws(JSONReadError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error(.controlCharacter) }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error(.unexpectedEnd) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try readUnicodeEscape()
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    throw error(.invalidEscape)
                }
            default:
                guard byte >= 0x20 else { throw error(.controlCharacter) }
                scalars.append(byte)
                index += 1
            }
        }
        throw error(.unterminatedString)
    }

    private mutating func readHex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func readUnicodeEscape() throws(JSONReadError) -> Unicode.Scalar {
        let high = try readHex4()
        if (0xDC00...0xDFFF).contains(high) {
            throw error(.loneLowSurrogate)
        }
        guard (0xD800...0xDBFF).contains(high) else {
            guard let scalar = Unicode.Scalar(high) else { throw error(.invalidUnicodeEscape) }
            return scalar
        }
        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { throw error(.loneHighSurrogate) }
        index += 2
        let low = try readHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
            throw error(.unpairedHighSurrogate)
        }
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw error(.invalidUnicodeEscape) }
        return scalar
    }

    private mutating func readNumber() throws(JSONReadError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.invalidNumber) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            if let value = Int(text) { return .int(value) }
            if let value = UInt64(text) { return .uint(value) }
        }
        guard let value = Double(text), value.isFinite else {
            throw JSONReadError(problem: .numberOutOfRange, offset: start)
        }
        guard !isInteger else { return .double(value) }
        switch Self.integralValue(bytes[start..<index]) {
        case .fractional:
            return .double(value)
        case .integral(let magnitude?):
            let negative = bytes[start] == UInt8(ascii: "-")
            if !negative, let exact = Int(exactly: magnitude) { return .int(exact) }
            if !negative { return .uint(magnitude) }
            if magnitude <= UInt64(Int.max) + 1 {
                return .int(magnitude == 0 ? 0 : Int(truncatingIfNeeded: 0 &- magnitude))
            }
            return .double(value)
        case .integral(nil):
            return .double(value)
        }
    }

    /// What the digits of a number say about it being an integer.
    enum Integrality: Equatable {
        /// An integer: its magnitude when 64 bits hold it.
        case integral(UInt64?)
        /// Not an integer.
        case fractional
    }

    /// Whether a number in JSON's grammar has an integral value, read from its digits, and which.
    ///
    /// The digits before the exponent, without leading or trailing zeros, stand for an integer `m`
    /// times ten to some power `p`; the number is integral when it is 0 or when `p` is not negative.
    /// Whether a number is an integer is decided on its digits, never on the nearest double: `1e-400`
    /// and `9007199254740991.0000000001` round to integers but are not. An integral one written with a
    /// fraction or an exponent (`1000.0`, `1e3`) is the integer it is, exactly.
    static func integralValue(_ number: ArraySlice<UInt8>) -> Integrality {
        var digits: [UInt8] = []
        var fractionLength = 0
        var inFraction = false
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in number {
            switch byte {
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where inExponent:
                // Saturated: an exponent beyond any digit count decides the same way.
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1 << 40)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inFraction { fractionLength += 1 }
                digits.append(byte)
            default: continue
            }
        }
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }),
            let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") })
        else { return .integral(0) }
        let power = exponentSign * exponent - fractionLength + (digits.count - 1 - last)
        guard power >= 0 else { return .fractional }
        guard last - first + 1 + power <= 20 else { return .integral(nil) }
        var magnitude: UInt64 = 0
        for digit in digits[first...last] {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, overflowPlus) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowPlus else { return .integral(nil) }
            magnitude = plus
        }
        for _ in 0..<power {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .integral(nil) }
            magnitude = times
        }
        return .integral(magnitude)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
