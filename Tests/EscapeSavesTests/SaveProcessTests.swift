// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The save's rules held by the built `efb` on real files (issue 26).
struct SaveProcessTests {
    private static let lanternPath = packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path
    private static let toFirstLevel = [#"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#]
    private static let solveFirst = #"{"type":"activate","element":"warm-handle","id":1}"#

    private static func lines(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    /// A file-size limit below the save's size fails the save with `save_failed`; the game goes on.
    ///
    /// The limit is `setrlimit(RLIMIT_FSIZE)`, with SIGXFSZ at its default action; before, it killed efb.
    @Test func aFileSizeLimitFailsTheSaveAndTheGameGoesOn() throws {
        let folder = try temporaryFolder("efb-fsize")
        defer { try? FileManager.default.removeItem(at: folder) }
        let save = folder.appendingPathComponent("progress.json").path
        // The limit is set with setrlimit(RLIMIT_FSIZE) and SIGXFSZ reset to its default action (which
        // kills) and unblocked right before exec: this test process may ignore or block it, and a shell
        // cannot reset a signal ignored on entry.
        let launcher = """
            import os, resource, signal, sys
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
            os.execv(sys.argv[1], sys.argv[1:])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            pythonCommand, "-c", launcher, efbExecutable.path, "pipe", "--clock", "virtual", "--save", save,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(
            Data((#"{"type":"replay","id":1}"# + "\n" + #"{"type":"ping","id":2}"# + "\n").utf8)
        )
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(text.contains(#""code":"save_failed""#))
        #expect(text.contains(#""replyTo":2"#))
        #expect(text.contains(#""type":"bye""#))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.filter { $0.contains(".tmp-") } == [])
    }

    /// `efb pipe --save ~/.bashrc`: refused with status 64 and a plain message; the file is untouched and
    /// nothing is made beside it.
    @Test func aFileThatIsNotASaveIsRefusedWithStatus64() throws {
        let folder = try temporaryFolder("efb-bashrc")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bashrc = folder.appendingPathComponent(".bashrc")
        let content = Data("# ~/.bashrc\nexport PATH=\"$HOME/bin:$PATH\"\nalias ll='ls -l'\n".utf8)
        try content.write(to: bashrc)
        let result = try runEFB(
            ["pipe", "--clock", "virtual", "--save", bashrc.path],
            input: Self.lines(["{\"type\":\"replay\"}"])
        )
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cannot be used as the save"))
        #expect(try Data(contentsOf: bashrc) == content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [".bashrc"])
    }

    /// Empty and folder-looking save paths are refused with status 64, and nothing is made anywhere.
    @Test(arguments: ["", "/", ".", "sub/", "sub/.."])
    func aFolderLikeSavePathIsRefusedWithStatus64(_ path: String) throws {
        let folder = try temporaryFolder("efb-folder-path")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = efbExecutable
        process.arguments = ["pipe", "--clock", "virtual", "--save", path]
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// A link or a folder at `PATH.lock` is reported in the opening (`save_unreadable`), the progress
    /// says `saved:false`, and the save found is still played from, never written.
    @Test(arguments: [true, false])
    func anUnusableLockIsReportedAtTheStart(_ link: Bool) throws {
        let folder = try temporaryFolder("efb-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let save = folder.appendingPathComponent("progress.json").path
        let before = SaveFile([SaveData(adventureID: "lantern-room", completed: ["room-latch"], current: "room-word")])
        try Data(before.encoded()).write(to: URL(fileURLWithPath: save))
        if link {
            #expect(symlink(folder.path + "/elsewhere", save + ".lock") == 0)
        } else {
            #expect(mkdir(save + ".lock", 0o700) == 0)
        }
        let result = try runEFB(
            ["pipe", "--seed", "1", "--clock", "virtual", "--adventure", Self.lanternPath, "--save", save],
            input: Self.lines([#"{"type":"replay","id":1}"#])
        )
        let opening = result.stdout.split(separator: "\n").prefix { !$0.contains(#""replyTo""#) }
        #expect(opening.contains { $0.contains(#""code":"save_unreadable""#) && $0.contains(".lock") })
        #expect(opening.contains { $0.contains(#""type":"progress""#) && $0.contains(#""saved":false"#) })
        #expect(opening.contains { $0.contains(#""completed":["room-latch"]"#) || $0.contains(#""chapter""#) })
        #expect(!result.stdout.contains("save_failed"))
        #expect(try SaveFile.decode(Array(Data(contentsOf: URL(fileURLWithPath: save)))) == before)
        #expect(access(folder.path + "/elsewhere", F_OK) != 0)
    }

    /// Playing another adventure with the same save keeps the shipped game's progress: a save of the
    /// shipped game in the old format (1) gains the other adventure's record at its first solved level.
    @Test func playingAnotherAdventureKeepsTheShippedGamesProgress() throws {
        let folder = try temporaryFolder("efb-two-adventures")
        defer { try? FileManager.default.removeItem(at: folder) }
        let save = folder.appendingPathComponent("progress.json").path
        let shipped =
            #"{"adventure":"escape-from-blindness","completed":["cellar-door"],"current":"cellar-water","format":1}"#
        try Data((shipped + "\n").utf8).write(to: URL(fileURLWithPath: save))
        let other = try runEFB(
            ["pipe", "--seed", "1", "--clock", "virtual", "--adventure", Self.lanternPath, "--save", save],
            input: Self.lines(Self.toFirstLevel + [Self.solveFirst])
        )
        #expect(other.status == 0)
        #expect(!other.stdout.contains("save_failed"))
        let file = try SaveFile.decode(Array(Data(contentsOf: URL(fileURLWithPath: save))))
        #expect(
            file[adventure: "escape-from-blindness"]
                == SaveData(adventureID: "escape-from-blindness", completed: ["cellar-door"], current: "cellar-water")
        )
        #expect(file[adventure: "lantern-room"]?.completed == ["room-latch"])
        // The shipped game carries on where it was.
        let back = try runEFB(
            ["pipe", "--seed", "1", "--clock", "virtual", "--locale", "en", "--save", save],
            input: Self.lines([#"{"type":"state","id":1}"#])
        )
        #expect(back.stdout.contains(#""completed":["cellar-door"]"#) || back.stdout.contains("cellar-water"))
        #expect(!back.stdout.contains("save_unreadable"))
    }
}
