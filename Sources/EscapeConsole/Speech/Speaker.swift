// SPDX-License-Identifier: Apache-2.0
/// Something that says text aloud, for players who want speech without a screen reader.
///
/// It must not block: the game goes on while it speaks. What it says is ordered by priority, as
/// Speech Dispatcher's SSIP orders messages: see ``SpeechPriority``.
package protocol Speaker: AnyObject {
    /// Starts saying `text` and returns at once.
    ///
    /// - Parameters:
    ///   - text: What to say; may hold several lines.
    ///   - language: The language of the text (an ISO code such as `en`), when known.
    ///   - priority: How it goes with what is being said and what waits.
    func speak(_ text: String, language: String?, priority: SpeechPriority)

    /// Stops what is being said and drops what waits: the player pressed a key.
    func stop()
}

/// SSIP's priorities, as the game uses them.
package enum SpeechPriority: Sendable, Hashable, CaseIterable {
    /// Cuts whatever is being said and is never cut by another message: the last ten seconds.
    case important
    /// Waits for the messages before it and is never cut by another one: answers, screens, notices.
    /// A key the player presses stops them all (``Speaker/stop()``).
    case message
    /// Cut by any newer message or text.
    case text
    /// Dropped when anything else is being said.
    case notification
    /// Like a notification, for progress.
    case progress
}
