// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the web server's threads and the one game loop meet.
///
/// The server (Hummingbird, on SwiftNIO's threads and Swift concurrency) never touches the game: it
/// puts what the browser tabs do (a tab opened, a message, a tab closed) in a locked queue and writes
/// one byte to a self-pipe. The ``EventLoop`` polls the pipe's reading end among the front end's
/// descriptors, so it wakes, and ``WebFrontEnd`` takes the queue in the loop's own thread. The other
/// way, the front end hands each tab's text to that tab's ``Outbox``, which the server's task for the
/// tab writes to its WebSocket.
package final class WebBridge: Sendable {
    /// What a tab did, in the order it happened.
    package enum Arrival: Sendable {
        /// A tab connected; `client` is the page's own name for itself, kept across reloads.
        case opened(tab: Int, client: String, outbox: Outbox)
        /// A tab sent a text message.
        case message(tab: Int, text: String)
        /// A tab's connection ended.
        case closed(tab: Int)
    }

    /// Text on its way to one tab: it yields to the stream the server writes to the tab's socket.
    package struct Outbox: Sendable {
        private let continuation: AsyncStream<String>.Continuation

        /// An outbox and the stream it fills, holding at most `limit` messages not yet written.
        package static func make(limit: Int = 4096) -> (Outbox, AsyncStream<String>) {
            let (stream, continuation) = AsyncStream.makeStream(
                of: String.self,
                bufferingPolicy: .bufferingOldest(limit)
            )
            return (Outbox(continuation: continuation), stream)
        }

        /// Queues `text`; `false` when the tab let too much pile up or is gone.
        @discardableResult
        package func send(_ text: String) -> Bool {
            if case .enqueued = continuation.yield(text) { return true }
            return false
        }

        /// Ends the stream: the server closes the tab's socket once what was queued is written.
        package func finish() {
            continuation.finish()
        }
    }

    private struct State {
        var arrivals: [Arrival] = []
        var nextTab = 1
        var woken = false
    }

    private let state = Mutex(State())
    /// The self-pipe's reading end, polled by the loop.
    package let descriptor: Int32
    private let writingEnd: Int32

    /// Creates a bridge and its self-pipe.
    package init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            fatalError("efb web: no self-pipe (\(String(cString: strerror(errno))))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writingEnd = ends[1]
    }

    deinit {
        Glibc.close(descriptor)
        Glibc.close(writingEnd)
    }

    /// A tab connected (server side): returns its number.
    package func open(client: String, outbox: Outbox) -> Int {
        let tab = state.withLock { state in
            let tab = state.nextTab
            state.nextTab += 1
            state.arrivals.append(.opened(tab: tab, client: client, outbox: outbox))
            return tab
        }
        wake()
        return tab
    }

    /// A tab sent `text` (server side).
    package func receive(_ text: String, from tab: Int) {
        state.withLock { $0.arrivals.append(.message(tab: tab, text: text)) }
        wake()
    }

    /// A tab's connection ended (server side).
    package func close(tab: Int) {
        state.withLock { $0.arrivals.append(.closed(tab: tab)) }
        wake()
    }

    /// Takes what arrived since the last call (loop side), emptying the self-pipe.
    package func take() -> [Arrival] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
        return state.withLock { state in
            state.woken = false
            defer { state.arrivals.removeAll() }
            return state.arrivals
        }
    }

    /// One byte in the pipe per batch of arrivals: the loop takes them all at once.
    private func wake() {
        let needed = state.withLock { state in
            defer { state.woken = true }
            return !state.woken
        }
        guard needed else { return }
        var byte: UInt8 = 1
        _ = write(writingEnd, &byte, 1)
    }
}
