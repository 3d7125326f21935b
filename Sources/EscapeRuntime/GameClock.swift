#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time source a session gives the engine: milliseconds on a monotonic scale.
public protocol GameClock: AnyObject {
    /// The current time in milliseconds.
    func now() -> Int64
    /// Lets `milliseconds` pass: a virtual clock jumps, a real one sleeps.
    func wait(milliseconds: Int)
    /// Whether time moves only with ``wait(milliseconds:)``.
    var isVirtual: Bool { get }
}

/// A clock that moves only when told to, so tests and bots replay byte for byte.
public final class VirtualClock: GameClock {
    private var time: Int64

    /// Creates a clock at `start` milliseconds.
    public init(start: Int64 = 0) {
        time = start
    }

    /// The virtual time.
    public func now() -> Int64 { time }

    /// Moves the time forward at once.
    public func wait(milliseconds: Int) {
        time += Int64(milliseconds)
    }

    /// `true`.
    public var isVirtual: Bool { true }

    /// Sets the time, as a restored snapshot says it was.
    public func reset(to time: Int64) {
        self.time = time
    }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), counted from the clock's creation.
public final class MonotonicClock: GameClock {
    private let origin: Int64

    /// Creates a clock reading 0 now.
    public init() {
        origin = Self.read()
    }

    private static func read() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds since the clock was created.
    public func now() -> Int64 { Self.read() - origin }

    /// Sleeps (wraps `nanosleep`, resuming after signals).
    public func wait(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR {
            request = remaining
        }
    }

    /// `false`.
    public var isVirtual: Bool { false }
}
