// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeContent
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeSound
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `efb play --sound` as a program, with a `--sound-player` that writes down what it is asked to play.
struct PlaySoundTests {
    /// The save the game starts from: the first chapter solved, the second one's first level current.
    static let save = SaveData(
        adventureID: "escape-from-blindness",
        completed: ["cellar-door", "cellar-water", "cellar-jars", "cellar-stairs"],
        current: "stones-memory"
    )

    /// The typed lines: a bump at the top, back to the first chapter, a wrong answer and the right one, the
    /// menu (a locked level), the second chapter again, and a hint unlocking there.
    static let lines = ["p", "g 1 1", "5", "a", "4", "a", "m", "l", "p", "", "g 2 1", "wait 30", "q"]

    /// What each line makes the game ask to hear, as the player's file names say it: `boundary`,
    /// `ambient water-behind-a-wall`, ...; worked out in process, as `efb play --seed 1 --clock virtual`
    /// plays from ``save``.
    static func expectedSounds() throws -> [[String]] {
        let adventure = try AdventureLoader.bundled(locale: "en")
        let host = SessionHost(
            adventure: adventure,
            options: EngineOptions(hintInterval: 30_000, hintsAtOnce: false, seed: 1, timePressure: true),
            store: InMemorySaveStore(save),
            clock: VirtualClock()
        )
        var driver = ConsoleDriver()
        _ = driver.render(host.handle(.start))
        return lines.map { line in
            guard case .submit(let input) = driver.interpret(line) else { return [] }
            let events = host.handle(input)
            _ = driver.render(events)
            return events.compactMap { stamped in
                if case .game(.sound(let cue)) = stamped.event { return cue.rawValue }
                if case .game(.ambient(let ambience)) = stamped.event { return "ambient \(ambience.name)" }
                return nil
            }
        }
    }

    /// The name a logged file stands for: `cues/wrong.wav` is `wrong`, `ambiences/x.wav` is `ambient x`.
    private static func sound(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return path.contains("/ambiences/") ? "ambient \(name)" : name
    }

    /// A player that logs its argument; for an ambience it also writes its pid and plays on (sleeps).
    private static func recordingPlayer(in folder: URL) throws -> (script: String, log: String, pids: String) {
        let script = folder.appendingPathComponent("player").path
        let log = folder.appendingPathComponent("played").path
        let pids = folder.appendingPathComponent("pids").path
        let text = """
            #!/bin/sh
            echo "$1" >> '\(log)'
            case "$1" in */ambiences/*) echo $$ >> '\(pids)'; exec sleep 600;; esac

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: script))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return (script, log, pids)
    }

    private static func lines(of path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func aScriptedGamePlaysEachCueInOrderAndStopsTheAmbienceOnExit() throws {
        let expected = try Self.expectedSounds()
        let all = expected.flatMap { $0 }
        // The script must reach what it is meant to: every kind of moment below, and two chapters.
        for sound in ["boundary", "wrong", "solved", "locked", "hint"] {
            #expect(all.contains(sound), "the script plays no \(sound)")
        }
        #expect(all.filter { $0.hasPrefix("ambient ") }.count == 2)

        let folder = try temporaryFolder("play-sound")
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = try Self.recordingPlayer(in: folder)
        let save = folder.appendingPathComponent("progress.json")
        try Data(Self.save.encoded()).write(to: save)
        let efb = try RunningEFB([
            "play", "--seed", "1", "--clock", "virtual", "--save", save.path, "--locale", "en",
            "--sound", "--sound-player", player.script,
        ])
        var heard: [[String]] = []
        var count = 0
        for (line, sounds) in zip(Self.lines, expected) {
            efb.write(Array("\(line)\n".utf8))
            count += sounds.count
            // Each line's sounds are logged before the next line is typed; within a line the players
            // race, so a line's sounds are compared as a set.
            try waitUntil("the player to be asked for \(count) sounds") { Self.lines(of: player.log).count >= count }
            let logged = Self.lines(of: player.log).map(Self.sound)
            heard.append(Array(logged[(count - sounds.count)..<count]))
        }
        efb.finish()
        #expect(efb.process.terminationStatus == 0)
        #expect(heard.map { $0.sorted() } == expected.map { $0.sorted() })
        #expect(Self.lines(of: player.log).count == count, "nothing more was played")
        #expect(efb.standardError == "")

        // Both ambience players were stopped and reaped: the first at the second chapter, the second on exit.
        let pids = Self.lines(of: player.pids).compactMap { pid_t($0) }
        #expect(pids.count == 2)
        for pid in pids {
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "the ambience player \(pid) is still there")
        }
    }

    @Test func aStopSignalStopsTheAmbienceToo() throws {
        let folder = try temporaryFolder("play-sound-stop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = try Self.recordingPlayer(in: folder)
        // The quieter copy of the ambience goes to a cache of the test's own.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
        let efb = try RunningEFB(
            [
                "play", "--seed", "1", "--clock", "virtual", "--memory-save", "--locale", "en",
                "--sound-player", player.script, "--ambience-volume", "40",
            ],
            environment: environment
        )
        efb.write(Array("esc\n".utf8))
        try waitUntil("the ambience to play") { !Self.lines(of: player.pids).isEmpty }
        efb.stop()
        #expect(efb.process.terminationStatus == 0)
        #expect(efb.output.text.hasSuffix("Goodbye.\n"))
        let played = Self.lines(of: player.log)
        #expect(played.contains { $0.hasPrefix(folder.path + "/cache/escape-from-blindness/sounds/ambiences/") })
        let pid = try #require(Self.lines(of: player.pids).first.flatMap { Int32($0) })
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the ambience player \(pid) is still there")
    }

    @Test func withoutAPlayerTheGameSaysSoOnceAndPlaysOn() throws {
        let result = try runEFB(
            ["play", "--seed", "1", "--clock", "virtual", "--memory-save", "--locale", "en", "--sound"],
            input: "esc\nq\n",
            environment: ["PATH": "/nonexistent", "HOME": "/nonexistent"]
        )
        #expect(result.status == 0)
        #expect(result.stderr == PlayerCommand.notFound + "\n")
        #expect(result.stdout.contains("Chapter 1: The Cellar of Echoes"))
    }

    @Test func thePipeHasNoSoundOptions() throws {
        let result = try runEFB(["pipe", "--memory-save", "--sound"], input: "")
        #expect(result.status != 0)
        #expect(result.stderr.contains("--sound"))
    }
}
