// SPDX-License-Identifier: Apache-2.0
import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one runtime loop: it waits for a front end's input and the session's deadlines, hands what
/// happens to the session, and carries out what the session asks, for every front end.
///
/// The session is a ``GameHost``: one in this process, or a game `efb serve` shares (``RemoteHost``),
/// whose events arrive on its socket and are shown as they come.
///
/// Each turn it writes out what was shown, then waits with `poll` on the front end's descriptors and
/// the stop signals' self-pipe, for at most the time to the nearest deadline (the session's: a hint,
/// a time announcement, the end of a real-clock `wait`; the front end's: a message timing out, a
/// reconnection). SIGINT or SIGTERM ends the game with `ended` and `bye`, looked at before every input
/// (so a long read stops between two lines); the end of the input ends it with a pending `wait` cut
/// short; a closed output ends the loop at once. While the game can take no more input (a real-clock
/// `wait` holding as many lines as it keeps), the front end's command descriptors are not read: the
/// lines wait in the kernel and their writer is held up (back-pressure). They are still watched for
/// their end (a writer that closed, a regular file's end always at hand), which cuts the `wait` short.
///
/// This is the only place in the program that calls `poll`.
package struct EventLoop {
    /// How a run ended.
    package enum Outcome: Sendable, Hashable {
        /// The session finished (`quit`, the end of input, or a stop signal once the game had started).
        case finished
        /// The output went away (EPIPE): nothing more could be shown.
        case outputClosed
        /// Stopped by a signal before the game started (while waiting for the front end).
        case stoppedBeforeStart
        /// `pauseWhen` said so; the session is left as it is, and another run goes on with it.
        case paused
    }

    private let host: any GameHost
    private let frontEnd: any FrontEnd
    private let clock: any GameClock
    private let pauseWhen: () -> Bool

    /// Creates a loop.
    ///
    /// - Parameters:
    ///   - host: The game: a session, its clock and its save, or a game served elsewhere.
    ///   - frontEnd: The front end to drive.
    ///   - clock: The front end's clock, for its own deadlines (a ``MonotonicClock``).
    ///   - pauseWhen: Asked every turn: `true` ends the run and leaves the session as it is, for
    ///     another run to go on with (tests step a front end this way).
    package init(
        host: any GameHost,
        frontEnd: any FrontEnd,
        clock: any GameClock = MonotonicClock(),
        pauseWhen: @escaping () -> Bool = { false }
    ) {
        self.host = host
        self.frontEnd = frontEnd
        self.clock = clock
        self.pauseWhen = pauseWhen
    }

    /// Runs until the session finishes, the output closes, or a stop comes before the game started.
    @discardableResult
    package func run() -> Outcome {
        // What was answered is out before each save is written (a save may fail, or a file-size limit
        // end the process), not only once per read.
        if let local = host as? SessionHost {
            local.showBeforeSave = { [frontEnd, clock] events in
                frontEnd.show(events, now: clock.now())
                frontEnd.flush(now: clock.now())
            }
            local.keepSnapshot = { [frontEnd] snapshot, request in frontEnd.keep(snapshot, for: request) }
        }
        let submit: (SessionInput) -> Void = { input in
            guard !host.isFinished else { return }
            // A stop is acted on between two lines, not after everything one read brought.
            if StopSignals.requested, host.hasStarted, input != .stop {
                frontEnd.show(host.handle(.stop), now: clock.now())
                return
            }
            frontEnd.show(host.handle(input), now: clock.now())
        }
        while true {
            if StopSignals.requested {
                guard host.hasStarted else { return .stoppedBeforeStart }
                submit(.stop)
            }
            if !host.hasStarted && frontEnd.isReady {
                submit(.start)
                for input in frontEnd.opening() { submit(input) }
            }
            let started = host.hasStarted
            if started, let deadline = host.nextDeadline, host.now >= deadline { submit(.time) }
            host.flush()
            frontEnd.flush(now: clock.now())
            if frontEnd.isClosed { return .outputClosed }
            let finished = host.isFinished
            if finished {
                finishWriting()
                // A front end with something still to show (a farewell read until a key) is served on.
                guard frontEnd.lingers, !StopSignals.requested, !frontEnd.isClosed else { return .finished }
            }
            if pauseWhen() { return .paused }
            let (readable, ending) = wait(started: started, finished: finished)
            if !finished {
                let arrived = host.service(readable: readable)
                if !arrived.isEmpty { frontEnd.show(arrived, now: clock.now()) }
                if !ending.isEmpty { frontEnd.heldInputEnds(ending, now: clock.now(), submit: submit) }
            }
            frontEnd.service(readable: readable, now: clock.now(), submit: submit)
        }
    }

    /// Gives what the front end still has to write (its last events) up to its
    /// ``FrontEnd/finishingMilliseconds`` to reach an output that takes it slowly.
    private func finishWriting() {
        let end = clock.now() + frontEnd.finishingMilliseconds
        while !frontEnd.isClosed, !frontEnd.writeDescriptors.isEmpty {
            let left = end - clock.now()
            guard left > 0 else { return }
            var entries = frontEnd.writeDescriptors.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            if poll(&entries, nfds_t(entries.count), Int32(clamping: left)) < 0 && errno != EINTR { return }
            frontEnd.flush(now: clock.now())
        }
    }

    /// Waits for input, a signal or the nearest deadline.
    ///
    /// Once the game `finished`, only the front end is waited on: the host has nothing more to say.
    /// The command descriptors held back (the host takes no more input) are not read but still
    /// watched for their end: a pipe or socket that hung up, or a regular file, whose end is always
    /// at hand (all its lines are there to read).
    ///
    /// - Returns: The descriptors that have input, and the held ones whose input will end.
    private func wait(started: Bool, finished: Bool) -> (readable: Set<Int32>, ending: Set<Int32>) {
        let held = host.acceptsInput || finished ? [] : Set(frontEnd.commandDescriptors)
        let files = held.filter(Self.isRegularFile)
        var timeouts: [Int64] = []
        if started, !finished, let deadline = host.nextDeadline { timeouts.append(deadline - host.now) }
        if let deadline = frontEnd.deadline { timeouts.append(deadline - clock.now()) }
        if !files.isEmpty { timeouts.append(0) }
        let timeout = timeouts.min().map { Int32(clamping: max(0, $0)) } ?? -1
        let hostDescriptors = finished ? [] : host.descriptors
        var entries = (frontEnd.descriptors.filter { !held.contains($0) } + hostDescriptors).map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        // Not read, so no POLLIN: a hang-up (POLLHUP, or POLLRDHUP when a socket's peer stopped
        // writing) is reported all the same.
        let watched = held.subtracting(files).sorted()
        entries += watched.map { pollfd(fd: $0, events: Int16(Self.peerHungUp), revents: 0) }
        for descriptor in frontEnd.writeDescriptors + (finished ? [] : host.writeDescriptors) {
            if let index = entries.firstIndex(where: { $0.fd == descriptor }) {
                entries[index].events |= Int16(POLLOUT)
            } else {
                entries.append(pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0))
            }
        }
        if StopSignals.descriptor >= 0 {
            entries.append(pollfd(fd: StopSignals.descriptor, events: Int16(POLLIN), revents: 0))
        }
        let ready = poll(&entries, nfds_t(entries.count), timeout)
        // A timeout, or EINTR: the next turn looks again.
        guard ready > 0 else { return ([], files) }
        var readable: Set<Int32> = []
        var ending = files
        // A descriptor that can only take output is not readable: the next turn's flush writes to it.
        for entry in entries where entry.revents & ~Int16(POLLOUT) != 0 {
            if entry.fd == StopSignals.descriptor {
                StopSignals.drain()
            } else if held.contains(entry.fd) {
                ending.insert(entry.fd)
            } else {
                readable.insert(entry.fd)
            }
        }
        return (readable, ending)
    }

    /// What `poll` reports when a peer hung up: `POLLRDHUP` (a socket's peer shut its writing down),
    /// which Glibc declares only under `_GNU_SOURCE`.
    private static let peerHungUp: Int32 = 0x2000

    /// Whether `descriptor` is a regular file (wraps `fstat`).
    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
