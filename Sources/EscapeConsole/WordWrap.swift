// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Breaks text into rows no wider than a terminal, between words, so that a reviewer reading row by
/// row hears whole words.
enum WordWrap {
    /// The number of columns of the terminal `descriptor` is, or `nil` when it is no terminal.
    ///
    /// Asked again each time (one `ioctl`), so a resized window (SIGWINCH) is followed from the next line on.
    static func columns(of descriptor: Int32) -> Int? {
        size(of: descriptor)?.columns
    }

    /// The columns and rows of the terminal `descriptor` is, or `nil` when it is no terminal (wraps
    /// `ioctl(TIOCGWINSZ)`); rows are 0 when the terminal does not say.
    static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// `text` in rows of at most `width` characters, broken at spaces.
    ///
    /// A word longer than a row is broken where the row ends. Spaces at a break are dropped.
    ///
    /// - Parameters:
    ///   - text: One line, without a terminator.
    ///   - width: The columns of a row; below 1, the text is left whole.
    /// - Returns: The rows, at least one.
    static func rows(_ text: String, width: Int) -> [String] {
        guard width > 0, text.count > width else { return [text] }
        var rows: [String] = []
        var row: [Character] = []
        var first = true
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Array(word)
            if first {
                first = false
            } else if row.count + 1 + word.count <= width {
                row += [" "] + word
                continue
            } else {
                rows.append(String(row))
            }
            while word.count > width {
                rows.append(String(word[..<width]))
                word.removeFirst(width)
            }
            row = word
        }
        rows.append(String(row))
        return rows
    }
}
