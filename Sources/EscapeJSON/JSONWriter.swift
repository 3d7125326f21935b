// SPDX-License-Identifier: Apache-2.0
/// Writes JSON values compactly, with object keys sorted, so equal values always give equal bytes.
///
/// In the ``Style/wire`` style it escapes, beyond what JSON requires, U+2028, U+2029 and U+0085, which
/// some line splitters treat as line ends, so every value stays on one line.
public enum JSONWriter {
    /// How strings, numbers and key order are spelled.
    public enum Style: Sendable, Hashable {
        /// The protocol's: line separators and DEL escaped, keys in `String` order.
        case wire
        /// Byte for byte what Foundation's JSON encoder writes with `.sortedKeys`: `/` escaped as `\/`,
        /// `\b` and `\f` for backspace and form feed, nothing above U+001F escaped, keys in UTF-8 byte
        /// order, and integral doubles without `.0`. Snapshot blobs need it to stay what they were.
        case jsonEncoder
    }

    /// Appends the JSON text of `value` to `output`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - output: Receives UTF-8 bytes.
    ///   - style: How to spell it; the protocol's by default.
    public static func write(_ value: JSONValue, into output: inout [UInt8], style: Style = .wire) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number):
            output.append(contentsOf: String(number).utf8)
        case .uint(let number):
            output.append(contentsOf: String(number).utf8)
        case .double(let number):
            writeDouble(number, into: &output, style: style)
        case .string(let text):
            writeString(text, into: &output, style: style)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output, style: style)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // The members are sorted as pairs: no key is hashed again to find its value.
            for (offset, member) in sorted(members, style: style).enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output, style: style)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output, style: style)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The JSON text of `value` as a string.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - style: How to spell it; the protocol's by default.
    /// - Returns: The text.
    public static func string(_ value: JSONValue, style: Style = .wire) -> String {
        var output: [UInt8] = []
        write(value, into: &output, style: style)
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func sorted(
        _ members: [String: JSONValue],
        style: Style
    ) -> [(key: String, value: JSONValue)] {
        switch style {
        case .wire: members.sorted { $0.key < $1.key }
        case .jsonEncoder: members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
    }

    private static func writeDouble(_ number: Double, into output: inout [UInt8], style: Style) {
        guard number.isFinite else { return output.append(contentsOf: "null".utf8) }
        let text = "\(number)"
        switch style {
        case .wire:
            output.append(contentsOf: text.utf8)
        case .jsonEncoder:
            output.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
        }
    }

    /// Appends `text` as a JSON string in the protocol's style.
    ///
    /// - Parameters:
    ///   - text: The string.
    ///   - output: Receives UTF-8 bytes.
    public static func writeString(_ text: String, into output: inout [UInt8]) {
        writeString(text, into: &output, style: .wire)
    }

    private static func writeString(_ text: String, into output: inout [UInt8], style: Style) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole; only the rare escape is written
            // byte by byte.
            var start = 0
            var index = 0
            while index < bytes.count {
                // Printable ASCII but the quote and the backslash never needs an escape in either style
                // (the slash is checked below for the JSONEncoder style): most bytes stop here.
                let byte = bytes[index]
                if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C && byte != 0x2F {
                    index += 1
                    continue
                }
                let length = escapedLength(in: bytes, at: index, style: style)
                guard length > 0 else {
                    index += 1
                    continue
                }
                output.append(contentsOf: bytes[start..<index])
                appendEscape(of: bytes[index..<(index + length)], into: &output, style: style)
                index += length
                start = index
            }
            output.append(contentsOf: bytes[start..<bytes.count])
        }
        output.append(UInt8(ascii: "\""))
    }

    /// How many bytes at `index` make up a character to escape, or 0.
    package static func escapedLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int, style: Style) -> Int {
        let byte = bytes[index]
        switch style {
        case .wire:
            switch byte {
            case 0x22, 0x5C, 0x00..<0x20, 0x7F:
                return 1
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85:
                return 2  // U+0085, a line break for some readers
            case 0xE2
            where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                return 3  // U+2028 and U+2029, line breaks for JavaScript
            default:
                return 0
            }
        case .jsonEncoder:
            switch byte {
            case 0x22, 0x5C, 0x2F, 0x00..<0x20: return 1
            default: return 0
            }
        }
    }

    /// Appends the escape of one character (`/` only comes here in the ``Style/jsonEncoder`` style).
    private static func appendEscape(
        of sequence: Slice<UnsafeBufferPointer<UInt8>>,
        into output: inout [UInt8],
        style: Style
    ) {
        let scalar: UInt32
        switch sequence.count {
        case 1:
            switch sequence[sequence.startIndex] {
            case 0x22: return output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: return output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: return output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: return output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: return output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x2F: return output.append(contentsOf: [0x5C, 0x2F])
            case 0x08 where style == .jsonEncoder: return output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C where style == .jsonEncoder: return output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case let byte: scalar = UInt32(byte)
            }
        case 2: scalar = 0x85
        default: scalar = sequence[sequence.startIndex + 2] == 0xA8 ? 0x2028 : 0x2029
        }
        output.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
        }
    }
}
