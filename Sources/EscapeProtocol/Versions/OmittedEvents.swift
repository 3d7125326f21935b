// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// The types of events a client may do without (`hello`'s `omit`).
///
/// What only a player that hears, or reads verdicts, needs, and the game's own events, which a bot
/// that reads `observe`'s text does without. The protocol's (`done`, `error`, `hello`, `bye`, ...)
/// always come.
package struct OmittedEvents: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16

    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The types named in `names` that may be omitted; the others are ignored.
    package init(_ names: [String]) {
        self.init(rawValue: 0)
        for (index, name) in Self.names.enumerated() where names.contains(name) {
            insert(OmittedEvents(rawValue: 1 << index))
        }
    }

    /// `sound`: the cues and the chapters' ambiences (both `sound` on the wire).
    package static let sound = OmittedEvents(rawValue: 1 << 0)
    /// `result`: the verdicts on answers (what follows them, an announcement and the next screen, still comes).
    package static let result = OmittedEvents(rawValue: 1 << 1)
    /// `announce`.
    package static let announce = OmittedEvents(rawValue: 1 << 2)
    /// `screen`.
    package static let screen = OmittedEvents(rawValue: 1 << 3)
    /// `focus`, and a focus that says a changed element in protocol 1.0.
    package static let focus = OmittedEvents(rawValue: 1 << 4)
    /// `elementChanged`.
    package static let elementChanged = OmittedEvents(rawValue: 1 << 5)
    /// `rotor`.
    package static let rotor = OmittedEvents(rawValue: 1 << 6)
    /// `actions`.
    package static let actions = OmittedEvents(rawValue: 1 << 7)
    /// `timer`.
    package static let timer = OmittedEvents(rawValue: 1 << 8)
    /// `progress`.
    package static let progress = OmittedEvents(rawValue: 1 << 9)
    /// `idle`.
    package static let idle = OmittedEvents(rawValue: 1 << 10)

    /// The wire names, in the order of the bits.
    package static let names = [
        "sound", "result", "announce", "screen", "focus", "elementChanged", "rotor", "actions", "timer", "progress",
        "idle",
    ]

    /// The wire names of the types in the set, in the order of the bits.
    package var names: [String] {
        Self.names.indices.filter { contains(OmittedEvents(rawValue: 1 << $0)) }.map { Self.names[$0] }
    }

    /// Whether `event` is of a type in the set.
    package func contains(_ event: borrowing Event) -> Bool {
        switch event {
        case .game(.sound), .game(.ambient): contains(.sound)
        case .game(.result): contains(.result)
        case .game(.announce): contains(.announce)
        case .game(.screen): contains(.screen)
        case .game(.focus): contains(.focus)
        case .game(.elementChanged): contains(.elementChanged)
        case .game(.rotor): contains(.rotor)
        case .game(.actions): contains(.actions)
        case .game(.timer): contains(.timer)
        case .progress: contains(.progress)
        case .idle: contains(.idle)
        default: false
        }
    }
}
