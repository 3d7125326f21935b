// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

/// Plays the game's sounds through a command-line player: each cue in a process of its own, the
/// chapter's ambience in one process after another for as long as the chapter lasts.
///
/// Nothing here waits for a sound to finish. A started process is checked once its file should have
/// ended (``deadline`` says when), then every ``Options/checkInterval`` until it has, and reaped; a cue
/// still running ``Options/overrun`` after its end is stopped. An ambience is started again when its
/// process ends, no sooner than its file's length (and a second) after the last start, so a player that returns at
/// once cannot spin; one that fails is not started again until the next ambience. ``stop()`` ends
/// every process and reaps it: call it when the game ends, however it ends.
///
/// The first failure (a player that cannot start, or exits with an error) is told once, through
/// `report`; the game goes on without the sound. It does not cross threads.
package final class SoundPlayer {
    /// How the player plays.
    package struct Options: Sendable, Hashable {
        /// The ambiences' volume, 0 (none) to 100 (as the pack has them); cues always play as they are.
        package var ambienceVolume: Int
        /// Where quieter copies of the ambiences are kept; `nil` plays them at full volume.
        package var cacheFolder: String?
        /// How many cues may play at once; a new one stops the oldest.
        package var maximumCues: Int
        /// How long a cue's process may outlive its file before it is stopped, in milliseconds.
        package var overrun: Int64
        /// How often a process that should have ended is checked again, in milliseconds.
        package var checkInterval: Int64

        /// Creates options.
        package init(
            ambienceVolume: Int = 100,
            cacheFolder: String? = nil,
            maximumCues: Int = 4,
            overrun: Int64 = 5000,
            checkInterval: Int64 = 50
        ) {
            self.ambienceVolume = min(max(ambienceVolume, 0), 100)
            self.cacheFolder = cacheFolder
            self.maximumCues = max(1, maximumCues)
            self.overrun = overrun
            self.checkInterval = max(1, checkInterval)
        }

        /// The cache folder of the environment: `$XDG_CACHE_HOME/escape-from-blindness/sounds`, or
        /// `~/.cache/escape-from-blindness/sounds`; `nil` without either variable.
        package static func cacheFolder(environment: [String: String]) -> String? {
            if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
                return "\(cache)/escape-from-blindness/sounds"
            }
            return environment["HOME"].map { "\($0)/.cache/escape-from-blindness/sounds" }
        }
    }

    /// A process playing a file.
    private struct Child {
        var pid: Int32
        /// When it started, on the player's clock.
        var started: Int64
        /// When its file ends.
        var ends: Int64
        /// When to look at it next.
        var check: Int64
    }

    /// What the ambience's loop is doing.
    private enum LoopState {
        /// A process plays it.
        case playing(Child)
        /// Its process ended early; it starts again then.
        case resting(until: Int64)
        /// Not playing: no file, or the player failed.
        case silent
    }

    /// The least time between two starts of an ambience, in milliseconds, whatever its file says.
    static let shortestLoop: Int64 = 1000

    private let command: PlayerCommand
    private let pack: SoundPack
    private let processes: any ChildProcesses
    private let options: Options
    /// Where the first failure is told, in one line; a ``SoundFrontEnd`` sends it to the front end it wraps.
    package var report: (String) -> Void
    private var cues: [Child] = []
    private var ambience: (name: Ambience, file: String, state: LoopState)?
    private var lengths: [String: Int64] = [:]
    private var reported = false

    /// Creates a player.
    ///
    /// - Parameters:
    ///   - command: The player program.
    ///   - pack: The sound files.
    ///   - processes: Starts and stops the player's processes.
    ///   - options: Volume, cache and timing.
    ///   - report: Where the first failure is told, in one line.
    package init(
        command: PlayerCommand,
        pack: SoundPack,
        processes: any ChildProcesses = SpawnedProcesses(),
        options: Options = Options(),
        report: @escaping (String) -> Void
    ) {
        self.command = command
        self.pack = pack
        self.processes = processes
        self.options = options
        self.report = report
    }

    /// The ambience that loops now, if any.
    package var currentAmbience: Ambience? { ambience?.name }

    /// How many cues are still playing.
    package var playingCues: Int { cues.count }

    /// When ``service(now:)`` next has something to do; `nil` while nothing plays.
    package var deadline: Int64? {
        var deadlines = cues.map(\.check)
        switch ambience?.state {
        case .playing(let child): deadlines.append(child.check)
        case .resting(let until): deadlines.append(until)
        case .silent, nil: break
        }
        return deadlines.min()
    }

    /// Starts `cue`'s file; a cue the pack lacks is skipped.
    package func play(_ cue: SoundCue, now: Int64) {
        guard let file = pack.file(for: cue) else { return }
        if cues.count >= options.maximumCues {
            processes.stop(cues.removeFirst().pid)
        }
        if let child = start(file, now: now) { cues.append(child) }
    }

    /// Loops `ambience` instead of the one that plays; the same one goes on as it is.
    package func loop(_ ambience: Ambience, now: Int64) {
        guard ambience != self.ambience?.name else { return }
        stopAmbience()
        guard options.ambienceVolume > 0, let file = ambienceFile(ambience) else {
            self.ambience = (ambience, "", .silent)
            return
        }
        let state: LoopState = start(file, now: now).map { .playing($0) } ?? .silent
        self.ambience = (ambience, file, state)
    }

    /// Stops the ambience.
    package func stopAmbience() {
        if case .playing(let child) = ambience?.state { processes.stop(child.pid) }
        ambience = nil
    }

    /// Stops every sound and reaps its process.
    package func stop() {
        stopAmbience()
        for cue in cues { processes.stop(cue.pid) }
        cues = []
    }

    /// Reaps the processes that ended, stops cues that overran, and starts the ambience again when due.
    package func service(now: Int64) {
        cues = cues.compactMap { child in
            if let exit = processes.exit(of: child.pid) {
                if !exit.succeeded { tell(exit) }
                return nil
            }
            if now >= child.ends + options.overrun {
                // A player that never finishes a short sound cannot play: most often it cannot reach
                // its sound server (pw-play without PipeWire). Said once, as a failure is.
                processes.stop(child.pid)
                tell(
                    "efb: sound: \(command) did not finish a sound of \(Self.seconds(child.ends - child.started)) "
                        + "in \(Self.seconds(now - child.started)); check that it can reach its sound server "
                        + "(PipeWire, PulseAudio or ALSA). Playing on; each sound is stopped when it overruns."
                )
                return nil
            }
            return rescheduled(child, now: now)
        }
        guard let ambience else { return }
        switch ambience.state {
        case .playing(let child):
            guard let exit = processes.exit(of: child.pid) else {
                self.ambience?.state = .playing(rescheduled(child, now: now))
                return
            }
            if !exit.succeeded {
                tell(exit)
                self.ambience?.state = .silent
            } else {
                let due = max(child.ends, child.started + Self.shortestLoop)
                if now < due {
                    self.ambience?.state = .resting(until: due)
                } else {
                    restartAmbience(now: now)
                }
            }
        case .resting(let until):
            if now >= until { restartAmbience(now: now) }
        case .silent:
            break
        }
    }

    /// Milliseconds in words for a log line: "0.4 s".
    private static func seconds(_ milliseconds: Int64) -> String {
        let tenths = max(0, milliseconds) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    private func restartAmbience(now: Int64) {
        guard let ambience else { return }
        self.ambience?.state = start(ambience.file, now: now).map { .playing($0) } ?? .silent
    }

    /// The next look at a process still running: at its end, then every check interval.
    private func rescheduled(_ child: Child, now: Int64) -> Child {
        var child = child
        child.check = now < child.ends ? child.ends : now + options.checkInterval
        return child
    }

    private func start(_ file: String, now: Int64) -> Child? {
        switch processes.start(command.arguments(playing: file)) {
        case .success(let pid):
            let ends = now + length(of: file)
            return Child(pid: pid, started: now, ends: ends, check: ends)
        case .failure(let error):
            tell("efb: sound: \(command) could not be started (\(error)); playing on without sound.")
            return nil
        }
    }

    private func tell(_ exit: ChildExit) {
        let how =
            switch exit {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        tell("efb: sound: \(command) failed (\(how)); check that it plays a WAV file on this machine.")
    }

    private func tell(_ message: String) {
        guard !reported else { return }
        reported = true
        report(message)
    }

    /// How long `file` plays, in milliseconds (read once); 0 when it cannot be read.
    private func length(of file: String) -> Int64 {
        if let known = lengths[file] { return known }
        let milliseconds = (try? WAVAudio(bytes: Self.read(file)))?.milliseconds ?? 0
        lengths[file] = milliseconds
        return milliseconds
    }

    /// The file to loop for `ambience` at the volume asked: the pack's own at 100, else a quieter copy in
    /// the cache's `ambiences` folder, written the first time (the pack's file when it cannot be).
    private func ambienceFile(_ ambience: Ambience) -> String? {
        guard let file = pack.file(for: ambience) else { return nil }
        guard options.ambienceVolume < 100, let cache = options.cacheFolder else { return file }
        let bytes = Self.read(file)
        guard let audio = try? WAVAudio(bytes: bytes) else { return file }
        // The source's checksum in the name: a remade pack gets new copies.
        let folder = "\(cache)/ambiences"
        let copy = "\(folder)/\(ambience.name)-\(Self.checksum(bytes))-volume-\(options.ambienceVolume).wav"
        if FileManager.default.fileExists(atPath: copy) { return copy }
        let quieter = audio.scaled(by: Double(options.ambienceVolume) / 100)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(quieter.bytes).write(to: URL(fileURLWithPath: copy), options: .atomic)
            return copy
        } catch {
            tell("efb: sound: cannot write a quieter ambience in \(cache) (\(error)); playing it at full volume.")
            return file
        }
    }

    private static func read(_ file: String) -> [UInt8] {
        FileManager.default.contents(atPath: file).map { Array($0) } ?? []
    }

    /// FNV-1a, 64 bits, in hexadecimal.
    private static func checksum(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
