// SPDX-License-Identifier: Apache-2.0

/// Characters that a text must not carry to a terminal, a Braille display or a voice.
///
/// C0 controls (ESC, BEL, ...), DEL and C1 controls (CSI, OSC, ...) are commands to a terminal: an
/// adventure text carrying them could clear the screen, retitle the window or write the clipboard
/// (OSC 52). Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) make
/// text read in another order than it is stored. The adventure validator refuses them in every text;
/// every front end that writes to a terminal passes what it writes through ``sanitized(_:)``, for texts
/// that did not come through the validator (a game served by another build, a crafted event).
public enum TerminalSafety {
    /// Whether a text may not carry `scalar`.
    @inlinable
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// A short name for a refused character, for messages.
    public static func name(of scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00: "NUL"
        case 0x07: "BEL"
        case 0x08: "backspace"
        case 0x09: "tab"
        case 0x0A: "line feed"
        case 0x0D: "carriage return"
        case 0x1B: "ESC"
        case 0x7F: "DEL"
        case 0x9B: "CSI"
        case 0x9D: "OSC"
        case 0x80...0x9F: "a C1 control"
        case 0x202A...0x202E: "a bidirectional embedding or override"
        case 0x2066...0x2069: "a bidirectional isolate"
        default: "a C0 control"
        }
    }

    /// `text` as it may be written to a terminal.
    ///
    /// Tabs and line breaks become spaces, every other refused character is dropped. Text without any
    /// is returned as it is, after one pass over its UTF-8 bytes.
    public static func sanitized(_ text: String) -> String {
        guard needsSanitizing(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isRefused(scalar) {
                scalars.append(scalar)
            } else if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                scalars.append(" ")
            }
        }
        return String(scalars)
    }

    /// Whether `text` has a refused character, judged from its UTF-8 bytes: a C0 control or DEL is one
    /// byte, a C1 control `C2 80`-`C2 9F`, the bidirectional controls `E2 80 AA`-`E2 80 AE` and
    /// `E2 81 A6`-`E2 81 A9`.
    static func needsSanitizing(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                if byte == 0xE2, index + 2 < bytes.count {
                    let second = bytes[index + 1]
                    let third = bytes[index + 2]
                    if second == 0x80 && (0xAA...0xAE).contains(third) { return true }
                    if second == 0x81 && (0xA6...0xA9).contains(third) { return true }
                }
                index += 1
            }
            return false
        }
    }
}
