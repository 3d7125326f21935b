#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor, whole: retried after signals and short writes.
public struct FileOutput: Sendable {
    /// The descriptor written to.
    public let descriptor: Int32

    /// Creates an output for `descriptor` (standard output by default).
    public init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
    }

    /// Writes all of `bytes` (wraps `write`).
    ///
    /// - Returns: `false` when the reader went away (EPIPE) or another error stopped the write.
    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// `write(2)`, under a name the method above does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
