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

    /// The kind of problem.
    public var kind: Kind
    /// 0-based byte offset in the input where it was found.
    public var offset: Int
    /// What was wrong, for people.
    public var detail: String

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
        guard reader.index == reader.bytes.count else { throw reader.error(.syntax, "unexpected data after the value") }
        return value
    }

    private func error(_ kind: JSONReadError.Kind, _ detail: String) -> JSONReadError {
        JSONReadError(kind: kind, offset: index, detail: detail)
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
        guard index < bytes.count else { throw error(.syntax, "unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error(.syntax, "unexpected character")
        }
    }

    private mutating func readLiteral(_ word: String, _ value: JSONValue) throws(JSONReadError) -> JSONValue {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error(.syntax, "unexpected character") }
            index += 1
        }
        return value
    }

    private mutating func enter() throws(JSONReadError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error(.tooDeep, "nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func readObject() throws(JSONReadError) -> JSONValue {
        try enter()
        index += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(.syntax, "expected a string key")
            }
            let keyOffset = index
            let key = try readString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error(.syntax, "expected ':'") }
            index += 1
            skipWhitespace()
            let value = try readValue()
            guard object.updateValue(value, forKey: key) == nil else {
                throw JSONReadError(kind: .duplicateKey, offset: keyOffset, detail: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count else { throw error(.syntax, "unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(object)
            } else {
                throw error(.syntax, "expected ',' or '}'")
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
            guard index < bytes.count else { throw error(.syntax, "unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(array)
            } else {
                throw error(.syntax, "expected ',' or ']'")
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
            guard byte >= 0x20 else { throw error(.syntax, "control character in a string") }
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
                guard index < bytes.count else { throw error(.syntax, "unexpected end of input") }
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
                    throw error(.syntax, "invalid escape")
                }
            default:
                guard byte >= 0x20 else { throw error(.syntax, "control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error(.syntax, "unterminated string")
    }

    private mutating func readHex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.syntax, "unexpected end of input") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.syntax, "invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func readUnicodeEscape() throws(JSONReadError) -> Unicode.Scalar {
        let high = try readHex4()
        if (0xDC00...0xDFFF).contains(high) {
            throw error(.loneSurrogate, "lone low surrogate in a \\u escape")
        }
        guard (0xD800...0xDBFF).contains(high) else {
            guard let scalar = Unicode.Scalar(high) else { throw error(.syntax, "invalid \\u escape") }
            return scalar
        }
        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { throw error(.loneSurrogate, "lone high surrogate in a \\u escape") }
        index += 2
        let low = try readHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
            throw error(.loneSurrogate, "high surrogate not followed by a low one")
        }
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw error(.syntax, "invalid \\u escape") }
        return scalar
    }

    private mutating func readNumber() throws(JSONReadError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error(.syntax, "invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.syntax, "invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(.syntax, "invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            if let value = Int(text) { return .int(value) }
            if let value = UInt64(text) { return .uint(value) }
        }
        guard let value = Double(text), value.isFinite else {
            throw JSONReadError(kind: .numberOutOfRange, offset: start, detail: "number out of range")
        }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
