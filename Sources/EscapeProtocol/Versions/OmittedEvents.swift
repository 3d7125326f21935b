// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// The types of events a client may do without (`hello`'s `omit`).
///
/// What only a player that hears, or reads verdicts, needs, and the game's own events, which a bot
/// that reads `observe`'s text does without. The protocol's (`done`, `error`, `hello`, `bye`, ...)
/// always come. A `sound` is a cue or a chapter's ambience; a `focus` omitted is also the focus that
/// says a changed element in protocol 1.0.
package struct OmittedEvents: Sendable, Hashable {
    /// The event types a client may omit, each a bit of the set, in the order `hello`'s `omit` lists them.
    package static let omittable: [EventType] = [
        .sound, .result, .announce, .screen, .focus, .elementChanged, .rotor, .actions, .timer, .progress, .idle,
    ]

    /// One bit for each type of ``omittable``, by its position there.
    private var bits: UInt16 = 0

    /// Omits nothing.
    package init() {}

    /// The types named in `names` that may be omitted; the others are ignored.
    package init(_ names: [String]) {
        for (index, type) in Self.omittable.enumerated() where names.contains(type.wireName) {
            bits |= 1 << index
        }
    }

    /// Whether nothing is omitted.
    package var isEmpty: Bool { bits == 0 }

    /// The wire names of the types in the set, in the order of ``omittable``.
    package var names: [String] {
        Self.omittable.indices.filter { bits & (1 << $0) != 0 }.map { Self.omittable[$0].wireName }
    }

    /// Whether `event` is of a type in the set.
    package func contains(_ event: borrowing Event) -> Bool {
        guard let index = Self.omittable.firstIndex(of: event.type) else { return false }
        return bits & (1 << index) != 0
    }
}
