// SPDX-License-Identifier: Apache-2.0
import EscapeSound
import EscapeTestSupport
import Foundation
import Testing

/// Which player is found for which sound server, and how a `--sound-player` command is run.
struct PlayerCommandTests {
    /// A folder of programs that do nothing, and a runtime folder for sockets.
    private func machine(programs: [String], sockets: [String]) throws -> (bin: URL, runtime: URL) {
        let root = try temporaryFolder("players")
        let bin = root.appendingPathComponent("bin")
        let runtime = root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for program in programs {
            let path = bin.appendingPathComponent(program).path
            try #require(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8)))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        for socket in sockets {
            let path = runtime.appendingPathComponent(socket)
            try FileManager.default.createDirectory(
                at: path.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try #require(FileManager.default.createFile(atPath: path.path, contents: Data()))
        }
        return (bin, runtime)
    }

    private func located(programs: [String], sockets: [String]) throws -> [String]? {
        let (bin, runtime) = try machine(programs: programs, sockets: sockets)
        defer { try? FileManager.default.removeItem(at: bin.deletingLastPathComponent()) }
        let command = PlayerCommand.locate(environment: ["PATH": bin.path, "XDG_RUNTIME_DIR": runtime.path])
        return command.map { [$0.name] + $0.arguments.dropFirst() }
    }

    @Test func theServerThatRunsChoosesThePlayer() throws {
        let all = ["pw-play", "paplay", "aplay"]
        #expect(try located(programs: all, sockets: ["pipewire-0", "pulse/native"]) == ["pw-play"])
        #expect(try located(programs: all, sockets: ["pulse/native"]) == ["paplay"])
        #expect(try located(programs: all, sockets: []) == ["aplay", "-q"])
        #expect(try located(programs: ["pw-play"], sockets: []) == ["pw-play"])
        #expect(try located(programs: [], sockets: ["pipewire-0"]) == nil)
    }

    @Test func aShellCommandGetsTheFileAsItsLastArgument() throws {
        let folder = try temporaryFolder("shell-player")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("log").path
        let command = PlayerCommand.shell("printf '%s|%s\\n' extra >> '\(log)'")
        let processes = SpawnedProcesses()
        let pid = try processes.start(command.arguments(playing: "/sounds/a file.wav")).get()
        try waitUntil("the player to end") { processes.exit(of: pid) != nil }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "extra|/sounds/a file.wav\n")
    }

    /// A player that ignores SIGTERM, run by a shell that started a child of its own: stopping it
    /// ends both, without waiting out a grace period (nothing sleeps on the game's loop).
    @Test func stoppingAPlayerEndsWhatItStartedAtOnce() throws {
        let folder = try temporaryFolder("stubborn-player")
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = folder.appendingPathComponent("started").path
        let processes = SpawnedProcesses()
        let script = "trap '' TERM; sleep 30 & echo $! > '\(started).tmp'; mv '\(started).tmp' '\(started)'; wait"
        let pid = try processes.start(["/bin/sh", "-c", script]).get()
        try waitUntil("the player to start its child") { FileManager.default.fileExists(atPath: started) }
        let child = try #require(
            Int32(try String(contentsOfFile: started, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        )
        let clock = ContinuousClock()
        let stopping = clock.now
        processes.stop(pid)
        // The old stop waited up to a second for SIGTERM before SIGKILL; now nothing sleeps.
        #expect(clock.now - stopping < .milliseconds(900), "stop waited out a grace period")
        #expect(processes.exit(of: pid) == .signalled(0), "the player was not reaped")
        // The shell's child is gone too (or a zombie until init reaps it): not left playing.
        try waitUntil("the player's own child to end") { Self.endedOrZombie(child) }
    }

    /// Whether `pid` is gone or only a zombie.
    private static func endedOrZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
