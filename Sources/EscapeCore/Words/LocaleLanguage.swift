// SPDX-License-Identifier: Apache-2.0
/// How every part of the game reads a locale name: by its language alone.
///
/// The adventure file, the engine's and the console's words, the Braille key descriptions and
/// contracted table, and the web page's `lang` all pick by the language this gives, so a locale means
/// the same language everywhere.
public enum LocaleLanguage {
    /// The language of a BCP 47 tag or a POSIX locale name (`fr`, `fr-CA`, `fr_FR.UTF-8`,
    /// `fr_FR@euro`): its leading ASCII letters, lowercased (`fr`); empty when it starts with none.
    public static func code(of locale: String) -> String {
        String(locale.prefix { $0.isASCII && $0.isLetter }).lowercased()
    }

    /// The locale the process environment asks for, read as POSIX does for messages: the first of
    /// `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty (`LC_ALL=` is as good as unset).
    ///
    /// Every part of the program that reads the environment's language reads it here: the adventure
    /// played, the messages, the Braille table and the crash line agree.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The locale name, or `nil` when none of the three is set.
    public static func fromEnvironment(_ environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return nil
    }

    /// Whether `locale` is French (`fr`, `fr_CA.UTF-8`, ...); `nil` reads as not.
    public static func isFrench(_ locale: String?) -> Bool {
        locale.map { code(of: $0) == "fr" } ?? false
    }
}
