// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// What protocol 1.0 says differently about an event of a later version, where the events alone do
/// not tell: it depends on the focus after the command and on the rest of the command's effects.
@usableFromInline
package struct Version10Wording: Sendable, Hashable {
    /// For an `elementChanged`: the `focus` 1.0 sends instead (the focused element changed and the
    /// focus stays), or `nil` when 1.0 says nothing of it.
    package var focus: FocusState? {
        get { storage?.focus }
        set { storage = Storage.make(focus: newValue, validActionsAfter: validActionsAfter) }
    }
    /// The `validActions` 1.0 sends after the event, the last of a command's: 1.0 sent a `focus` for a
    /// changed element where later versions sent none, and valid actions follow every `focus`.
    package var validActionsAfter: Event? {
        get { storage?.validActionsAfter }
        set { storage = Storage.make(focus: focus, validActionsAfter: newValue) }
    }
    /// Both, out of line: almost every event has neither, and every event carries a wording, so a
    /// stamped event stays small to make and to copy.
    private var storage: Storage?

    /// Creates a wording that says nothing more than the event: what almost every event has, made
    /// without passing two empty optionals of large types around.
    @usableFromInline
    package init() {
        storage = nil
    }

    /// Creates a wording.
    package init(focus: FocusState?, validActionsAfter: Event? = nil) {
        storage = Storage.make(focus: focus, validActionsAfter: validActionsAfter)
    }

    @usableFromInline
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.focus == rhs.focus && lhs.validActionsAfter == rhs.validActionsAfter
    }

    @usableFromInline
    package func hash(into hasher: inout Hasher) {
        hasher.combine(focus)
        hasher.combine(validActionsAfter)
    }

    /// The two values, never changed once made.
    private final class Storage: Sendable {
        let focus: FocusState?
        let validActionsAfter: Event?

        private init(focus: FocusState?, validActionsAfter: Event?) {
            self.focus = focus
            self.validActionsAfter = validActionsAfter
        }

        /// Storage for the two, or `nil` when both are `nil`.
        static func make(focus: FocusState?, validActionsAfter: Event?) -> Storage? {
            focus == nil && validActionsAfter == nil ? nil : Storage(focus: focus, validActionsAfter: validActionsAfter)
        }
    }
}
