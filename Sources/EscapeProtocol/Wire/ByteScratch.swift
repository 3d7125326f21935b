// SPDX-License-Identifier: Apache-2.0
import EscapeJSON

/// Bytes being written, behind a pointer the writer owns: appending a byte is a store and a count,
/// where appending to an `Array` checks its uniqueness and its capacity each time.
///
/// Every append makes room first, so nothing is written past the end; ``reserve(_:)`` followed by
/// `appendReserved` calls (within what was reserved) spares the check for a run of small writes.
/// The bytes reach an array in one copy, with ``move(into:)``.
struct ByteScratch: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    /// Creates an empty scratch with room for `capacity` bytes to begin with.
    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Makes room for `more` bytes after the ones written.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if more > capacity - count { grow(toHold: more) }
    }

    private mutating func grow(toHold more: Int) {
        let (needed, overflow) = count.addingReportingOverflow(more)
        precondition(!overflow, "a scratch never holds more bytes than an Int counts")
        let newCapacity = Swift.max(needed, capacity < Int.max / 2 ? capacity * 2 : Int.max)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: start, count: count)
        start.deallocate()
        start = grown
        capacity = newCapacity
    }

    /// Appends a byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    /// Appends a byte there is room for (after ``reserve(_:)``).
    @inline(__always)
    mutating func appendReserved(_ byte: UInt8) {
        precondition(count < capacity)
        start[count] = byte
        count += 1
    }

    /// Appends bytes.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        appendReserved(bytes)
    }

    /// Appends bytes there is room for (after ``reserve(_:)``).
    @inline(__always)
    mutating func appendReserved(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        precondition(bytes.count <= capacity - count)
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Appends static text (ASCII, here: keys and literals).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        appendReserved(text)
    }

    /// Appends static text there is room for (after ``reserve(_:)``).
    @inline(__always)
    mutating func appendReserved(_ text: StaticString) {
        appendReserved(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `name` in quotes, after a comma when `comma` is set, then `suffix` when it is not 0:
    /// an object's key (`,"name":`) or a short string value, checked against the room left once.
    ///
    /// `name` must be ASCII that needs no escape (the writer's own key names and enumerations' words).
    @inline(__always)
    mutating func appendQuoted(_ name: StaticString, comma: Bool, suffix: UInt8) {
        let length = name.utf8CodeUnitCount
        let total = length + 2 + (comma ? 1 : 0) + (suffix == 0 ? 0 : 1)
        reserve(total)
        precondition(total <= capacity - count)
        var next = start + count
        if comma {
            next.initialize(to: UInt8(ascii: ","))
            next += 1
        }
        next.initialize(to: UInt8(ascii: "\""))
        next += 1
        next.update(from: name.utf8Start, count: length)
        next += length
        next.initialize(to: UInt8(ascii: "\""))
        if suffix != 0 { next[1] = suffix }
        count += total
    }

    /// Appends `text` as a JSON string in ``JSONWriter/Style/wire`` style: the bytes
    /// ``JSONWriter/writeString(_:into:)`` writes.
    mutating func appendJSONString(_ text: String) {
        // A native string lends its bytes as they are; another is made contiguous first.
        let plain =
            text.utf8.withContiguousStorageIfAvailable { appendPlain($0) }
            ?? {
                var text = text
                return text.withUTF8 { appendPlain($0) }
            }()
        guard !plain else { return }
        // Rare in the game's words: the writer's own escapes, then one copy.
        var escaped: [UInt8] = []
        JSONWriter.writeString(text, into: &escaped)
        escaped.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `bytes` in quotes when no byte of them needs an escape; `false` (nothing written) when one does.
    private mutating func appendPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Self.needsNoEscape(bytes) else { return false }
        reserve(bytes.count + 2)
        appendReserved(UInt8(ascii: "\""))
        appendReserved(bytes)
        appendReserved(UInt8(ascii: "\""))
        return true
    }

    /// Appends the bytes written to `output` and starts again from nothing.
    mutating func move(into output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        count = 0
    }

    /// Whether `bytes` go in a wire-style JSON string as they are, eight at a time where they can.
    ///
    /// A byte needs an escape when it is a control character, `"`, `\` or DEL, or starts U+0085,
    /// U+2028 or U+2029 (JSONWriter's wire style); a word of eight bytes holding none of those and no
    /// byte above ASCII is passed whole.
    static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Whether some byte of `word` is zero: the classic test, which may misjudge which byte, never
        // whether there is one.
        @inline(__always) func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = 0
        while bytes.count - index >= 8 {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A byte above ASCII is looked at below, with its neighbours.
            if word & highs == 0 {
                // A byte below 0x20 (the same test against 0x20, sound with no byte above 0x7F);
                // then `"`, `\` and DEL.
                let control = (word &- ones &* 0x20) & ~word & highs != 0
                if !control && !hasZero(word ^ (ones &* 0x22)) && !hasZero(word ^ (ones &* 0x5C))
                    && !hasZero(word ^ (ones &* 0x7F))
                {
                    index += 8
                    continue
                }
            }
            for offset in index..<(index + 8) where JSONWriter.escapedLength(in: bytes, at: offset, style: .wire) > 0 {
                return false
            }
            index += 8
        }
        // The last few: plain ASCII is passed by a comparison or two; only a byte above it asks the
        // writer (it may start U+0085, U+2028 or U+2029).
        for offset in index..<bytes.count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C { continue }
            if byte < 0x80 || JSONWriter.escapedLength(in: bytes, at: offset, style: .wire) > 0 { return false }
        }
        return true
    }
}
