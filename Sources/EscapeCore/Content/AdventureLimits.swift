// SPDX-License-Identifier: Apache-2.0
/// How big an adventure may be, so a hostile or broken file cannot make the engine or a Braille
/// display choke; each limit is documented in Protocol/README.md.
public enum AdventureLimits {
    /// Chapters in an adventure.
    public static let chapters = 50
    /// Levels in a chapter.
    public static let levelsPerChapter = 50
    /// Pages of the introduction.
    public static let introPages = 20
    /// Hints of a level.
    public static let hints = 10
    /// Answers of a closed question, clues of a rotor level, objects of a custom-action level.
    public static let choices = 20
    /// Codes of a rotor, accepted answers of an open question, actions of an object.
    public static let items = 100
    /// Characters in any one text (a story, a label, a hint).
    public static let textLength = 4000
    /// Dials of one lock.
    public static let dials = 8
    /// Seconds a timed level may last (and at least 10).
    public static let timeLimit = 3600
}
