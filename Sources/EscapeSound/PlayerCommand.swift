// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The program that plays one sound file: the command line it is given, with the file's path last.
///
/// ``locate(environment:)`` picks one of the command-line players Debian ships, for the sound server
/// that runs: `pw-play` (package pipewire-bin) for PipeWire, `paplay` (pulseaudio-utils) for PulseAudio,
/// `aplay` (alsa-utils) for plain ALSA. ``shell(_:)`` runs a command of the player's choosing.
package struct PlayerCommand: Sendable, Hashable, CustomStringConvertible {
    /// The program and its first arguments; the file's path comes after them.
    package var arguments: [String]
    /// What the player knows it by (`pw-play`, or the command they gave).
    package var name: String

    /// A command from its program and first arguments.
    package init(arguments: [String], name: String) {
        precondition(!arguments.isEmpty, "a player command needs a program")
        self.arguments = arguments
        self.name = name
    }

    /// The command line that plays `file`.
    package func arguments(playing file: String) -> [String] { arguments + [file] }

    /// The name.
    package var description: String { name }

    /// A shell command (`--sound-player`): `/bin/sh` runs it with the file's path as its last argument.
    ///
    /// The shell `exec`s it, so the process the game starts and stops is the player itself.
    package static func shell(_ command: String) -> PlayerCommand {
        PlayerCommand(arguments: ["/bin/sh", "-c", "exec \(command) \"$@\"", "efb-sound"], name: command)
    }

    /// What to tell a player who asked for sound on a machine with no player.
    package static let notFound =
        "efb: --sound found no sound player (pw-play from pipewire-bin, paplay from pulseaudio-utils, "
        + "aplay from alsa-utils) and no --sound-player; playing on without sound."

    /// Finds a player for the sound server that runs.
    ///
    /// `pw-play` when PipeWire's socket is there (`$PIPEWIRE_REMOTE`, or `pipewire-0` in
    /// `$XDG_RUNTIME_DIR`); `paplay` when PulseAudio's is (`$PULSE_SERVER`, or `pulse/native`, which
    /// PipeWire's pulse server also offers); `aplay` otherwise, straight to ALSA (or whichever of the
    /// others is installed, when it is not).
    ///
    /// - Parameter environment: The environment (`PATH`, `XDG_RUNTIME_DIR`, ...).
    /// - Returns: The command, or `nil` when none of the players is installed.
    package static func locate(environment: [String: String]) -> PlayerCommand? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        func find(_ program: String) -> String? {
            for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
                let candidate = "\(folder)/\(program)"
                if access(candidate, X_OK) == 0 { return candidate }
            }
            return nil
        }
        func exists(_ path: String?) -> Bool { path.map { access($0, F_OK) == 0 } ?? false }
        let runtime = environment["XDG_RUNTIME_DIR"]
        let pipeWire = environment["PIPEWIRE_REMOTE"] != nil || exists(runtime.map { "\($0)/pipewire-0" })
        let pulse = environment["PULSE_SERVER"] != nil || exists(runtime.map { "\($0)/pulse/native" })
        if pipeWire, let program = find("pw-play") { return PlayerCommand(arguments: [program], name: "pw-play") }
        if pulse, let program = find("paplay") { return PlayerCommand(arguments: [program], name: "paplay") }
        if let program = find("aplay") { return PlayerCommand(arguments: [program, "-q"], name: "aplay") }
        // No server seen, and no ALSA player: a server may still answer.
        if let program = find("pw-play") { return PlayerCommand(arguments: [program], name: "pw-play") }
        if let program = find("paplay") { return PlayerCommand(arguments: [program], name: "paplay") }
        return nil
    }
}
