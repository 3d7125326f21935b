extension Engine {
    /// The form in which typed answers are compared: no case, no diacritics, no width, no
    /// punctuation, and single spaces between words (see `AnswerFolding`).
    ///
    /// - Parameter text: What the player typed, or an accepted answer.
    /// - Returns: The comparable form.
    public static func normalizedAnswer(_ text: String) -> String {
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
