// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Lines waiting for a socket, written without blocking: what a served game keeps for each client and
/// what a joined front end keeps for the server.
struct SocketOutput {
    /// The bytes not written yet.
    var bytes: [UInt8] = []

    /// Writes what the socket takes now (`send` with MSG_NOSIGNAL, retried after signals).
    ///
    /// - Parameter descriptor: The socket, non-blocking.
    /// - Returns: `false` when the socket failed (the peer went away); `true` when all was written or
    ///   the socket is full.
    mutating func write(to descriptor: Int32) -> Bool {
        var offset = 0
        defer { if offset > 0 { bytes.removeFirst(offset) } }
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            offset += written
        }
        return true
    }
}
