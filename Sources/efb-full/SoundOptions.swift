// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeLaunch
import EscapeRuntime
import EscapeSound

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

/// The sound options of the front ends that play sound themselves (`play`, `braille`; a pipe client
/// plays its own).
struct SoundOptions: ParsableArguments {
    @Flag(help: "Play the game's sound cues and chapter ambiences (through pw-play, paplay or aplay).")
    var sound = false

    @Option(
        help: ArgumentHelp(
            "A shell command that plays one WAV file, given as its last argument (implies --sound).",
            valueName: "command"
        )
    )
    var soundPlayer: String?

    @Option(help: "Volume of the chapter ambiences, from 0 (none) to 100; cues keep their own.")
    var ambienceVolume = 100

    func validate() throws {
        if !(0...100).contains(ambienceVolume) {
            throw ValidationError("--ambience-volume must be between 0 and 100.")
        }
    }

    /// The player asked for, or `nil` without `--sound`; tells on standard error, in one line, when no
    /// player program is installed (the game then plays on without sound).
    func makePlayer() -> SoundPlayer? {
        guard sound || soundPlayer != nil else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let report: (String) -> Void = { StandardError.write("\($0)\n") }
        guard let command = soundPlayer.map(PlayerCommand.shell) ?? PlayerCommand.locate(environment: environment)
        else {
            report(PlayerCommand.notFound)
            return nil
        }
        guard let pack = SoundPack.bundled else {
            report("efb: --sound found no sound files next to efb; playing on without sound.")
            return nil
        }
        let options = SoundPlayer.Options(
            ambienceVolume: ambienceVolume,
            cacheFolder: SoundPlayer.Options.cacheFolder(environment: environment)
        )
        return SoundPlayer(command: command, pack: pack, options: options, report: report)
    }
}
