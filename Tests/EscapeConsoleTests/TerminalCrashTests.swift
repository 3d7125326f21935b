// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 23, item 2: a crash at a real terminal (tmux) ends with one plain line and the exit status;
/// before, Swift's backtracer printed pages of frames and then waited 30 s at an interactive prompt.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalCrashTests {
    @Test(arguments: [(SIGSEGV, "SIGSEGV"), (SIGILL, "SIGILL"), (SIGABRT, "SIGABRT")])
    func aCrashEndsWithAPlainLineAndTheExitStatus(signal: Int32, name: String) throws {
        let game = try SavedGame(at: "stones-memory")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("pid").path
        let script = folder.appendingPathComponent("run.sh")
        try "echo $$ > '\(pidFile)'\nexec \(game.command("--locale en"))\n".write(
            to: script,
            atomically: true,
            encoding: .utf8
        )
        let terminal = try TmuxTerminal(command: "sh '\(script.path)'", width: 100, height: 40)
        defer { terminal.stop() }
        try terminal.waitFor("1 of 4: The Stone of Memory, heading")
        try terminal.write("half typed")
        let written = try String(contentsOfFile: pidFile, encoding: .utf8)
        let pid = try #require(Int32(written.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, signal) == 0)
        let status = 128 + signal
        let lines = try terminal.waitFor(
            "efb stopped on an internal error (\(name)). Your progress is saved up to the last door you opened. "
                + "Exit status \(status).",
            "[exited with status \(status)]"
        )
        #expect(!lines.contains { $0.contains("Press space to interact") || $0.contains("Backtrace") })
        // The terminal was given back as it was: the shell's echo works again.
        try terminal.type("")
    }
}
