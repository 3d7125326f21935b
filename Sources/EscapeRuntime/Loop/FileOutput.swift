#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor: whole, or as much as it takes now.
public struct FileOutput: Sendable {
    /// The descriptor written to.
    public let descriptor: Int32

    /// Creates an output for `descriptor` (standard output by default).
    public init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
    }

    /// Writes all of `bytes` (wraps `write`), retried after signals and short writes.
    ///
    /// On a non-blocking descriptor that is full it waits with `poll` until the descriptor can take
    /// more, instead of retrying at once.
    ///
    /// - Returns: `false` when the reader went away (EPIPE) or another error stopped the write.
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let written = writeAvailable(bytes, from: offset) else { return false }
            if written == offset {
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&entry, 1, -1) < 0 && errno != EINTR { return false }
            }
            offset = written
        }
        return true
    }

    /// Writes what the descriptor takes now of `bytes[offset...]` (wraps `write`): all of it on a
    /// blocking descriptor, up to its first `EAGAIN` on a non-blocking one.
    ///
    /// - Returns: The offset of the first byte not written; `nil` when the reader went away (EPIPE)
    ///   or another error stopped the write.
    public func writeAvailable(_ bytes: [UInt8], from offset: Int) -> Int? {
        var offset = offset
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return offset }
                return nil
            }
            offset += written
        }
        return offset
    }
}

/// `write(2)`, under a name the method above does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
