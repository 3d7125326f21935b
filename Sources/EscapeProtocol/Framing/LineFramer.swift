// SPDX-License-Identifier: Apache-2.0
/// Splits a byte stream into lines, with a bound on how much of a line it keeps.
///
/// Lines end with `\n`; a `\r` before it is dropped. A line longer than the limit is not buffered:
/// its bytes are counted and thrown away until its end, where it is reported as ``Frame/tooLong(length:)``.
/// Feed it bytes in pieces of any size: the frames are the same.
public struct LineFramer: Sendable {
    /// One framed line.
    public enum Frame: Sendable, Hashable {
        /// A complete line without its terminator.
        case line([UInt8])
        /// A line over the limit; `length` is its size in bytes without the terminator.
        case tooLong(length: Int)
    }

    /// The protocol's limit on a line, terminator excluded: 1 MiB.
    public static let defaultMaximumLineLength = 1 << 20

    /// The longest line kept, in bytes without the terminator.
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var discarded: Int?

    /// Creates a framer.
    ///
    /// - Parameter maximumLineLength: The longest line kept, in bytes.
    public init(maximumLineLength: Int = Self.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Takes in bytes and returns the lines they complete.
    ///
    /// - Parameter bytes: The next bytes of the stream.
    /// - Returns: The frames completed by these bytes, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Frame] {
        // Contiguous bytes (an array, a slice of one) are searched without generic dispatch per byte.
        if let frames = bytes.withContiguousStorageIfAvailable({ feed(contiguous: $0) }) { return frames }
        var frames: [Frame] = []
        var rest = bytes[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            append(rest[rest.startIndex..<newline])
            frames.append(takeFrame())
            rest = rest[rest.index(after: newline)...]
        }
        append(rest)
        return frames
    }

    private mutating func feed(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [Frame] {
        var frames: [Frame] = []
        var start = 0
        while let newline = Self.newline(in: bytes, from: start) {
            append(UnsafeBufferPointer(rebasing: bytes[start..<newline]))
            frames.append(takeFrame())
            start = newline + 1
        }
        append(UnsafeBufferPointer(rebasing: bytes[start...]))
        return frames
    }

    /// The index of the first `\n` at or after `start`, eight bytes at a time where they hold none.
    static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while bytes.count - index >= 8 {
            // Zero where a byte is `\n`; the classic test tells whether a word has a zero byte (it may
            // misjudge which, never whether), and the bytes are then looked at one by one.
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ (ones &* 0x0A)
            if (word &- ones) & ~word & highs != 0 { break }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { return index }
            index += 1
        }
        return nil
    }

    /// Ends the stream: a last line without a terminator is returned as a line.
    ///
    /// - Returns: The unterminated last frame, if there was one.
    public mutating func finish() -> Frame? {
        guard !buffer.isEmpty || discarded != nil else { return nil }
        return takeFrame()
    }

    private mutating func append(_ piece: some Collection<UInt8>) {
        if let count = discarded {
            discarded = count + piece.count
        } else if buffer.count + piece.count > maximumLineLength + 1 {
            // One byte of slack keeps a `\r` that the terminator may still follow.
            discarded = buffer.count + piece.count
            buffer = []
        } else {
            buffer.append(contentsOf: piece)
        }
    }

    private mutating func takeFrame() -> Frame {
        defer {
            buffer.removeAll(keepingCapacity: buffer.count <= 4096)
            discarded = nil
        }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        if let count = discarded { return .tooLong(length: count) }
        if buffer.count > maximumLineLength { return .tooLong(length: buffer.count) }
        return .line(buffer)
    }
}
