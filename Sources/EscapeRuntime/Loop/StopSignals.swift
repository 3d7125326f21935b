import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The write end of the self-pipe that SIGINT and SIGTERM handlers write to; -1 until installed.
private let signalPipeWriter = Atomic<Int32>(-1)
/// Set when SIGINT or SIGTERM arrived.
private let stopRequested = Atomic<Bool>(false)

/// SIGINT and SIGTERM as a readable descriptor (a self-pipe), so the ``EventLoop`` wakes from `poll`
/// at once and ends the game cleanly (`ended`, `bye`) instead of being killed mid-write.
public enum StopSignals {
    /// The read end of the self-pipe, once ``install()`` ran.
    public private(set) nonisolated(unsafe) static var descriptor: Int32 = -1

    /// Installs the handlers, once per process, and unblocks the signals.
    ///
    /// A parent may have started us with them blocked. Wraps `pipe`, `fcntl`, `sigaction` and
    /// `pthread_sigmask`.
    public static func install() {
        guard signalPipeWriter.load(ordering: .acquiring) < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        signalPipeWriter.store(ends[1], ordering: .releasing)
        for signal in [SIGINT, SIGTERM] {
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
    public static var requested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Empties the self-pipe after it woke the loop.
    static func drain() {
        guard descriptor >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
