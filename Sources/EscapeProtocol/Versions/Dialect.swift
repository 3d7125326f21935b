// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

/// A protocol version the engine speaks, and how game events are worded in it.
///
/// The engine makes its events in the newest version; each dialect says them as its version does,
/// leaving out what that version has no word for.
public enum Dialect: Sendable, Hashable, Comparable {
    /// Protocol 1.0: no `elementChanged`, `timer` or `idle`; a changed focused element is a second
    /// `focus`; time announcements are `feedback`; `gen` only on the events that always had it.
    case v10
    /// Protocol 1.1.
    case v11
    /// Protocol 1.2: 1.1, with the chapter's id on chapter and level screens and in `progress`.
    case v12
    /// Protocol 1.3: 1.2, with an adjustable element's `range` (the encoders write it from the minor
    /// number) and `adjust` to the first or last value.
    case v13

    /// The protocol versions the engine speaks, oldest first.
    package static let spokenVersions = [Dialect.v10, .v11, .v12, .v13].map(\.version)

    /// The dialect of an agreed version: the newest the engine speaks that is no newer.
    package init(_ version: ProtocolVersion) {
        self =
            version >= .v1_3 ? .v13 : version >= .v1_2 ? .v12 : version >= .v1_1 ? .v11 : .v10
    }

    /// The minor version number.
    package var minor: Int {
        switch self {
        case .v10: 0
        case .v11: 1
        case .v12: 2
        case .v13: 3
        }
    }

    /// The version spoken.
    package var version: ProtocolVersion { ProtocolVersion(major: 1, minor: minor) }

    /// Whether `adjust` goes to the first or last value too (1.3), not only one step.
    package var adjustsToEnds: Bool { self == .v13 }

    /// A decoded line as this version takes it: before 1.3 an `adjust` to the first or last value is a
    /// bad `direction`, refused as one, and a bad `direction` names only the steps.
    package func take(_ outcome: CommandDecoder.Outcome) -> CommandDecoder.Outcome {
        adjustsToEnds ? outcome : CommandDecoder.steppingOnly(outcome)
    }

    /// The capabilities of a `hello` in this version, from those of the newest.
    ///
    /// - Parameter capabilities: What the engine can do, in the newest version.
    /// - Returns: The capabilities without those this version has no word for, in the same order.
    package func shape(capabilities: [String]) -> [String] {
        capabilities.filter {
            switch $0 {
            case "chapterIds": self >= .v12
            case "ranges": self == .v13
            case "elementChanged", "idle", "timer": self != .v10
            default: true
            }
        }
    }

    /// A `hello` of a newer version as this version says it: its version, versions and capabilities.
    ///
    /// A `hello` in any version lists every version the engine speaks, whichever is spoken.
    package func shape(_ hello: ServerHello) -> ServerHello {
        var hello = hello
        hello.version = version
        hello.versions = Self.spokenVersions
        hello.capabilities = shape(capabilities: hello.capabilities)
        return hello
    }

    /// Where the player stands, as this version says it: each chapter's progress is protocol 1.2's.
    package func shape(_ summary: ProgressSummary) -> ProgressSummary {
        guard self < .v12 else { return summary }
        var summary = summary
        summary.chapterID = nil
        summary.chapters = []
        return summary
    }

    /// A game event as this protocol version says it, or `nil` when it has no word for it.
    ///
    /// - Parameters:
    ///   - event: The engine's event.
    ///   - focus: The focus after the command.
    ///   - focusFollows: Whether the command's effects move the focus after this event.
    /// - Returns: The event to send, or `nil` to send nothing.
    package func shape(_ event: GameEvent, focus: FocusState, focusFollows: Bool) -> GameEvent? {
        // 1.0 told only of the focused element, by sending its focus again.
        shape(event) { $0.id == focus.element.id && !focusFollows ? focus : nil }
    }

    /// A game event as this protocol version says it, or `nil` when it has no word for it.
    ///
    /// - Parameters:
    ///   - event: The engine's event, or that of a newer version.
    ///   - refocus: 1.0's word for a changed element: the `focus` sent again, or `nil` for nothing.
    /// - Returns: The event to send, or `nil` to send nothing.
    package func shape(_ event: GameEvent, refocus: (Element) -> FocusState?) -> GameEvent? {
        if self < .v12, case .screen(var screen) = event, screen.chapterID != nil {
            screen.chapterID = nil
            return shape(.screen(screen), refocus: refocus)
        }
        guard self == .v10 else { return event }
        switch event {
        case .elementChanged(let element):
            return refocus(element).map(GameEvent.focus)
        case .timer:
            return nil
        case .announce(var announcement):
            if announcement.category == .time { announcement.category = .feedback }
            return .announce(announcement)
        case .screen(var screen):
            screen.hints = nil
            return .screen(screen)
        case .focus, .rotor, .actions, .result, .sound, .ended, .ambient:
            return event
        }
    }

    /// An element that changed, as this version says it and as protocol 1.0 would.
    ///
    /// `efb serve` words the events of a session speaking a later version anew for each client, and
    /// 1.0's word for a changed element depends on the focus after the command, which the events alone
    /// do not tell: the session says it beside the event.
    ///
    /// - Parameters:
    ///   - element: The element as it is now.
    ///   - focus: The focus after the command.
    ///   - focusFollows: Whether the command's effects move the focus after this change.
    /// - Returns: The event to send (`nil`: nothing), and what 1.0 says differently when this is a
    ///   later version.
    package func shape(
        changed element: Element,
        focus: FocusState,
        focusFollows: Bool
    ) -> (event: GameEvent?, in10: Version10Wording) {
        let changed = GameEvent.elementChanged(element)
        let event = shape(changed, focus: focus, focusFollows: focusFollows)
        guard self != .v10,
            case .focus(let focus) = Dialect.v10.shape(changed, focus: focus, focusFollows: focusFollows)
        else { return (event, Version10Wording()) }
        return (event, Version10Wording(focus: focus))
    }
}
