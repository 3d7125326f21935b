// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeConsole
import EscapeLaunch
import EscapeRuntime
import EscapeSaves

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `efb play`: the game at a terminal, in plain lines any screen reader reads, with short typed commands.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play at a terminal: type short commands (help lists them) and read, or hear, plain lines.",
        discussion: """
            Every focus and announcement is a line of its own, with no colour or cursor movement unless asked, \
            so Orca, Speakup, BRLTTY or any screen reader reads it. `efb` alone starts this at a terminal.
            """
    )

    @OptionGroup var game: GameOptions

    @OptionGroup(title: "Sound") var sound: SoundOptions

    @Option(
        help: ArgumentHelp(
            "Join the game efb serve shares on this socket instead of starting one.",
            discussion: "Your first command plays once no other client controls the game; Ctrl+C leaves it.",
            valueName: "socket"
        ),
        completion: .file()
    )
    var attach: String?

    @Flag(
        help: ArgumentHelp(
            "Also speak through Speech Dispatcher (Debian's speech-dispatcher), one connection for the game.",
            discussion: "Any key stops speech; F2 says the last thing said again, F3 stops it."
        )
    )
    var speech = false

    @Option(help: "With --speech: the speech rate, from -100 (slowest) to 100 (fastest).")
    var speechRate: Int?

    @Option(help: "With --speech: a synthesis voice by name, as spd-say -L lists them.")
    var speechVoice: String?

    @Flag(help: "Colour hints, errors and verdicts with ANSI codes.")
    var color = false

    @Flag(help: "Draw a timed room's last ten seconds in place, one line changing each second, instead of new lines.")
    var countdownInPlace = false

    @Option(
        help: "Also write the game, as it is played, to this file: every line, and what was typed after \"> \".",
        completion: .file()
    )
    var transcript: String?

    func validate() throws {
        try game.validate(attach: attach)
        if let speechRate, !(-100...100).contains(speechRate) {
            throw ValidationError("--speech-rate takes a number from -100 to 100, not \(speechRate).")
        }
    }

    func run() throws {
        let speaker =
            speech
            ? SpeechDispatcher.connect(rate: speechRate, voice: speechVoice) { message in
                StandardError.write("\(message)\n")
            } : nil
        var transcriptFile: Int32?
        if let transcript {
            let descriptor = open(transcript, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                StandardError.write("efb: cannot write the transcript \(transcript): \(reason)\n")
                throw ExitCode(73)
            }
            transcriptFile = descriptor
        }
        // `clock off` is kept beside the save, unless nothing is saved; --no-time-pressure wins over it.
        let environment = ProcessInfo.processInfo.environment
        let preferences =
            attach != nil || game.memorySave || game.noTimePressure
            ? nil
            : (game.save ?? FileSaveStore.defaultPath(environment: environment)).map(ConsolePreferences.beside(save:))
        let savePlace: ConsoleDriver.SavePlace =
            if attach != nil {
                .server
            } else if game.memorySave {
                .nowhere
            } else {
                (game.save ?? FileSaveStore.defaultPath(environment: environment)).map { .file($0) } ?? .nowhere
            }
        let options = ConsoleFrontEnd.Options(
            color: color,
            prompt: isatty(0) == 1,
            lineEditing: true,
            countdownInPlace: countdownInPlace,
            cursorControl: ConsoleFrontEnd.Options.cursorControl(term: getenv("TERM").map { String(cString: $0) }),
            savePlace: savePlace
        )
        try game.play(sound: sound, attach: attach) {
            ConsoleFrontEnd(options: options, speaker: speaker, transcript: transcriptFile, preferences: preferences)
        }
    }
}
