// SPDX-License-Identifier: Apache-2.0
import EscapeJSON

/// Builds the ``JSONValue`` of what is written: an event's or a command's wire form as a value, for
/// ``EventEncoder/json(_:)`` and ``CommandEncoder/json(_:element:)``.
struct JSONValueWriter: WireWriter {
    /// The last value written outside any object or array.
    private(set) var value: JSONValue = .null
    /// Where a value written now goes.
    private var container = Container.top
    /// The key of the member whose value comes next, in an object.
    private var pendingKey: String?

    /// What holds the values being written.
    private enum Container {
        /// Nothing: a value is the result.
        case top
        /// An object, with its members so far.
        case object([String: JSONValue])
        /// An array, with its items so far.
        case array([JSONValue])
    }

    /// Creates a writer with nothing written.
    init() {}

    /// Keeps `name` for the value written next.
    mutating func key(_ name: StaticString) { pendingKey = name.description }

    /// Puts a string.
    mutating func string(_ text: String) { put(.string(text)) }

    /// Puts a wire name, as a string.
    mutating func word(_ text: StaticString) { put(.string(text.description)) }

    /// Puts a number.
    mutating func int(_ number: Int) { put(.int(number)) }

    /// Puts `true` or `false`.
    mutating func bool(_ value: Bool) { put(.bool(value)) }

    /// Puts `null`.
    mutating func null() { put(.null) }

    /// Puts the object whose members `members` writes.
    mutating func object(_ members: (inout Self) -> Void) {
        let outer = (container, pendingKey)
        container = .object([:])
        pendingKey = nil
        members(&self)
        guard case .object(let written) = container else { preconditionFailure("an object ends where it began") }
        (container, pendingKey) = outer
        put(.object(written))
    }

    /// Puts the array of the values `item` writes, one for each of `items`.
    mutating func array<Items: Sequence>(_ items: Items, _ item: (inout Self, Items.Element) -> Void) {
        let outer = (container, pendingKey)
        container = .array([])
        pendingKey = nil
        for element in items { item(&self, element) }
        guard case .array(let written) = container else { preconditionFailure("an array ends where it began") }
        (container, pendingKey) = outer
        put(.array(written))
    }

    /// Puts `written` where the value being written goes: the member of the pending key, the array's
    /// next item, or the result.
    private mutating func put(_ written: JSONValue) {
        switch container {
        case .top:
            value = written
        case .object(var members):
            guard let key = pendingKey else { preconditionFailure("an object's value follows its key") }
            container = .top
            members[key] = written
            container = .object(members)
            pendingKey = nil
        case .array(var items):
            container = .top
            items.append(written)
            container = .array(items)
        }
    }
}
