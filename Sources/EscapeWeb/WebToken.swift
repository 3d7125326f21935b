// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The secret in the URL `efb web` prints.
///
/// It is kept in a file (mode 0600) beside the save, so that a page left open finds its way back when
/// the server starts again on the same port: the cookie it holds is still good. A game kept in memory
/// gets a new token each time.
package enum WebToken {
    /// A new random token: 32 hexadecimal digits (128 bits from the system's generator).
    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// The token kept at `path`, or a new one written there (mode 0600).
    ///
    /// The file is taken only if it is a regular file of this user's that no one else may read or
    /// write (mode 0600 or stricter), opened without following a symbolic link: on a shared machine
    /// another user could plant one beside `--save /tmp/x.json`, and a page opened with a token they
    /// know is theirs to drive. Such a file is replaced by a new token, and `onRefused` says why.
    /// A file that cannot be read or written gives a new token that is not kept: the game still plays.
    ///
    /// - Parameters:
    ///   - path: The token file.
    ///   - onRefused: Called with a sentence when a file at `path` was not taken.
    /// - Returns: The token.
    package static func kept(at path: String, onRefused: (String) -> Void = { _ in }) -> String {
        switch read(path) {
        case .kept(let token):
            return token
        case .absent:
            break
        case .refused(let reason):
            onRefused("\(path) \(reason): a new token replaces it.")
        }
        let token = random()
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return token }
        let bytes = Array(token.utf8)
        let written = write(descriptor, bytes, bytes.count)
        let madePrivate = fchmod(descriptor, 0o600) == 0
        close(descriptor)
        if written != bytes.count || !madePrivate || rename(temporary, path) != 0 { unlink(temporary) }
        return token
    }

    /// What a token file held.
    enum Reading: Sendable, Hashable {
        /// A token, in a file that may be trusted.
        case kept(String)
        /// No file.
        case absent
        /// A file that is not taken, and why (a phrase following the path).
        case refused(String)
    }

    /// Reads the token at `path` (wraps `open` with `O_NOFOLLOW`, `fstat` and `read`).
    static func read(_ path: String) -> Reading {
        // O_NONBLOCK: a FIFO planted there must not hang the start.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .absent
            case ELOOP: return .refused("is a symbolic link")
            default: return .refused("cannot be read (\(String(cString: strerror(errno))))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .refused("cannot be examined") }
        guard status.st_mode & S_IFMT == S_IFREG else { return .refused("is not a regular file") }
        guard status.st_uid == geteuid() else { return .refused("belongs to another user") }
        guard status.st_mode & 0o077 == 0 else { return .refused("may be read or written by others (mode not 0600)") }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return .refused("is empty") }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace
        return isValid(text) ? .kept(text) : .refused("does not hold a token")
    }

    /// Whether `text` is a token this program made.
    package static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}
