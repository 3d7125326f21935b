// SPDX-License-Identifier: Apache-2.0
import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Speech through Speech Dispatcher's `spd-say` (Debian package `speech-dispatcher`).
///
/// Each call starts one `spd-say` and does not wait for it; finished ones are reaped on the next call. Its
/// standard streams go to `/dev/null`, so nothing it prints lands in the game's terminal. The first time
/// one fails, the player is told once, through `report`, and the game goes on.
public final class SpeechDispatcher: Speaker {
    /// What to tell a player who asked for speech on a machine without `spd-say`.
    public static let notInstalled =
        "efb: --speech needs spd-say from Speech Dispatcher, which is not installed; "
        + "install it with: sudo apt install speech-dispatcher. Playing on without speech."

    private let executable: String
    private let report: (String) -> Void
    private var running: [pid_t] = []
    private var reported = false

    /// Finds `spd-say` on a search path.
    ///
    /// - Parameter searchPath: A `PATH`-style list of folders (`PATH` of the environment when `nil`).
    /// - Returns: The executable's path, or `nil` when none of the folders has it.
    public static func locate(searchPath: String? = nil) -> String? {
        let path = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = String(folder) + "/spd-say"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Creates a speaker.
    ///
    /// - Parameters:
    ///   - executable: The path of `spd-say`, as ``locate(searchPath:)`` found it.
    ///   - report: Where a failure is told, once, in one line.
    public init(executable: String, report: @escaping (String) -> Void) {
        self.executable = executable
        self.report = report
    }

    /// Starts `spd-say` with the text (wraps `posix_spawn`).
    public func speak(_ text: String, language: String?) {
        reap()
        var arguments = ["spd-say", "--application-name", "efb"]
        if let language, !language.isEmpty { arguments += ["--language", language] }
        // spd-say passes its text to a printf-style function, and options end at `--`.
        arguments += ["--", text.replacing("%", with: "%%")]
        switch spawn(arguments) {
        case .success(let pid): running.append(pid)
        case .failure(let error):
            tell("efb: speech: spd-say could not be started (\(String(cString: strerror(error.code))))")
        }
    }

    /// Collects the `spd-say` processes that have finished, and tells of the first that failed.
    public func reap() {
        running.removeAll { pid in
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            guard result == pid else { return result < 0 }
            // WIFEXITED and WEXITSTATUS are macros: the low seven bits hold a terminating signal, the next
            // eight the exit status.
            let signal = status & 0x7F
            let exitStatus = (status >> 8) & 0xFF
            if signal != 0 || exitStatus != 0 {
                tell(
                    "efb: speech: spd-say failed (\(signal != 0 ? "signal \(signal)" : "exit status \(exitStatus)")); "
                        + "check that Speech Dispatcher works with: spd-say hello"
                )
            }
            return true
        }
    }

    private func tell(_ message: String) {
        guard !reported else { return }
        reported = true
        report(message)
    }

    private func spawn(_ arguments: [String]) -> Result<pid_t, SpawnError> {
        QuietSpawn.start(executable, arguments: arguments)
    }
}
