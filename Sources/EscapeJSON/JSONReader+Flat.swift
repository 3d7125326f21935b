// SPDX-License-Identifier: Apache-2.0
extension JSONReader {
    /// The most members ``readFlatObject(_:)`` reads; a larger object is left to ``read(_:)``.
    public static let maximumFlatMembers = 16

    /// Reads an object whose members are all plain: a fast path for command lines, which nearly
    /// always are.
    ///
    /// Plain means: keys and string values with no escape, integers of at most 15 digits with no
    /// fraction or exponent, `true`, `false` and `null`; no nested array or object, no key twice, at
    /// most ``maximumFlatMembers`` members. For such an input the members are what ``read(_:)``
    /// would put in its object; for any other input (another shape, or anything ``read(_:)`` would
    /// refuse) the answer is `nil`, and the caller reads it the general way. It never reports an
    /// error itself.
    ///
    /// - Parameter bytes: UTF-8 text, already valid (as for ``read(_:)``).
    /// - Returns: The members in the order they came, or `nil`.
    public static func readFlatObject(_ bytes: ArraySlice<UInt8>) -> [(name: String, value: JSONValue)]? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = FlatScanner(buffer: buffer)
            return scanner.object()
        }
    }
}

/// The scan behind ``JSONReader/readFlatObject(_:)``: every method answers `nil` for anything it is
/// not sure of.
private struct FlatScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    var index = 0

    init(buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func object() -> [(name: String, value: JSONValue)]? {
        skipBlanks()
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [(name: String, value: JSONValue)] = []
        members.reserveCapacity(6)
        skipBlanks()
        if !take(UInt8(ascii: "}")) {
            while true {
                skipBlanks()
                guard let name = string() else { return nil }
                skipBlanks()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipBlanks()
                guard let value = value(),
                    members.count < JSONReader.maximumFlatMembers,
                    !members.contains(where: { $0.name == name })
                else { return nil }
                members.append((name, value))
                skipBlanks()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        skipBlanks()
        return index == buffer.count ? members : nil
    }

    private mutating func skipBlanks() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Moves past `byte` when it comes next.
    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < buffer.count, buffer[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string with no escape and no control character.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < buffer.count {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private mutating func value() -> JSONValue? {
        guard index < buffer.count else { return nil }
        switch buffer[index] {
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard buffer.count - index >= count else { return nil }
        for offset in 0..<count where buffer[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    /// `-?(0|[1-9][0-9]{0,14})`, followed by what ends a value: exactly the reader's `.int`.
    private mutating func integer() -> JSONValue? {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var magnitude = 0
        while index < buffer.count, buffer[index] >= UInt8(ascii: "0"), buffer[index] <= UInt8(ascii: "9") {
            magnitude = magnitude * 10 + Int(buffer[index] - UInt8(ascii: "0"))
            index += 1
            // Fifteen digits stay far inside an Int; a longer number goes the general way.
            guard index - start <= 15 else { return nil }
        }
        let digits = index - start
        guard digits > 0, digits == 1 || buffer[start] != UInt8(ascii: "0") else { return nil }
        // A fraction, an exponent or anything else glued on is the reader's to judge.
        if index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"): break
            default: return nil
            }
        }
        return .int(negative ? -magnitude : magnitude)
    }
}
