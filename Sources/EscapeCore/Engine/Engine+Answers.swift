// SPDX-License-Identifier: Apache-2.0
extension Engine {
    /// The form in which typed answers are compared: no case, no diacritics, no width, no
    /// punctuation, and single spaces between words (see `AnswerFolding`).
    ///
    /// - Parameter text: What the player typed, or an accepted answer.
    /// - Returns: The comparable form.
    public static func normalizedAnswer(_ text: String) -> String {
        asciiNormalizedAnswer(text) ?? unicodeNormalizedAnswer(text)
    }

    /// ``normalizedAnswer(_:)`` of a text of ASCII characters only, or `nil` for any other text.
    ///
    /// Byte by byte, what the Unicode path gives, without going through Unicode's tables: most
    /// answers, typed and accepted, are ASCII, and every activation of a field compares them.
    package static func asciiNormalizedAnswer(_ text: String) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var separated = false
        for byte in text.utf8 {
            switch byte {
            case 0x80...:
                return nil
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                if separated, !output.isEmpty { output.append(UInt8(ascii: " ")) }
                separated = false
                output.append(byte | 0x20)  // lowercase; digits and lowercase letters have the bit already
            default:
                // Blanks and punctuation end a word; symbols (`$+<=>^`|~`) and control characters are
                // dropped without ending it, as Unicode's categories say.
                if asciiSeparators[Int(byte)] { separated = true }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Which ASCII characters end a word: Unicode's white space (tab to carriage return, space) and
    /// punctuation (`!"#%&'()*,-./:;?@[\]_{}`).
    private static let asciiSeparators: [Bool] = (0..<128).map { value in
        (0x09...0x0D).contains(value) || value == 0x20 || ##"!"#%&'()*,-./:;?@[\]_{}"##.utf8.contains(UInt8(value))
    }

    /// ``normalizedAnswer(_:)`` through Unicode's tables, for any text.
    package static func unicodeNormalizedAnswer(_ text: String) -> String {
        let folded = AnswerFolding.fold(text)
        var words: [String] = []
        var word = ""
        for character in folded {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if character.isWhitespace || character.isPunctuation, !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }
}
