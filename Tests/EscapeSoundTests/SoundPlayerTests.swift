// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeRuntime
import EscapeSound
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Processes that only pretend: each start is written down, and a test says when one ends.
final class FakeProcesses: ChildProcesses {
    /// What was started, in order, with its pid.
    var started: [(pid: Int32, arguments: [String])] = []
    /// What was stopped, in order.
    var stopped: [Int32] = []
    /// The processes that have ended and how, until reaped.
    var ended: [Int32: ChildExit] = [:]
    /// The processes started and not yet reaped or stopped.
    var running: Set<Int32> = []
    /// Whether starting fails.
    var failing = false
    private var nextPid: Int32 = 100

    /// The file each process was started on (the last argument).
    var files: [String] { started.map { $0.arguments.last ?? "" } }

    func start(_ arguments: [String]) -> Result<Int32, SpawnError> {
        if failing { return .failure(SpawnError(code: ENOENT)) }
        nextPid += 1
        started.append((nextPid, arguments))
        running.insert(nextPid)
        return .success(nextPid)
    }

    func exit(of pid: Int32) -> ChildExit? {
        guard let exit = ended[pid] else { return nil }
        ended[pid] = nil
        running.remove(pid)
        return exit
    }

    func stop(_ pid: Int32) {
        stopped.append(pid)
        running.remove(pid)
        ended[pid] = nil
    }

    /// Ends `pid` with `exit`.
    func end(_ pid: Int32, _ exit: ChildExit = .exited(0)) {
        ended[pid] = exit
    }
}

/// The player over fake processes: what starts when, what is reaped, what is stopped.
struct SoundPlayerTests {
    static let pack = SoundPackTests.pack
    static let water = ambience("water-behind-a-wall")
    static let forge = ambience("crackling-forge")

    static func ambience(_ name: String) -> Ambience {
        guard let ambience = Ambience(name) else { fatalError("\(name) is an ambience name") }
        return ambience
    }
    /// The length of the ambiences of the pack, in milliseconds.
    static let loop: Int64 = 4000

    private func player(
        _ processes: FakeProcesses,
        options: SoundPlayer.Options = SoundPlayer.Options(),
        reports: Locked<[String]> = Locked([])
    ) -> SoundPlayer {
        SoundPlayer(
            command: PlayerCommand(arguments: ["/usr/bin/player", "--quiet"], name: "player"),
            pack: Self.pack,
            processes: processes,
            options: options,
            report: { message in reports.withLock { $0.append(message) } }
        )
    }

    @Test func eachCueStartsItsFileAndIsReapedWithoutWaiting() throws {
        let processes = FakeProcesses()
        let player = player(processes)
        #expect(player.deadline == nil)
        player.play(.boundary, now: 0)
        player.play(.solved, now: 10)
        #expect(
            processes.started.map(\.arguments) == [
                ["/usr/bin/player", "--quiet", try #require(Self.pack.file(for: .boundary))],
                ["/usr/bin/player", "--quiet", try #require(Self.pack.file(for: .solved))],
            ]
        )
        // The first look comes when the shorter cue should have ended (boundary lasts 91 ms).
        #expect(player.deadline == 91)
        player.service(now: 91)
        #expect(player.playingCues == 2)
        #expect(player.deadline == 141)
        processes.end(101)
        player.service(now: 141)
        #expect(player.playingCues == 1)
        processes.end(102)
        player.service(now: 800)
        #expect(player.playingCues == 0)
        #expect(player.deadline == nil)
        #expect(processes.running.isEmpty)
    }

    /// A cue that overruns is stopped, and said once: a player that never finishes a sound (pw-play
    /// without PipeWire waits for its server) used to be stopped without a word.
    @Test func aCueThatOverrunsIsStoppedToldOnceAndTooManyStopTheOldest() {
        let processes = FakeProcesses()
        let reports = Locked<[String]>([])
        let player = player(processes, options: SoundPlayer.Options(maximumCues: 2, overrun: 1000), reports: reports)
        player.play(.dial, now: 0)
        player.play(.dial, now: 0)
        player.play(.dial, now: 0)
        #expect(processes.stopped == [101])
        player.service(now: 1031)  // a dial lasts 31 ms
        #expect(processes.stopped == [101, 102, 103])
        #expect(player.playingCues == 0)
        player.play(.dial, now: 2000)
        player.service(now: 3031)
        #expect(
            reports.withLock { $0 } == [
                "efb: sound: player did not finish a sound of 0.0 s in 1.0 s; check that it can reach its sound "
                    + "server (PipeWire, PulseAudio or ALSA). Playing on; each sound is stopped when it overruns."
            ]
        )
    }

    @Test func anAmbienceLoopsUntilTheNextOneAndTheSameOneGoesOn() throws {
        let processes = FakeProcesses()
        let player = player(processes)
        player.loop(Self.water, now: 0)
        player.loop(Self.water, now: 500)
        #expect(processes.started.count == 1)
        #expect(player.deadline == Self.loop)
        // The player ends with the file: it starts again at once.
        processes.end(101)
        player.service(now: Self.loop + 30)
        #expect(processes.started.count == 2)
        #expect(processes.files[1] == processes.files[0])
        // A player that returns early waits for the file's length before it starts again.
        processes.end(102)
        player.service(now: Self.loop + 100)
        #expect(processes.started.count == 2)
        #expect(player.deadline == 2 * Self.loop + 30)
        player.service(now: 2 * Self.loop + 30)
        #expect(processes.started.count == 3)
        // The next chapter's ambience stops this one.
        player.loop(Self.forge, now: 2 * Self.loop + 50)
        #expect(processes.stopped == [103])
        #expect(processes.files.last == Self.pack.file(for: Self.forge))
        #expect(player.currentAmbience == Self.forge)
        player.stop()
        #expect(processes.stopped == [103, 104])
        #expect(processes.running.isEmpty)
        #expect(player.currentAmbience == nil)
    }

    @Test func anAmbienceOfNoKnownLengthStartsAtMostOnceASecond() throws {
        let folder = try temporaryFolder("odd-pack")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ambiences = folder.appendingPathComponent("ambiences")
        try FileManager.default.createDirectory(at: ambiences, withIntermediateDirectories: true)
        try Data("not a WAV file".utf8).write(to: ambiences.appendingPathComponent("water-behind-a-wall.wav"))
        let processes = FakeProcesses()
        let player = SoundPlayer(
            command: PlayerCommand(arguments: ["/usr/bin/player"], name: "player"),
            pack: SoundPack(folder: folder.path),
            processes: processes,
            report: { _ in }
        )
        player.loop(Self.water, now: 0)
        processes.end(101)
        player.service(now: 10)
        #expect(processes.started.count == 1)
        #expect(player.deadline == 1000)
        player.service(now: 1000)
        #expect(processes.started.count == 2)
        player.stop()
    }

    @Test func stopEndsEveryCueAndTheAmbience() {
        let processes = FakeProcesses()
        let player = player(processes)
        player.loop(Self.water, now: 0)
        player.play(.chapter, now: 0)
        player.play(.hint, now: 0)
        player.stop()
        #expect(Set(processes.stopped) == [101, 102, 103])
        #expect(processes.running.isEmpty)
        #expect(player.deadline == nil)
    }

    @Test func aFailingPlayerIsToldOnceAndItsAmbienceNotRestarted() {
        let processes = FakeProcesses()
        let reports = Locked<[String]>([])
        let player = player(processes, reports: reports)
        player.loop(Self.water, now: 0)
        player.play(.wrong, now: 0)
        processes.end(101, .exited(1))
        processes.end(102, .exited(1))
        player.service(now: 10)
        #expect(player.deadline == nil)
        #expect(processes.started.count == 2)
        processes.failing = true
        player.play(.wrong, now: 20)
        #expect(
            reports.withLock { $0 } == [
                "efb: sound: player failed (exit status 1); check that it plays a WAV file on this machine."
            ]
        )
    }

    @Test func unknownAmbiencesAreSilentAndVolumeZeroPlaysNoAmbience() {
        let processes = FakeProcesses()
        let player = player(processes)
        player.loop(Self.ambience("wind-in-a-shaft"), now: 0)
        #expect(processes.started.isEmpty)
        #expect(player.currentAmbience == Ambience("wind-in-a-shaft"))
        let muted = self.player(processes, options: SoundPlayer.Options(ambienceVolume: 0))
        muted.loop(Self.water, now: 0)
        muted.play(.hint, now: 0)
        #expect(processes.files == [Self.pack.file(for: .hint)])
    }

    @Test func aQuieterAmbienceIsAScaledCopyInTheCache() throws {
        let cache = try temporaryFolder("sound-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let processes = FakeProcesses()
        let player = player(processes, options: SoundPlayer.Options(ambienceVolume: 50, cacheFolder: cache.path))
        player.loop(Self.water, now: 0)
        let copy = try #require(processes.files.first)
        #expect(copy.hasPrefix(cache.path + "/ambiences/water-behind-a-wall-"))
        #expect(copy.hasSuffix("-volume-50.wav"))
        let original = try WAVAudio(
            bytes: Array(Data(contentsOf: URL(fileURLWithPath: try #require(Self.pack.file(for: Self.water)))))
        )
        let quieter = try WAVAudio(bytes: Array(Data(contentsOf: URL(fileURLWithPath: copy))))
        #expect(quieter == original.scaled(by: 0.5))
        player.stop()
    }
}
