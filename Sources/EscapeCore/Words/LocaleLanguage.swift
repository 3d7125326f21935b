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
}
