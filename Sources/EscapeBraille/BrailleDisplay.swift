// SPDX-License-Identifier: Apache-2.0
/// How many cells a Braille display has.
package struct DisplaySize: Sendable, Hashable, CustomStringConvertible {
    /// Cells in a row.
    package var columns: Int
    /// Rows of cells.
    package var rows: Int

    /// Creates a size.
    package init(columns: Int, rows: Int = 1) {
        self.columns = columns
        self.rows = rows
    }

    /// Every cell of the display.
    package var cells: Int { columns * rows }

    /// The size in words, like "40 cells".
    package var description: String { rows == 1 ? "\(columns) cells" : "\(columns)×\(rows) cells" }
}

/// What the whole display shows: one character per cell, row after row, and the caret.
package struct BrailleFrame: Sendable, Hashable {
    /// Exactly one character per cell, rows concatenated.
    package var cells: [Character]
    /// The 0-based cell that shows the caret, or `nil` for none.
    package var cursor: Int?

    /// Creates a frame.
    package init(cells: [Character], cursor: Int? = nil) {
        self.cells = cells
        self.cursor = cursor
    }

    /// The frame as text, trailing blanks included.
    package var text: String { String(cells) }
}

/// Why talking to the display failed.
package enum BrailleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// BRLTTY could not be reached (not running, wrong host).
    case unreachable(String)
    /// BRLTTY refused our credentials.
    case authentication(String)
    /// The connection was lost (BRLTTY stopped, the display went away).
    case disconnected(String)
    /// Any other failure of a BrlAPI call.
    case failed(operation: String, message: String)

    /// The failure in words.
    package var description: String {
        switch self {
        case .unreachable(let message): "BRLTTY is not reachable: \(message)"
        case .authentication(let message): "BRLTTY refused the connection: \(message)"
        case .disconnected(let message): "the connection to BRLTTY was lost: \(message)"
        case .failed(let operation, let message): "\(operation) failed: \(message)"
        }
    }
}

/// A connected Braille display, as the front end sees it: a size, a way to show a frame and keys.
///
/// The real one talks to BRLTTY through BrlAPI; unit tests use a fake. One owner calls it.
package protocol BrailleDisplay: AnyObject {
    /// The display's size as last read.
    var size: DisplaySize { get }
    /// A descriptor that becomes readable when a key may be waiting, or `nil` when there is none to poll.
    var fileDescriptor: Int32? { get }
    /// Whether keys may be waiting that ``fileDescriptor`` does not announce: BrlAPI keeps a key that
    /// arrives while it waits for BRLTTY's answer to a request (a write, the size) in a buffer of its
    /// own, and the socket the key came through is then no longer readable. Read keys until none is
    /// left before waiting on the descriptor.
    var mayHoldKeys: Bool { get }
    /// Shows a frame. Each call is one update of the display.
    func write(_ frame: BrailleFrame) throws(BrailleError)
    /// The next waiting key, without blocking; `nil` when none is waiting.
    func readKey() throws(BrailleError) -> BrailleKey?
    /// Reads the size again from the display; returns the new size (also kept in ``size``).
    func refreshSize() throws(BrailleError) -> DisplaySize
}

extension BrailleDisplay {
    /// A display whose descriptor announces every key holds none back.
    package var mayHoldKeys: Bool { false }
}

/// Opens connections to a display; the front end calls it again after the connection is lost.
package protocol BrailleConnector {
    /// Connects, ready to write and read keys.
    func connect() throws(BrailleError) -> any BrailleDisplay
}
