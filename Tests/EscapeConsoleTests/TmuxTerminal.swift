// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A terminal for end-to-end tests: a private tmux server running one program in a window of fixed size.
///
/// Keys go in with `send-keys`; the screen, scrollback included and wrapped lines joined, comes out with
/// `capture-pane`. Waiting is polling until the expected text shows, never a fixed sleep.
final class TmuxTerminal {
    /// Where tmux is, if it is installed.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Why a step could not be taken, with the screen as it was.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let tmux: String
    private let socket = "efb-test-\(UUID().uuidString)"
    private let folder: URL
    /// How many lines of the screen earlier steps already looked at.
    private var seen = 0
    /// The server's socket, which it leaves behind when killed.
    private var socketPath: String?

    /// Starts `command` (run by `sh`) in a detached session of `width` by `height` characters.
    ///
    /// When the command ends, the window says `[exited with status N]` and stays, so its last words can be read.
    init(command: String, width: Int = 120, height: Int = 50) throws {
        guard let tmux = Self.executable else { throw Failure(description: "tmux is not installed") }
        self.tmux = tmux
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = folder.appendingPathComponent("tmux.conf")
        try "set -g history-limit 100000\nset -g status off\n".write(
            to: configuration,
            atomically: true,
            encoding: .utf8
        )
        let script = "\(command); echo \"[exited with status $?]\"; sleep 3600"
        try run([
            "-f", configuration.path, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh", "-c", script,
        ])
        do {
            socketPath = try run(["display-message", "-p", "#{socket_path}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            stop()
            throw error
        }
    }

    /// Kills the tmux server and everything in it; safe to call more than once.
    func stop() {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
        if let socketPath { try? FileManager.default.removeItem(atPath: socketPath) }
    }

    /// Types `text` as it is, then Enter, as a person would.
    func type(_ text: String) throws {
        seen = max(0, lines().count - 1)  // The prompt line gets what is typed; look from there on.
        if !text.isEmpty { try run(["send-keys", "-t", "0", "-l", text]) }
        try run(["send-keys", "-t", "0", "Enter"])
    }

    /// Types `text` as it is, without Enter: a line half typed.
    func write(_ text: String) throws {
        seen = max(0, lines().count - 1)
        try run(["send-keys", "-t", "0", "-l", text])
    }

    /// Resizes the window, which sends the program SIGWINCH.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Sends bytes as they are, given in hexadecimal (`1b`, `c3`): part of a key, as a slow link
    /// might deliver it.
    func send(bytes: [String]) throws {
        try run(["send-keys", "-t", "0", "-H"] + bytes)
    }

    /// Copies every byte the program writes from now on to the end of the file at `path`, escape codes
    /// and all (tmux's `pipe-pane`), to check what a terminal was sent rather than what it shows.
    func record(to path: String) throws {
        let quoted = path.replacingOccurrences(of: "'", with: #"'\''"#)
        try run(["pipe-pane", "-t", "0", "-O", "cat >> '\(quoted)'"])
    }

    /// From the introduction of a new English game to the first door: escape skips the introduction,
    /// then Begin starts chapter 1.
    func enterTheFirstDoor() throws {
        try type("esc")
        try waitFor("3. Begin, button")
        try type("a 3")
        try waitFor("1 of 6: The First Door, heading")
    }

    /// Presses keys by their tmux names, such as `Up`, `C-a`, `PageUp` or `Enter`.
    func press(_ keys: String...) throws {
        try run(["send-keys", "-t", "0"] + keys)
    }

    /// Waits until every one of `texts` shows on a line of its own since the last command, and returns those lines.
    @discardableResult
    func waitFor(_ texts: String..., seconds: Double = 20) throws -> [String] {
        var recent: [String] = []
        let found = poll(seconds: seconds) {
            recent = Array(lines().dropFirst(seen))
            return texts.allSatisfy { text in Self.shows(text, in: recent) }
        }
        guard found else {
            let missing = texts.filter { text in !Self.shows(text, in: recent) }
            throw Failure(
                description: "waited \(seconds) s for \(missing) on the screen; it shows:\n"
                    + lines().joined(separator: "\n")
            )
        }
        return recent
    }

    /// Whether `text` is on one of `lines`, or on rows the console wrapped between words to the
    /// terminal's width (joined again with a space).
    static func shows(_ text: String, in lines: [String]) -> Bool {
        lines.contains { $0.contains(text) } || lines.joined(separator: " ").contains(text)
    }

    /// The whole screen and its scrollback, wrapped lines joined, without the blank rows below the text.
    func lines() -> [String] {
        guard let text = try? run(["capture-pane", "-p", "-J", "-S", "-", "-t", "0"]) else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Runs one tmux command against the private server and returns what it printed.
    ///
    /// It is started with `posix_spawn`, its output going to a file, and waited for with `waitpid`: the
    /// server that `new-session` forks inherits what the client holds, so neither a pipe's end nor
    /// Foundation's `Process`, which watches a descriptor the child inherits, would see the client finish.
    /// A command that does not finish in 30 seconds is killed and reported.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let file = folder.appendingPathComponent("output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        let argv: [UnsafeMutablePointer<CChar>?] = ([tmux, "-u", "-L", socket] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // The test runner blocks signals, and a child inherits that: the tmux server would never see the
        // SIGTERM that `kill-server` sends it. Start tmux with no signal blocked and the usual ones default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var usual = sigset_t()
        sigemptyset(&usual)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&usual, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &usual)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tmux, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "tmux could not be started (error \(spawned))") }
        var status: Int32 = 0
        let finished = poll(seconds: 30, interval: 0.002) { waitpid(pid, &status, WNOHANG) == pid }
        guard finished else {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) did not finish in 30 s")
        }
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (wait status \(status))")
        }
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }
}
