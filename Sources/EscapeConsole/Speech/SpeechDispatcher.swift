// SPDX-License-Identifier: Apache-2.0
#if Speech
internal import CSpeechd
#endif

/// Speech through Speech Dispatcher's client library, libspeechd (Debian's `libspeechd-dev`): one
/// connection for the whole game, opened once, its messages ordered by SSIP priorities.
///
/// A connection that cannot be opened, or that fails later, is told once, in one line, through
/// `report`, and the game plays on without speech. Built without the `Speech` trait, it says so the
/// same way.
package final class SpeechDispatcher: Speaker {
    /// What to tell a player who asked for speech from a build without it.
    package static let notBuilt =
        "efb: --speech: this efb was built without the Speech trait (libspeechd). Playing on without speech."

    private let report: (String) -> Void
    private var reported = false
    /// The language last set on the connection.
    private var language: String?
    #if Speech
    private var connection: UnsafeMutablePointer<SPDConnection>?
    #endif

    /// Opens the connection (starting Speech Dispatcher if it is not running, as `spd-say` does) and
    /// sets the player's rate and voice.
    ///
    /// - Parameters:
    ///   - rate: The speech rate, -100 (slowest) to 100 (fastest); the server's default when `nil`.
    ///   - voice: A synthesis voice by name (as `spd-say -L` lists them); the server's default when `nil`.
    ///   - report: Where a failure is told, once, in one line.
    /// - Returns: The speaker, or `nil` when speech cannot be had (told through `report`).
    package static func connect(
        rate: Int? = nil,
        voice: String? = nil,
        report: @escaping (String) -> Void
    ) -> SpeechDispatcher? {
        let speaker = SpeechDispatcher(report: report)
        #if Speech
        var error: UnsafeMutablePointer<CChar>?
        guard let connection = efb_speechd_open(&error) else {
            let reason = error.map { String(cString: $0) } ?? "no reason given"
            efb_speechd_free(error)
            report(
                "efb: --speech: cannot reach Speech Dispatcher (\(Self.oneLine(reason))); "
                    + "check it with: spd-say hello. Playing on without speech."
            )
            return nil
        }
        efb_speechd_free(error)
        speaker.connection = connection
        if let rate, spd_set_voice_rate(connection, Int32(max(-100, min(100, rate)))) != 0 {
            speaker.fail("the rate \(rate) was refused")
        }
        if let voice, spd_set_synthesis_voice(connection, voice) != 0 {
            speaker.fail("the voice \"\(Self.oneLine(voice))\" was refused")
        }
        return speaker.connection == nil ? nil : speaker
        #else
        _ = rate
        _ = voice
        report(notBuilt)
        return nil
        #endif
    }

    private init(report: @escaping (String) -> Void) {
        self.report = report
    }

    deinit {
        #if Speech
        if let connection { spd_close(connection) }
        #endif
    }

    /// Whether the connection is open: `false` once it failed.
    package var isConnected: Bool {
        #if Speech
        connection != nil
        #else
        false
        #endif
    }

    /// Says `text` with `priority`, in `language` (set on the connection only when it changes).
    package func speak(_ text: String, language: String?, priority: SpeechPriority) {
        #if Speech
        guard let connection else { return }
        let said = Self.ssipText(text)
        guard !said.isEmpty else { return }
        if let language, !language.isEmpty, language != self.language {
            self.language = language
            if spd_set_language(connection, language) != 0 {
                return fail("the language \"\(Self.oneLine(language))\" was refused")
            }
        }
        if spd_say(connection, priority.ssip, said) < 0 { fail("a message was refused") }
        #else
        _ = (text, language, priority)
        #endif
    }

    /// Stops what this game's connection says and drops what waits (SSIP `CANCEL self`).
    package func stop() {
        #if Speech
        guard let connection else { return }
        if spd_cancel(connection) != 0 { fail("stopping speech was refused") }
        #endif
    }

    /// Text as it is sent: without control characters other than line ends (a terminal's codes mean
    /// nothing to a voice) and without blank lines.
    ///
    /// - Parameter text: What the game says.
    /// - Returns: Lines of text joined by newlines; empty when nothing is left to say.
    package static func ssipText(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            String(String.UnicodeScalarView(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        }
        return lines.filter { !$0.allSatisfy(\.isWhitespace) }.joined(separator: "\n")
    }

    /// The connection failed: told once, closed, and the game plays on without speech.
    private func fail(_ what: String) {
        #if Speech
        if let connection { spd_close(connection) }
        connection = nil
        #endif
        guard !reported else { return }
        reported = true
        report("efb: --speech: Speech Dispatcher failed (\(what)); playing on without speech.")
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).trimmingCharacters(in: " ")
    }
}

#if Speech
extension SpeechPriority {
    /// The library's constant.
    fileprivate var ssip: SPDPriority {
        switch self {
        case .important: SPD_IMPORTANT
        case .message: SPD_MESSAGE
        case .text: SPD_TEXT
        case .notification: SPD_NOTIFICATION
        case .progress: SPD_PROGRESS
        }
    }
}
#endif

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}
