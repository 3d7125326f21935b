// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The write end of the self-pipe that the stop signals' handler writes to; -1 until installed.
private let signalPipeWriter = Atomic<Int32>(-1)
/// Set when a stop signal arrived.
private let stopRequested = Atomic<Bool>(false)

/// SIGINT, SIGTERM and SIGHUP as a readable descriptor (a self-pipe), so the ``EventLoop`` wakes from
/// `poll` at once and ends the game cleanly (`ended`, `bye`, the socket file removed) instead of being
/// killed mid-write.
///
/// A closed terminal sends SIGHUP: it ends the game as SIGTERM does. A signal that comes while the
/// program starts, before the handlers exist, must not kill it either: ``hold()`` blocks the signals
/// first thing, and ``install()`` (or ``release()``, for a command that plays no game) unblocks them,
/// so a signal that came in between is handled then.
package enum StopSignals {
    /// The signals that stop a game.
    package static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the stop signals until ``install()`` or ``release()``: called first thing at start, so a
    /// signal that comes before the handlers exist waits for them instead of killing the process.
    ///
    /// The mask is kept across `exec`, so `efb` holds them for the whole program it hands over to.
    /// Wraps `pthread_sigmask`.
    package static func hold() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Unblocks the stop signals with their default actions, for a command that plays no game (a signal
    /// held since the start then ends the process as usual).
    package static func release() {
        guard signalPipeWriter.load(ordering: .acquiring) < 0 else { return }
        var set = signalSet()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }

    /// The read end of the self-pipe, once ``install()`` ran.
    package private(set) nonisolated(unsafe) static var descriptor: Int32 = -1

    /// Installs the handlers, once per process, and unblocks the signals.
    ///
    /// A parent may have started us with them blocked. A SIGHUP that the parent ignores (`nohup`)
    /// stays ignored. Wraps `pipe`, `fcntl`, `sigaction` and `pthread_sigmask`.
    package static func install() {
        guard signalPipeWriter.load(ordering: .acquiring) < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        signalPipeWriter.store(ends[1], ordering: .releasing)
        for signal in signals {
            var current = sigaction()
            let ignored =
                sigaction(signal, nil, &current) == 0
                && unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
            if signal == SIGHUP && ignored { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                stopRequested.store(true, ordering: .relaxed)
                var byte: UInt8 = 1
                _ = write(signalPipeWriter.load(ordering: .relaxed), &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocking call returns EINTR
            sigaction(signal, &action, nil)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, signal)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// Whether a stop was asked for.
    package static var requested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Empties the self-pipe after it woke the loop.
    static func drain() {
        guard descriptor >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
