// SPDX-License-Identifier: Apache-2.0

/// What the wire form of an event or a command is written to: JSON, one member or value at a time, in
/// the order written.
///
/// Each event's members are written once, in sorted key order (`StampedEvent+Wire.swift`), against this
/// protocol. ``DirectLine`` writes them straight to bytes, for the wire; ``JSONValueWriter`` builds a
/// ``JSONValue`` of them, for ``EventEncoder/json(_:)``, whose writer sorts the keys itself.
/// `EventEncoderTests` compares the two byte for byte, which proves every event's members are written in
/// sorted order, once each.
protocol WireWriter: ~Copyable {
    /// Starts an object's member named `name`: its value is written next.
    mutating func key(_ name: StaticString)
    /// Writes a string.
    mutating func string(_ text: String)
    /// Writes a string known when the program is built, that needs no escape: a wire name.
    mutating func word(_ text: StaticString)
    /// Writes a number.
    mutating func int(_ number: Int)
    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool)
    /// Writes `null`.
    mutating func null()
    /// Writes an object: `members` writes its members.
    mutating func object(_ members: (inout Self) -> Void)
    /// Writes an array: `item` writes the value of each of `items`, in order.
    mutating func array<Items: Sequence>(_ items: Items, _ item: (inout Self, Items.Element) -> Void)
}

extension WireWriter where Self: ~Copyable {
    /// Writes a member whose value is a string.
    @inline(__always)
    mutating func member(_ name: StaticString, _ text: String) {
        key(name)
        string(text)
    }

    /// Writes a member whose value is a wire name.
    @inline(__always)
    mutating func member(_ name: StaticString, word: StaticString) {
        key(name)
        self.word(word)
    }

    /// Writes a member whose value is a number.
    @inline(__always)
    mutating func member(_ name: StaticString, _ number: Int) {
        key(name)
        int(number)
    }

    /// Writes a member whose value is `true` or `false`.
    @inline(__always)
    mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a member whose value is an array of strings.
    mutating func member(_ name: StaticString, strings: [String]) {
        key(name)
        array(strings) { $0.string($1) }
    }

    /// Writes a member whose value is a string, or `null` when there is none.
    mutating func nullable(_ name: StaticString, _ text: String?) {
        key(name)
        if let text { string(text) } else { null() }
    }

    /// Writes a member whose value is a number, or `null` when there is none.
    mutating func nullable(_ name: StaticString, _ number: Int?) {
        key(name)
        if let number { int(number) } else { null() }
    }
}
