// SPDX-License-Identifier: Apache-2.0
/// Something that says text aloud, for players who want speech without a screen reader.
///
/// It must not block: the game goes on while it speaks, and what it says next may cut what it says now.
public protocol Speaker: AnyObject {
    /// Starts saying `text` and returns at once.
    ///
    /// - Parameters:
    ///   - text: What to say; may hold several lines.
    ///   - language: The language of the text (an ISO code such as `en`), when known.
    func speak(_ text: String, language: String?)
}
