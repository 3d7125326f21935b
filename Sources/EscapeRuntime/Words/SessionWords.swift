// SPDX-License-Identifier: Apache-2.0
public import EscapeCore

/// The runtime's own words in one language: what a session, a shared game (`efb serve`, and a console or
/// display attached to one) and the save say of themselves, beside the core's `EngineWords`.
///
/// The core says what happened in the game; these sentences belong to the layers that frame, share and
/// save it, so they live with that code. They follow `EngineWords`'s rules: one table per language
/// (a switch, so each language has every key), placeholders in braces filled in one pass, the language
/// chosen by the adventure's locale, English for a locale the engine does not speak.
public struct SessionWords: WordTable, Sendable, Hashable {
    /// The language of the words.
    public var language: EngineWords.Language

    /// The words of `language`.
    public init(_ language: EngineWords.Language) {
        self.language = language
    }

    /// The runtime's words in English.
    public static let english = SessionWords(.english)

    /// The sentence of `key`, placeholders unfilled.
    public func template(_ key: Key) -> String {
        switch language {
        case .english: Self.english(key)
        case .french: FrenchTypography.spaced(Self.french(key))
        }
    }
}

extension SessionWords {
    /// Every sentence of the runtime; each language has one for every key.
    ///
    /// The placeholders each sentence takes are in its summary.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        // MARK: Errors of the session

        /// A line over the limit: `{length}` and `{limit}`, in bytes.
        case errorLineTooLong
        /// `ifGen` behind the state: `{generation}` and `{expected}`.
        case errorStale
        /// `hello` with another protocol: the engine's `{version}` and the client's `{requested}`.
        case errorUnsupportedProtocol
        /// Progress not written: `{location}` and the save's `{error}`.
        case errorSaveFailed
        /// A `cancel` whose `{target}` names no pending real-clock wait.
        case errorNoWaitToCancel
        /// A batch holding a `wait` on the real clock.
        case errorBatchWaitsOnRealClock
        /// A batch whose waits add up past the limit: the `{total}` and the `{limit}`, in milliseconds.
        case errorBatchTooMuchTime
        /// A batch that would send more events than the `{limit}`.
        case errorTooManyEvents

        // MARK: Errors of a shared game (efb serve) and of an attached front end

        /// An observer's command that would change the game: `{command}`.
        case errorReadOnly
        /// Asking to play while another client controls the game.
        case errorControlled
        /// A client's unread output dropped: `{limit}` bytes; the whole state follows.
        case errorOverflow
        /// A connection past the limit of `{limit}` clients.
        case errorTooManyClients
        /// A connection closed to make room for a newer one, at the limit of `{limit}` clients: it never
        /// sent a line.
        case errorMadeRoom
        /// A command `efb web` never takes from its page (it never ends the game, changes the session or
        /// travels in time).
        case errorNotTaken
        /// What an attached console or display says of a gesture refused while another client plays.
        case attachedReadOnly

        // MARK: Save problems in the opening

        /// Another game holds the save: `{location}`.
        case errorSaveLocked
        /// A save from a newer engine: `{location}` and its `{format}`.
        case errorSaveNewerFormat
        /// A save the system cannot read: `{location}` and the `{reason}`.
        case errorSaveUnreadableKept
        /// A save whose lock file is a link or a folder, so it is never written: `{location}`, `{reason}`.
        case errorSaveUnusable
        /// A damaged save, with no file to keep aside: `{location}` and the `{reason}`.
        case errorSaveUnreadable
        /// A damaged save another game holds: `{location}` and the `{reason}`.
        case errorSaveUnreadableHeld
        /// A damaged save kept aside: `{location}`, the `{reason}` and the file it is kept as, `{aside}`.
        case errorSaveUnreadableMovedAside
        /// A damaged save that could not be moved aside: `{location}`, the `{reason}` and the `{problem}`.
        case errorSaveUnreadableNotMovedAside
    }
}
