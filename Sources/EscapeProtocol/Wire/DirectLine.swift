// SPDX-License-Identifier: Apache-2.0
import EscapeJSON

/// Events written straight to bytes, without building a ``JSONValue`` first: the wire's writer.
///
/// The members come in the order each event's definition gives them (`StampedEvent+Wire.swift`), which
/// is the order ``JSONWriter`` sorts them in; `EventEncoderTests` checks every event against
/// ``JSONWriter``'s output of ``EventEncoder/json(_:)``, byte for byte.
///
/// The bytes go to a ``ByteScratch`` first, where a byte costs a store, and reach the caller's array
/// in one copy at ``flush(into:)``: appending to an array byte by byte (a uniqueness and a capacity
/// check each time) was most of what writing an event cost.
struct DirectLine: WireWriter, ~Copyable {
    private var bytes = ByteScratch()
    /// Whether the object being written has no member yet.
    private var first = true

    /// Ends a line.
    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    /// Appends what was written to `output` and starts again from nothing.
    mutating func flush(into output: inout [UInt8]) {
        bytes.move(into: &output)
    }

    /// `"name":`, after a comma unless it is the object's first member.
    @inline(__always)
    mutating func key(_ name: StaticString) {
        bytes.appendQuoted(name, comma: !first, suffix: UInt8(ascii: ":"))
        first = false
    }

    /// Writes `text` in quotes, escaped as ``JSONWriter`` escapes it.
    mutating func string(_ text: String) {
        bytes.appendJSONString(text)
    }

    /// Writes a wire name in quotes, as it is.
    @inline(__always)
    mutating func word(_ text: StaticString) {
        bytes.appendQuoted(text, comma: false, suffix: 0)
    }

    /// Writes `number` in decimal digits, as `String(number)` spells it, without making the string.
    mutating func int(_ number: Int) {
        // The digits from the right, into a word-sized scratch on the stack: an Int's magnitude has 20
        // digits at most, and a sign.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = number.magnitude
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if number < 0 {
                start -= 1
                scratch[start] = UInt8(ascii: "-")
            }
            guard let base = scratch.baseAddress else { return }
            let written = UnsafeRawBufferPointer(start: base + start, count: scratch.count - start)
            written.withMemoryRebound(to: UInt8.self) { bytes.append($0) }
        }
    }

    /// Writes `true` or `false`.
    @inline(__always)
    mutating func bool(_ value: Bool) {
        bytes.append(value ? "true" : "false")
    }

    /// Writes `null`.
    @inline(__always)
    mutating func null() {
        bytes.append("null")
    }

    /// Writes `{`, the members `members` writes, then `}`.
    @inline(__always)
    mutating func object(_ members: (inout DirectLine) -> Void) {
        let outer = first
        bytes.append(UInt8(ascii: "{"))
        first = true
        members(&self)
        bytes.append(UInt8(ascii: "}"))
        first = outer
    }

    /// Writes `[`, the values `item` writes for `items` with commas between them, then `]`.
    @inline(__always)
    mutating func array<Items: Sequence>(_ items: Items, _ item: (inout DirectLine, Items.Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var separated = false
        for element in items {
            if separated { bytes.append(UInt8(ascii: ",")) }
            separated = true
            item(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
