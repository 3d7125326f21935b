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
public enum WebToken {
    /// A new random token: 32 hexadecimal digits (128 bits from the system's generator).
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// The token kept at `path`, or a new one written there (made private to its owner).
    ///
    /// A file that cannot be read or written gives a new token that is not kept: the game still plays.
    public static func kept(at path: String) -> String {
        if let text = read(path), isValid(text) { return text }
        let token = random()
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return token }
        let bytes = Array(token.utf8)
        let written = write(descriptor, bytes, bytes.count)
        close(descriptor)
        if written != bytes.count || rename(temporary, path) != 0 { unlink(temporary) }
        return token
    }

    /// Whether `text` is a token this program made.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}
