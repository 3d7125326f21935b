// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a host takes the time it gives its session: milliseconds on a monotonic scale.
public protocol GameClock: AnyObject {
    /// The current time in milliseconds.
    func now() -> Int64
    /// Whether the session's time moves only with `wait` (the clock is then read once, at the start).
    var isVirtual: Bool { get }
}

/// A virtual clock: the session keeps its own time, from `start`, and moves it only with `wait`.
public final class VirtualClock: GameClock {
    private let start: Int64

    /// Creates a clock starting at `start` milliseconds.
    public init(start: Int64 = 0) {
        self.start = start
    }

    /// The start time.
    public func now() -> Int64 { start }

    /// `true`.
    public var isVirtual: Bool { true }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), counted from the clock's creation.
public final class MonotonicClock: GameClock {
    private let origin: Int64

    /// Creates a clock reading 0 now.
    public init() {
        origin = Self.read()
    }

    /// Reads `CLOCK_MONOTONIC` (wraps `clock_gettime`), in milliseconds.
    private static func read() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds since the clock was created.
    public func now() -> Int64 { Self.read() - origin }

    /// `false`.
    public var isVirtual: Bool { false }
}
