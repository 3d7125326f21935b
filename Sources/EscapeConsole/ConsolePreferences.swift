// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The console player's preferences, kept in a small text file beside the save: today, whether timed
/// levels run with a clock (`clock off` and `clock on` write it, the next game starts with it).
///
/// The file holds lines `NAME VALUE`; unknown lines are ignored, so a newer game's file still reads.
/// It is written whole to a temporary file and renamed, so it is never half written.
package struct ConsolePreferences: Sendable, Hashable {
    /// The file.
    package let path: String

    /// Preferences kept in `path`.
    package init(path: String) {
        self.path = path
    }

    /// The preferences beside a save file: `console-preferences` in its folder.
    ///
    /// - Parameter save: The save file's path.
    /// - Returns: The preferences.
    package static func beside(save: String) -> ConsolePreferences {
        guard let slash = save.lastIndex(of: "/") else { return ConsolePreferences(path: "console-preferences") }
        return ConsolePreferences(path: save[...slash] + "console-preferences")
    }

    /// Whether timed levels run with a clock, if the player said (reads the file).
    package var timePressure: Bool? {
        for line in contents().split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "time-pressure" else { continue }
            if words[1] == "on" { return true }
            if words[1] == "off" { return false }
        }
        return nil
    }

    /// Keeps the player's choice for timed levels (writes the file; wraps `open`, `write`, `rename`).
    ///
    /// - Parameter on: Whether timed levels run with a clock.
    /// - Returns: `false` when the file could not be written; the game goes on without it.
    @discardableResult
    package func keep(timePressure on: Bool) -> Bool {
        let bytes = Array("time-pressure \(on ? "on" : "off")\n".utf8)
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// The file's text, or nothing when it cannot be read (at most 4 KiB: it is a few lines).
    private func contents() -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }
}
