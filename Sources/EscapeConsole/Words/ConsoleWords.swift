// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// The console's own words in one language: roles, counts, verdicts, help, errors and prompts.
///
/// The story and the engine's messages come in the adventure's language already; these are the words
/// the console adds around them, so they follow the same language: the adventure's locale, as `hello`
/// says it. One table per language, each an exhaustive switch, as ``EngineWords`` keeps the engine's;
/// a language the console does not speak gets English.
///
/// Sentences hold placeholders in braces (`{count}`, `{word}`), filled in by ``callAsFunction(_:_:)``.
package struct ConsoleWords: WordTable, Sendable, Hashable {
    /// A language the console speaks.
    package enum Language: String, Sendable, Hashable, CaseIterable {
        /// English, the fallback.
        case english = "en"
        /// French.
        case french = "fr"
    }

    /// The language of the words.
    package var language: Language

    /// The words of `language`.
    package init(_ language: Language) {
        self.language = language
    }

    /// The words for a BCP 47 or POSIX locale (`fr`, `fr-CA`, `fr_FR.UTF-8`): its language's, or English.
    package init(locale: String?) {
        self.init(Language(rawValue: LocaleLanguage.code(of: locale ?? "")) ?? .english)
    }

    /// The sentence of `key`, placeholders unfilled.
    package func template(_ key: Key) -> String {
        switch language {
        case .english: Self.english(key)
        case .french: FrenchTypography.spaced(Self.french(key))
        }
    }

    /// The sentence for `count` things: `one` when the language says that count in the singular
    /// (English: 1; French: 0 and 1), `many` otherwise; `{count}` is filled, with the other values.
    ///
    /// - Parameters:
    ///   - count: How many.
    ///   - one: The singular sentence.
    ///   - many: The plural sentence.
    ///   - values: The other placeholders.
    /// - Returns: The sentence.
    package func counting(
        _ count: Int,
        one: Key,
        many: Key,
        _ values: KeyValuePairs<String, String> = [:]
    ) -> String {
        let singular =
            switch language {
            case .english: count == 1
            case .french: count == 0 || count == 1
            }
        var all = Dictionary(values.map { ($0.key, $0.value) }) { first, _ in first }
        all["count"] = "\(count)"
        return EngineWords.fill(template(singular ? one : many), all)
    }

    /// A duration as the language says it, rounded up to the second: `1 minute and 30 seconds`.
    ///
    /// - Parameter milliseconds: The duration.
    /// - Returns: The words.
    package func duration(milliseconds: Int64) -> String {
        let seconds = Int((max(0, milliseconds) + 999) / 1000)
        let minutesPart = counting(seconds / 60, one: .minutesOne, many: .minutesMany)
        let secondsPart = counting(seconds % 60, one: .secondsOne, many: .secondsMany)
        if seconds < 60 { return secondsPart }
        if seconds % 60 == 0 { return minutesPart }
        return self(.minutesAndSeconds, ["minutes": minutesPart, "seconds": secondsPart])
    }

    /// Names joined as a list: `a, b or c`, with the language's word for "or".
    package func alternatives(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        guard names.count > 1 else { return last }
        return names.dropLast().joined(separator: ", ") + " " + self(.or) + " " + last
    }
}
