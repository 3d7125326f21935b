// SPDX-License-Identifier: Apache-2.0
/// French spacing, as French printers set it: the space before `:` and inside « » is a no-break space
/// (U+00A0), the space before `;`, `?` and `!` a narrow no-break space (U+202F).
///
/// A line, a Braille window or a line of the web page then never starts with the punctuation that
/// belongs to the word before it. Every French text the game writes goes through ``spaced(_:)`` once,
/// where it is made: the engine's, the runtime's and the console's word tables, the Braille front end's
/// words and the adventure file's texts (`EscapeContent`'s loader, for a French adventure). Authors
/// and translators type ordinary spaces.
public enum FrenchTypography {
    /// The space before `:` and inside « ».
    public static let noBreakSpace: Unicode.Scalar = "\u{00A0}"
    /// The space before `;`, `?` and `!`.
    public static let narrowNoBreakSpace: Unicode.Scalar = "\u{202F}"

    /// `text` with each ordinary space before `: ; ? ! »` and after `«` made a no-break space.
    ///
    /// Only a space (U+0020) is changed; a tab, a line break or a no-break space already there is left
    /// as it is, and so is punctuation without a space before it (`12:30`, `?` alone).
    ///
    /// - Parameter text: A French text.
    /// - Returns: The text with French spacing.
    public static func spaced(_ text: String) -> String {
        guard needsSpacing(text.utf8) else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for index in scalars.indices {
            let scalar = scalars[index]
            guard scalar == " " else {
                result.append(scalar)
                continue
            }
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            let previous = index > 0 ? scalars[index - 1] : nil
            switch next {
            case ";", "?", "!": result.append(narrowNoBreakSpace)
            case ":", "»": result.append(noBreakSpace)
            default: result.append(previous == "«" ? noBreakSpace : scalar)
            }
        }
        return String(result)
    }

    /// Whether `bytes` hold a space that ``spaced(_:)`` changes: one scan, no allocation.
    private static func needsSpacing(_ bytes: String.UTF8View) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            // `:` `;` `?` `!` after a space, `»` (C2 BB) after a space, a space after `«` (C2 AB).
            if previous == 0x20, byte == 0x3A || byte == 0x3B || byte == 0x3F || byte == 0x21 { return true }
            if beforePrevious == 0x20, previous == 0xC2, byte == 0xBB { return true }
            if beforePrevious == 0xC2, previous == 0xAB, byte == 0x20 { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
