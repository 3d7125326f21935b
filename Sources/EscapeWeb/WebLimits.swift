// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How many connections `efb web` holds, and how long one may take to ask.
///
/// A connection costs a descriptor; when the process runs out, more than the server fails (the
/// runtime's own threads and the save need descriptors too). So the server holds at most
/// ``connections`` at once, well below the descriptor limit, and a connection that has not finished
/// its request head after ``headerTimeout`` is closed. When the server is full, a new connection takes
/// the place of the oldest idle one (waiting for its first request head, or for another after an
/// answer), so that the player's page is served whatever a peer holds open; when none is idle (every
/// place is a page's WebSocket or a request being answered), the new connection is closed at once.
package struct WebLimits: Sendable, Hashable {
    /// The most connections held at once.
    package var connections: Int
    /// How long a connection may take to send its first request head.
    package var headerTimeout: Duration
    /// How long a connection may stay silent between requests (then a later head must come within it).
    package var idleTimeout: Duration

    /// Creates limits.
    package init(connections: Int, headerTimeout: Duration = .seconds(5), idleTimeout: Duration = .seconds(15)) {
        self.connections = connections
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    /// Descriptors kept for the rest of the process: standard streams, the event loops, the game's
    /// self-pipe, the save and its lock, sound players, and the connections accepted in one go.
    package static let reserve = 64

    /// The most connections whatever the descriptor limit: each costs memory too.
    package static let ceiling = 4096

    /// The limits for a process allowed `descriptors` open descriptors.
    ///
    /// - Parameter descriptors: The soft `RLIMIT_NOFILE`.
    /// - Returns: At most `descriptors - reserve` connections (and at least 8), at most ``ceiling``.
    package static func forDescriptors(_ descriptors: Int) -> WebLimits {
        WebLimits(connections: max(8, min(descriptors - reserve, ceiling)))
    }

    /// The limits for this process's soft descriptor limit (`getrlimit(RLIMIT_NOFILE)`).
    package static var current: WebLimits {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return forDescriptors(1024) }
        // RLIM_INFINITY is all ones, which Int(clamping:) takes as more than the ceiling.
        return forDescriptors(Int(clamping: limit.rlim_cur))
    }
}

/// Which connections the server holds, in the order they came, and which are idle (waiting for a
/// request head, the first or a later one): pure bookkeeping, the server closes what it says.
struct ConnectionTable: Sendable {
    /// What a new connection gets.
    enum Admission: Sendable, Hashable {
        /// It is held.
        case admitted
        /// It is held in place of the connection `evicted`, which the server closes.
        case admittedInPlaceOf(evicted: Int)
        /// Every held connection has a request in hand or is a WebSocket: it is closed at once.
        case refused
    }

    let capacity: Int
    /// The held connections, each with whether it is idle.
    private var idle: [Int: Bool] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many connections are held.
    var count: Int { idle.count }

    /// Takes connection `id` (ids grow with time), in place of the oldest idle one when full.
    mutating func admit(_ id: Int) -> Admission {
        guard idle.count >= capacity else {
            idle[id] = true
            return .admitted
        }
        guard let oldest = idle.filter(\.value).keys.min() else { return .refused }
        idle[oldest] = nil
        idle[id] = true
        return .admittedInPlaceOf(evicted: oldest)
    }

    /// Connection `id` sent a request head (or became a WebSocket): it keeps its place.
    mutating func asked(_ id: Int) {
        if idle[id] != nil { idle[id] = false }
    }

    /// Connection `id` was answered and waits for another request: its place may be taken.
    mutating func answered(_ id: Int) {
        if idle[id] != nil { idle[id] = true }
    }

    /// Connection `id` closed.
    mutating func release(_ id: Int) {
        idle[id] = nil
    }
}
