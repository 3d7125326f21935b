// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// A copy of efb laid out as the Debian package installs it (`PREFIX/games/efb`, `PREFIX/share/games/efb/`) plays
/// with its own data, wherever the prefix is; without data it says so and stops.
struct RelocatedEFBTests {
    /// `PREFIX/games/efb`, copied from the built one, in a fresh folder.
    private func relocatedEFB() throws -> URL {
        let prefix = try temporaryFolder("relocated")
        let bin = prefix.appendingPathComponent("games")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("efb")
        try FileManager.default.copyItem(at: efbExecutable, to: copy)
        return copy
    }

    /// Runs `efb` at `binary` with `arguments` and `input`, as the tests run the built one.
    private func run(
        _ binary: URL,
        _ arguments: [String],
        input: String,
        environment: [String: String] = [:]
    ) throws -> (stdout: String, stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        // A test running beside this one may fork while the copy is still open for writing here; its
        // child holds that descriptor until it execs, and running the copy meanwhile fails with ETXTBSY.
        try waitUntil(timeout: 30, "the copied efb to be free to run") {
            do {
                try process.run()
                return true
            } catch let error as NSError
                where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY)
            {
                return false
            }
        }
        // Written before efb reads: the few bytes fit in the pipe's buffer.
        if !input.isEmpty { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let errors = Pipe.drain(stderr)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try waitUntil(timeout: 30, "efb's standard error to close") { errors.isEnded }
        return (String(decoding: output, as: UTF8.self), errors.text, process.terminationStatus)
    }

    @Test func aRelocatedEFBPlaysTheAdventureInShareGamesEfbBesideIt() throws {
        let efb = try relocatedEFB()
        let prefix = efb.deletingLastPathComponent().deletingLastPathComponent()
        let adventures = prefix.appendingPathComponent("share/games/efb/adventures")
        try FileManager.default.createDirectory(at: adventures, withIntermediateDirectories: true)
        // Its own English adventure, told apart from the build's by its title.
        let shipped = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/EscapeContent/Adventures/en.json"),
            encoding: .utf8
        )
        let own = shipped.replacingOccurrences(
            of: "\"title\": \"Escape From Blindness\"",
            with: "\"title\": \"The Relocated Escape\""
        )
        #expect(own != shipped)
        try own.write(to: adventures.appendingPathComponent("en.json"), atomically: true, encoding: .utf8)

        let result = try run(
            efb,
            ["pipe", "--memory-save", "--locale", "en"],
            input: "{\"type\":\"hello\",\"id\":1}\n"
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"title\":\"The Relocated Escape\""), "\(result.stdout.prefix(300))")
    }

    @Test func aRelocatedEFBWithoutDataSaysSoAndStops() throws {
        let efb = try relocatedEFB()
        // No input: efb stops before it reads, and a write to its closed pipe would be a SIGPIPE.
        let result = try run(efb, ["pipe", "--memory-save", "--locale", "en"], input: "")
        #expect(result.status == 65, "\(result.stdout.prefix(300)) \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("the adventure cannot be played"), "\(result.stderr)")
        // Every place searched is named, absolute.
        let prefix = efb.deletingLastPathComponent().deletingLastPathComponent().resolvingSymlinksInPath().path
        #expect(result.stderr.contains("\(prefix)/share/games/efb/adventures"), "\(result.stderr)")
        #expect(result.stderr.contains("EscapeFromBlindness_EscapeContent.resources/Adventures"), "\(result.stderr)")
    }

    @Test func aRelocatedEFBRunsTheWholeProgramFromLibexecWithTheSameData() throws {
        let efb = try relocatedEFB()
        let prefix = efb.deletingLastPathComponent().deletingLastPathComponent()
        let libexec = prefix.appendingPathComponent("libexec/efb")
        try FileManager.default.createDirectory(at: libexec, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: efbExecutable.deletingLastPathComponent().appendingPathComponent("efb-full"),
            to: libexec.appendingPathComponent("efb-full")
        )
        let adventures = prefix.appendingPathComponent("share/games/efb/adventures")
        try FileManager.default.createDirectory(at: adventures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("docs/examples/lantern-room.json"),
            to: adventures.appendingPathComponent("en.json")
        )
        // The whole program itself finds the data at ../../share/games/efb: it plays the adventure installed there.
        // Run first, through `run`, which waits out ETXTBSY: once the copy has run, no child forked by
        // another test while it was being written still holds it open, so efb's own exec of it below
        // cannot fail with ETXTBSY (it did once, beside a parallel test run).
        let played = try run(
            libexec.appendingPathComponent("efb-full"),
            ["pipe", "--memory-save", "--locale", "en"],
            input: "{\"type\":\"hello\",\"id\":1}\n"
        )
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("\"title\":\"The Lantern Room\""), "\(played.stdout.prefix(300))")
        // `validate` is the whole program's: efb runs it from ../libexec/efb, with the same arguments.
        let checked = try run(efb, ["validate", adventures.appendingPathComponent("en.json").path], input: "")
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains(": ok (1 chapters, 5 levels"), "\(checked.stdout)")
        // Help and refusals of the pipe's options are ArgumentParser's, from the whole program.
        let help = try run(efb, ["pipe", "--help"], input: "")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: efb pipe"), "\(help.stdout.prefix(300))")
        let refused = try run(efb, ["pipe", "--games", "0"], input: "")
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--games must be between 1 and"), "\(refused.stderr)")
    }

    @Test func withoutTheWholeProgramEfbSaysWhereItLooked() throws {
        let efb = try relocatedEFB()
        let result = try run(efb, ["--version"], input: "")
        #expect(result.status == 69)
        #expect(result.stderr.contains("efb-full"), "\(result.stderr)")
        #expect(result.stderr.contains("libexec/efb/efb-full"), "\(result.stderr)")
    }

    /// Before: a whole program there but not executable was said not to be installed.
    @Test func aWholeProgramThatCannotRunIsSaidToBeThereButNotStartable() throws {
        let efb = try relocatedEFB()
        let full = efb.deletingLastPathComponent().appendingPathComponent("efb-full")
        try Data("not a program".utf8).write(to: full)
        let result = try run(efb, ["--version"], input: "")
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot start \(full.path)"), "\(result.stderr)")
        #expect(result.stderr.contains("ermission denied"), "\(result.stderr)")
    }

    /// Before: `--adventure=~/file` (a tilde the shell leaves as it is) was no longer the home folder's
    /// file once efb read its own command line without Foundation.
    @Test func anAdventureUnderTheHomeFolderIsFoundThroughATilde() throws {
        let home = try temporaryFolder("home")
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("docs/examples/lantern-room.json"),
            to: home.appendingPathComponent("lantern.json")
        )
        let result = try run(
            efbExecutable,
            ["pipe", "--memory-save", "--adventure=~/lantern.json"],
            input: "{\"type\":\"hello\",\"id\":1}\n",
            environment: ["HOME": home.path]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"title\":\"The Lantern Room\""), "\(result.stdout.prefix(300))")
        let checked = try run(
            efbExecutable,
            ["validate", "~/lantern.json"],
            input: "",
            environment: ["HOME": home.path]
        )
        #expect(checked.status == 0, "\(checked.stderr)")
    }
}
