import Foundation

extension Engine {
    /// The form in which typed answers are compared: no case, no diacritics, no punctuation, and
    /// single spaces between words.
    ///
    /// - Parameter text: What the player typed, or an accepted answer.
    /// - Returns: The comparable form.
    public static func normalizedAnswer(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
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
