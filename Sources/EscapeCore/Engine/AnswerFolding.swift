// SPDX-License-Identifier: Apache-2.0
/// The folding typed answers go through before they are compared: case, diacritics and width
/// are ignored.
///
/// It gives what Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive,
/// .widthInsensitive], locale: nil)` gives for the text players type in the game's languages,
/// without Foundation, so the core stays free of it:
///
/// - fullwidth ASCII forms (U+FF01-FF5E) become ASCII;
/// - letters are lowercased, and the few that Unicode case folding spells otherwise follow it
///   (`ß` is `ss`, `ſ` is `s`, `µ` is `μ`, `ŉ` is `ʼn`, the `ﬀ`-`ﬆ` ligatures are their letters);
/// - the letters of Latin-1 Supplement and Latin Extended-A that carry a diacritic lose it (`É`
///   is `e`, `ł` stays `ł`: it has no canonical decomposition), and combining diacritical marks
///   (U+0300-036F) are dropped, so text typed decomposed (NFD) folds the same as composed text.
///
/// Letters with their own identity (`æ`, `œ`, `ø`, `ð`, `þ`, `ł`, `đ`, `ħ`, ...) are only
/// lowercased, as Foundation leaves them. Other scripts are only lowercased: their diacritics and
/// their halfwidth forms are kept.
package enum AnswerFolding {
    /// Folds `text` for comparison.
    ///
    /// - Parameter text: What the player typed, or an accepted answer.
    /// - Returns: The folded text; two texts that differ only in case, diacritics or width fold the
    ///   same.
    package static func fold(_ text: String) -> String {
        var narrow = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            narrow.append(narrowed(scalar))
        }
        var folded = String.UnicodeScalarView()
        // Lowercasing comes before the table, which holds lowercase letters only; it may itself
        // leave a combining mark behind (`İ` lowercases to `i` and U+0307), which is dropped.
        for scalar in String(narrow).lowercased().unicodeScalars where !isCombiningMark(scalar) {
            if let replacement = replacements[scalar] {
                folded.append(contentsOf: replacement.unicodeScalars)
            } else {
                folded.append(scalar)
            }
        }
        return String(folded)
    }

    /// The ASCII character a fullwidth form (U+FF01-FF5E) stands for, or `scalar` itself.
    private static func narrowed(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard (0xFF01...0xFF5E).contains(scalar.value) else { return scalar }
        return Unicode.Scalar(UInt8(scalar.value - 0xFEE0))
    }

    /// Whether `scalar` is one of the combining diacritical marks (U+0300-036F).
    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        (0x300...0x36F).contains(scalar.value)
    }

    /// What a lowercase letter folds to, for the letters that fold to something else than themselves.
    private static let replacements: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = [
            "\u{DF}": "ss",  // ß
            "\u{17F}": "s",  // ſ, long s
            "\u{B5}": "\u{3BC}",  // µ, micro sign: Greek small mu
            "\u{149}": "\u{2BC}n",  // ŉ: modifier apostrophe, n
            "\u{FB00}": "ff",
            "\u{FB01}": "fi",
            "\u{FB02}": "fl",
            "\u{FB03}": "ffi",
            "\u{FB04}": "ffl",
            "\u{FB05}": "st",
            "\u{FB06}": "st",
        ]
        for (base, letters) in baseLetters {
            for letter in letters.unicodeScalars {
                table[letter] = base
            }
        }
        return table
    }()

    /// The lowercase letters of Latin-1 Supplement and Latin Extended-A whose canonical
    /// decomposition is a base letter and diacritics, by base letter.
    private static let baseLetters: [(String, String)] = [
        ("a", "àáâãäåāăą"),
        ("c", "çćĉċč"),
        ("d", "ď"),
        ("e", "èéêëēĕėęě"),
        ("g", "ĝğġģ"),
        ("h", "ĥ"),
        ("i", "ìíîïĩīĭį"),
        ("j", "ĵ"),
        ("k", "ķ"),
        ("l", "ĺļľ"),
        ("n", "ñńņň"),
        ("o", "òóôõöōŏő"),
        ("r", "ŕŗř"),
        ("s", "śŝşš"),
        ("t", "ţť"),
        ("u", "ùúûüũūŭůűų"),
        ("w", "ŵ"),
        ("y", "ýÿŷ"),
        ("z", "źżž"),
    ]
}
