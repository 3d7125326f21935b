// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed `posix_spawn`, with its error number.
package struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value.
    package var code: Int32

    /// An error with its number.
    package init(code: Int32) {
        self.code = code
    }

    /// The system's words for it.
    package var description: String { String(cString: strerror(code)) }
}

/// Starts helper programs (a sound player, `spd-say`) that must not touch the game's terminal or
/// protocol: their standard input, output and error are /dev/null.
package enum QuietSpawn {
    /// Starts `executable` with `arguments` (the first is its name) without waiting for it (wraps
    /// `posix_spawn`).
    ///
    /// Every signal gets its default action and none is blocked in the child: the game ignores SIGPIPE
    /// and catches SIGINT and SIGTERM, and an ignored signal would stay ignored across `exec`.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments, its own name first.
    ///   - closing: Descriptors the child must not inherit (those without `FD_CLOEXEC`).
    ///   - ownProcessGroup: Whether the child leads a process group of its own, out of reach of the
    ///     terminal's Ctrl-C (the game stops it itself).
    /// - Returns: The process id, or the error number when it could not start.
    package static func start(
        _ executable: String,
        arguments: [String],
        closing: [Int32] = [],
        ownProcessGroup: Bool = false
    ) -> Result<Int32, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions,
                descriptor,
                "/dev/null",
                descriptor == 0 ? O_RDONLY : O_WRONLY,
                0
            )
        }
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
    }
}
