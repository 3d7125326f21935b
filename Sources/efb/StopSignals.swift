import Foundation
import Synchronization

/// Set when SIGINT or SIGTERM arrives, so a front end can stop cleanly between two steps.
private let stopRequested = Atomic<Bool>(false)

/// SIGINT and SIGTERM as a flag a front end polls, instead of ending the process mid-write.
enum StopSignals {
    /// Installs the handlers and unblocks the signals (a parent may have started us with them blocked).
    static func install() {
        for signal in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in stopRequested.store(true, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: poll returns EINTR and the loop sees the flag
            sigaction(signal, &action, nil)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, signal)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// Whether a stop was asked for.
    static var requested: Bool { stopRequested.load(ordering: .relaxed) }
}
