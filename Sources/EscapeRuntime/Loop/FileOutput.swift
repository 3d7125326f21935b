// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor: whole, or as much as it takes now.
package struct FileOutput: Sendable {
    /// The descriptor written to.
    package let descriptor: Int32

    /// Creates an output for `descriptor` (standard output by default).
    package init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
    }

    /// Writes all of `bytes` (wraps `write`) to a blocking descriptor (a file, a terminal), retried
    /// after signals and short writes.
    ///
    /// It never waits for a non-blocking descriptor: one that is full ends the write, as an error does.
    /// Front ends that write to such a descriptor use ``writeAvailable(_:from:)`` and let the
    /// ``EventLoop`` wake them when it can take more.
    ///
    /// - Returns: `false` when the reader went away (EPIPE), a non-blocking descriptor was full, or
    ///   another error stopped the write.
    package func write(_ bytes: [UInt8]) -> Bool {
        writeAvailable(bytes, from: 0) == bytes.count
    }

    /// Writes what the descriptor takes now of `bytes[offset...]` (wraps `write`): all of it on a
    /// blocking descriptor, up to its first `EAGAIN` on a non-blocking one.
    ///
    /// - Returns: The offset of the first byte not written; `nil` when the reader went away (EPIPE)
    ///   or another error stopped the write.
    package func writeAvailable(_ bytes: [UInt8], from offset: Int) -> Int? {
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
