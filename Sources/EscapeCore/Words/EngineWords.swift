// SPDX-License-Identifier: Apache-2.0
/// The engine's own words in one language: gesture labels, the core's refusals, decoding errors.
///
/// It holds the labels of the gestures the engine lists, the core's refusals, and the messages of
/// lines the decoder refuses and snapshots restore refuses. What the session, a shared game and the
/// save say of themselves is the runtime's (EscapeRuntime's `SessionWords`).
///
/// The sentences a player hears while playing are content (``Messages``, in each adventure file).
/// These are not: they name the engine's gestures and explain refusals, they come and go with the code
/// that says them, and their values (ids, numbers, versions) are the engine's. So they live here, one
/// table per language the engine speaks, chosen by the adventure's locale; a locale the engine does not
/// speak gets English. Machine `code`s and `field`s are never translated.
///
/// Sentences hold placeholders in braces (`{count}`, `{element}`), as ``Messages`` does, filled in by
/// ``callAsFunction(_:_:)``.
public struct EngineWords: WordTable, Sendable, Hashable {
    /// A language the engine speaks.
    public enum Language: String, Sendable, Hashable, CaseIterable {
        /// English, the fallback.
        case english = "en"
        /// French.
        case french = "fr"
    }

    /// The engine's words in English.
    public static let english = EngineWords(.english)

    /// The language of the words.
    public var language: Language

    /// The words of `language`.
    public init(_ language: Language) {
        self.language = language
    }

    /// The words for a BCP 47 or POSIX locale (`fr`, `fr-CA`, `fr_FR.UTF-8`): its language's, or English.
    public init(locale: String) {
        self.init(Language(rawValue: LocaleLanguage.code(of: locale)) ?? .english)
    }

    /// The sentence of `key`, placeholders unfilled.
    public func template(_ key: Key) -> String {
        switch language {
        case .english: Self.english(key)
        case .french: FrenchTypography.spaced(Self.french(key))
        }
    }

    /// A phrase in these words, the phrases it holds said in them too.
    public func text(_ phrase: Phrase) -> String {
        var values = phrase.values
        for (name, inner) in phrase.phrases { values[name] = text(inner) }
        return Self.fill(template(phrase.key), values)
    }

    /// The names of the placeholders of `template`, in order.
    public static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest.index(after: open)
            guard let close = rest[after...].firstIndex(of: "}") else { break }
            names.append(String(rest[after..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Fills placeholders in one pass, so a value that holds braces is never read as a placeholder.
    package static func fill(_ template: String, _ values: [String: String]) -> String {
        guard !values.isEmpty else { return template }
        return fill(template) { values[String($0)] }
    }

    /// Fills placeholders in one pass from a few named values, looked for in order: what a sentence
    /// said with its values at hand needs, without a dictionary made for each.
    package static func fill(_ template: String, _ values: KeyValuePairs<String, String>) -> String {
        guard !values.isEmpty else { return template }
        return fill(template) { name in values.first { $0.key == name }?.value }
    }

    /// Fills placeholders in one pass with what `value` gives for each name (`nil`: left as it is).
    private static func fill(_ template: String, value: (Substring) -> String?) -> String {
        // Braces are ASCII, so the UTF-8 view finds them without reading the text character by
        // character; a brace counts only when it is a character of its own, as it did when
        // characters were read (not when a combining accent or a joiner after it extends it).
        let utf8 = template.utf8
        func isBrace(at index: String.Index) -> Bool {
            let next = utf8.index(after: index)
            guard next < utf8.endIndex, utf8[next] >= 0x80 else { return true }
            let scalar = template.unicodeScalars[next]
            return
                !(scalar.properties.isGraphemeExtend || scalar.value == 0x200D
                || scalar.properties.generalCategory == .spacingMark)
        }
        var result = ""
        result.reserveCapacity(utf8.count + 32)
        var copied = utf8.startIndex
        var search = copied
        while let open = utf8[search...].firstIndex(of: UInt8(ascii: "{")) {
            let after = utf8.index(after: open)
            guard isBrace(at: open) else {
                search = after
                continue
            }
            var close = utf8[after...].firstIndex(of: UInt8(ascii: "}"))
            while let found = close, !isBrace(at: found) {
                close = utf8[utf8.index(after: found)...].firstIndex(of: UInt8(ascii: "}"))
            }
            guard let close, let value = value(template[after..<close]) else {
                search = after
                continue
            }
            result += template[copied..<open]
            result += value
            copied = utf8.index(after: close)
            search = copied
        }
        result += template[copied...]
        return result
    }
}

extension EngineWords {
    /// A sentence of the catalogue and the values of its placeholders, to be said in any language.
    public struct Phrase: Sendable, Hashable {
        /// Which sentence.
        public var key: Key
        /// The value of each placeholder by name.
        public var values: [String: String]
        /// The placeholders whose values are phrases too, said in the same language (`{found}` in
        /// "{field} must be {expected}, not {found}"); a name here wins over the same name in ``values``.
        public var phrases: [String: Phrase]

        /// Creates a phrase.
        ///
        /// - Parameters:
        ///   - key: Which sentence.
        ///   - values: The value of each placeholder by name.
        ///   - phrases: The placeholders filled by other phrases.
        public init(
            _ key: Key,
            _ values: KeyValuePairs<String, String> = [:],
            phrases: KeyValuePairs<String, Phrase> = [:]
        ) {
            self.key = key
            self.values = Dictionary(values.map { ($0.key, $0.value) }) { first, _ in first }
            self.phrases = Dictionary(phrases.map { ($0.key, $0.value) }) { first, _ in first }
        }
    }
}
