// SPDX-License-Identifier: Apache-2.0
package import EscapeRuntime

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a finished child process ended.
package enum ChildExit: Sendable, Hashable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// Whether it exited with status 0.
    package var succeeded: Bool { self == .exited(0) }
}

/// Starts, watches and stops the player's processes: the seam between ``SoundPlayer`` and the system.
///
/// None of its methods waits for a process that is still playing, except ``stop(_:)``, which waits
/// only for a process it has just asked to end.
package protocol ChildProcesses: AnyObject {
    /// Starts `arguments` (a program's path, then its arguments) without waiting for it.
    ///
    /// - Returns: The process id, or the error number when it could not start.
    func start(_ arguments: [String]) -> Result<Int32, SpawnError>
    /// Whether `pid` has ended, reaping it if so; `nil` while it runs.
    func exit(of pid: Int32) -> ChildExit?
    /// Ends `pid` (SIGTERM, then SIGKILL if it lingers) and reaps it.
    func stop(_ pid: Int32)
}

/// Child processes of this process, started with `posix_spawn` and reaped with `waitpid`.
///
/// A child starts with its standard streams on `/dev/null` (so nothing it says lands among the game's
/// lines, and it never reads what the player types), with no other descriptor of ours (those without
/// close-on-exec are closed in the child), in a process group of its own (a Ctrl-C at the terminal is the
/// game's to handle, and stopping it stops what it started), with the default action for every signal
/// and none blocked.
package final class SpawnedProcesses: ChildProcesses {
    /// Creates the launcher.
    package init() {}

    /// Wraps `posix_spawn`: quiet, in a process group of its own, inheriting none of our descriptors.
    package func start(_ arguments: [String]) -> Result<Int32, SpawnError> {
        QuietSpawn.start(arguments[0], arguments: arguments, closing: Self.inheritable(), ownProcessGroup: true)
    }

    /// Our descriptors above the standard three that an `exec` would keep open (no `FD_CLOEXEC`), read
    /// from `/proc/self/fd` (wraps `fcntl`).
    private static func inheritable() -> [Int32] {
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return listed.compactMap(Int32.init).filter { descriptor in
            guard descriptor > 2 else { return false }
            let flags = fcntl(descriptor, F_GETFD)
            return flags >= 0 && flags & FD_CLOEXEC == 0
        }
    }

    /// Wraps `waitpid` with `WNOHANG`.
    package func exit(of pid: Int32) -> ChildExit? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == 0 || (result < 0 && errno == EINTR) { return nil }
        // Gone without a status (ECHILD: reaped already) counts as ended.
        guard result == pid else { return .signalled(0) }
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros: the low seven bits hold a terminating signal,
        // the next eight the exit status.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// Wraps `kill` and `waitpid`: SIGTERM to the child's process group (a shell player's own children
    /// too), SIGKILL to the group if the child has not ended at once, then a wait that SIGKILL bounds.
    ///
    /// Nothing sleeps: a stopped sound is one that must go silent now, and a player that ignores SIGTERM
    /// (or a shell that waits for its own child) cannot hold the game up.
    package func stop(_ pid: Int32) {
        guard exit(of: pid) == nil else { return }
        kill(-pid, SIGTERM)
        if exit(of: pid) != nil {
            kill(-pid, SIGKILL)  // what the child started, if it outlived it
            return
        }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
