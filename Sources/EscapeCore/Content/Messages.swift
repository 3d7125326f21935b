// SPDX-License-Identifier: Apache-2.0
/// The engine's own sentences in one locale, kept with the adventure so a translation is data.
///
/// Sentences may hold placeholders in braces (`{n}`, `{count}`, `{text}`, `{title}`), filled in by
/// ``Messages/format(_:_:)``.
public struct Messages: Sendable, Hashable, Decodable {
    /// The intro's button.
    public var continueButton: String
    /// The chapter page's button.
    public var beginButton: String
    /// The end screen's button.
    public var replayButton: String
    /// The menu's button that closes it.
    public var backButton: String
    /// The assistive screen's button.
    public var resumeButton: String
    /// Magic tap on an intro page.
    public var continueGesture: String
    /// Escape on an intro page.
    public var skipIntroGesture: String
    /// Magic tap on a chapter page.
    public var beginGesture: String
    /// Magic tap on a level.
    public var hintGesture: String
    /// Escape on a chapter or level.
    public var menuGesture: String
    /// Escape in the menu.
    public var backGesture: String
    /// Magic tap on the end screen.
    public var replayGesture: String
    /// The menu's title.
    public var menuTitle: String
    /// A chapter's entry in the menu: `{n}` and `{title}`.
    public var menuChapter: String
    /// A level's entry in the menu: `{chapter}`, `{n}` and `{title}`.
    public var menuLevel: String
    /// Status word of a solved level.
    public var statusComplete: String
    /// Status word of the level being played.
    public var statusCurrent: String
    /// Status word of a level not reached yet.
    public var statusLocked: String
    /// Status word of a level that is open but not solved (reached before a replay of an earlier one).
    public var statusOpen: String
    /// A chapter page's heading: `{n}` and `{title}`.
    public var chapterHeading: String
    /// Asked for a hint too early.
    public var noHintYet: String
    /// Asked for a hint where there are none.
    public var noHints: String
    /// A hint: `{n}`, `{count}`, `{text}`.
    public var hint: String
    /// Said when a new hint unlocks.
    public var hintReady: String
    /// Submitting an empty text field.
    public var typeFirst: String
    /// Activating the door before choosing a code.
    public var chooseCodeFirst: String
    /// Activating an object of a custom-action level: `{list}`.
    public var actionsAvailable: String
    /// Going to a locked level.
    public var levelLocked: String
    /// The assistive screen's heading.
    public var assistiveTitle: String
    /// The assistive screen's explanation.
    public var assistiveText: String
    /// Said when the player is back from the assistive screen.
    public var assistiveBack: String
    /// Said when a saved game resumes: `{title}`.
    public var welcomeBack: String
    /// Said when the game starts over.
    public var replayed: String
    /// Said when an activated element does nothing.
    public var nothingToActivate: String
    /// The `value` of an untouched custom-action object.
    public var noActionYet: String
    /// The `value` of an untouched custom-action object whose gender is feminine (« pas encore
    /// manipulée »).
    ///
    /// Required by adventures with such an object.
    public var noActionYetFeminine: String?
    /// Ends a chapter's teaching text when the front end named its keys.
    ///
    /// `{keys}` is the list. Optional, so adventure files without it still load; without it keys are
    /// not named.
    public var keysSentence: String?
    /// What each gesture is called in ``keysSentence``, by command name (`next`, `rotorItem`, ...), as the
    /// file gives it; the engine reads it by gesture, as ``Adventure/gestureWords``.
    public var gestureNames: [String: String]?
    /// Ends the adventure's closing text when the front end named its keys: `{keys}` lists them all.
    ///
    /// Optional: without it the closing text is the ending alone.
    public var allKeysSentence: String?
    /// One entry of the keys list: `{gesture}` and its `{key}` (default `{gesture}: {key}`).
    public var keyEntry: String?
    /// The magic tap of a dials level.
    ///
    /// Required by adventures with dials levels.
    public var tryGesture: String?
    /// Said after a hint heard again while the next one still sleeps: when it wakes, in minutes (`{n}`,
    /// from two on).
    ///
    /// Optional, as are the next two: without them a repeated hint is said alone.
    public var nextHintMinutes: String?
    /// When the next hint wakes, in seconds (`{n}`, from 2 to 119).
    public var nextHintSeconds: String?
    /// When the next hint wakes within a second.
    public var nextHintSoon: String?
    /// Time left on a timed level, in minutes (`{n}`).
    ///
    /// Required by adventures with timed levels, as are the next four.
    public var timeLeftMinutes: String?
    /// Time left when one minute remains.
    public var timeLeftOneMinute: String?
    /// Time left in seconds (`{n}`), in the last minute.
    public var timeLeftSeconds: String?
    /// One number of the last ten seconds' countdown (`{n}`).
    public var countdown: String?
    /// Said when time runs out and the level starts over.
    public var timeUp: String?

    /// Fills the placeholders of `template` with `values`.
    ///
    /// - Parameters:
    ///   - template: A sentence with `{name}` placeholders.
    ///   - values: The value of each placeholder by name.
    /// - Returns: The sentence with every known placeholder replaced, cut at
    ///   ``AdventureLimits/textLength`` code points.
    public static func format(_ template: String, _ values: KeyValuePairs<String, String>) -> String {
        // One pass over the template (a value is never read for placeholders), and never more than the
        // text limit in code points: a template repeating a long placeholder cannot blow a text up.
        let limit = AdventureLimits.textLength
        var result = String.UnicodeScalarView()
        var length = 0
        var rest = Substring(template)
        func append(_ text: some StringProtocol) {
            for scalar in text.unicodeScalars {
                guard length < limit else { return }
                result.append(scalar)
                length += 1
            }
        }
        while let open = rest.firstIndex(of: "{"), length < limit {
            append(rest[..<open])
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values.first(where: { $0.key == rest[afterOpen..<close] })?.value
            {
                append(value)
                rest = rest[rest.index(after: close)...]
            } else {
                append("{")
                rest = rest[afterOpen...]
            }
        }
        append(rest)
        return String(result)
    }
}
