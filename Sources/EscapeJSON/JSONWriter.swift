/// Writes JSON values compactly, with object keys sorted, so equal values always give equal bytes.
///
/// Beyond what JSON requires it escapes U+2028, U+2029 and U+0085, which some line splitters treat
/// as line ends, so every value stays on one line.
public enum JSONWriter {
    /// Appends the JSON text of `value` to `output`.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - output: Receives UTF-8 bytes.
    public static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number):
            output.append(contentsOf: String(number).utf8)
        case .double(let number):
            output.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .string(let text):
            writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (offset, key) in members.keys.sorted().enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                if let member = members[key] { write(member, into: &output) }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The JSON text of `value` as a string.
    public static func string(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        write(value, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole; only the rare escape is written
            // byte by byte.
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let length: Int
                switch byte {
                case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x00..<0x20, 0x7F:
                    length = 1
                case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85:
                    length = 2  // U+0085, a line break for some readers
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    length = 3  // U+2028 and U+2029, line breaks for JavaScript
                default:
                    index += 1
                    continue
                }
                output.append(contentsOf: bytes[start..<index])
                appendEscape(of: bytes[index..<(index + length)], into: &output)
                index += length
                start = index
            }
            output.append(contentsOf: bytes[start..<bytes.count])
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of sequence: Slice<UnsafeBufferPointer<UInt8>>, into output: inout [UInt8]) {
        let scalar: UInt32
        switch sequence.count {
        case 1:
            switch sequence[sequence.startIndex] {
            case 0x22: return output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: return output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: return output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: return output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: return output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
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
