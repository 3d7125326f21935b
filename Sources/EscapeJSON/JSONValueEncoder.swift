// SPDX-License-Identifier: Apache-2.0
/// Encodes `Encodable` types to a ``JSONValue``, to be written by ``JSONWriter``.
///
/// It builds what Foundation's JSON encoder would write: `nil` optionals encoded with
/// `encodeIfPresent` are left out, enum cases with associated values become `{"case":{"_0":...}}`,
/// and integers keep their exact 64-bit value. Floats are kept as their shortest decimal text.
package struct JSONValueEncoder {
    /// Values handed to every `encode(to:)`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder.
    package init() {}

    /// The JSON value of `value`.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: Its JSON form.
    /// - Throws: `EncodingError.invalidValue` for a number JSON cannot hold (infinity, NaN), or what
    ///   the value's own `encode(to:)` throws.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        let node = EncodedNode()
        try value.encode(to: ValueEncoder(node: node, codingPath: [], userInfo: userInfo))
        return node.value
    }
}

/// A value being encoded; containers fill it in after they are handed out, hence a class.
final class EncodedNode {
    enum Kind {
        case unset
        case value(JSONValue)
        case object
        case array
    }

    private(set) var kind = Kind.unset
    private var members: [String: EncodedNode] = [:]
    private var elements: [EncodedNode] = []

    /// The finished value; a node nothing was encoded into is an empty object, as in Foundation.
    var value: JSONValue {
        switch kind {
        case .unset: .object([:])
        case .value(let value): value
        case .object: .object(members.mapValues(\.value))
        case .array: .array(elements.map(\.value))
        }
    }

    var count: Int { elements.count }

    func set(_ value: JSONValue) { kind = .value(value) }

    /// Makes this node an object, unless it already is one.
    func becomeObject() {
        switch kind {
        case .unset, .value: kind = .object
        case .object: break
        case .array: preconditionFailure("a value asked for a keyed container after an unkeyed one")
        }
    }

    /// Makes this node an array, unless it already is one.
    func becomeArray() {
        switch kind {
        case .unset, .value: kind = .array
        case .array: break
        case .object: preconditionFailure("a value asked for an unkeyed container after a keyed one")
        }
    }

    /// A new member at `key`, replacing any before.
    func member(_ key: String) -> EncodedNode {
        let node = EncodedNode()
        members[key] = node
        return node
    }

    /// A new element at the end.
    func append() -> EncodedNode {
        let node = EncodedNode()
        elements.append(node)
        return node
    }
}

/// The encoder for one value at one coding path.
struct ValueEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func child(_ node: EncodedNode, at key: any CodingKey) -> ValueEncoder {
        ValueEncoder(node: node, codingPath: codingPath + [key], userInfo: userInfo)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedValueEncodingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// Encodes `value` into this encoder's node.
    func box(_ value: some Encodable) throws {
        try value.encode(to: self)
    }

    func boxDouble(_ number: Double) throws -> JSONValue {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number,
                .init(codingPath: codingPath, debugDescription: "\(number) cannot be written in JSON.")
            )
        }
        return .double(number)
    }

    func boxFloat(_ number: Float) throws -> JSONValue {
        // Through its own shortest text, so 1.1 stays 1.1 rather than 1.100000023841858.
        try boxDouble(Double(number.description) ?? Double(number))
    }
}

/// The JSON value of an integer: `.int`, or `.uint` above `Int.max`.
func boxInteger(_ number: some FixedWidthInteger) -> JSONValue {
    if let signed = Int(exactly: number) { return .int(signed) }
    return .uint(UInt64(number))
}

extension ValueEncoder: SingleValueEncodingContainer {
    func encodeNil() { node.set(.null) }
    func encode(_ value: Bool) { node.set(.bool(value)) }
    func encode(_ value: String) { node.set(.string(value)) }
    func encode(_ value: Double) throws { node.set(try boxDouble(value)) }
    func encode(_ value: Float) throws { node.set(try boxFloat(value)) }
    func encode(_ value: Int) { node.set(boxInteger(value)) }
    func encode(_ value: Int8) { node.set(boxInteger(value)) }
    func encode(_ value: Int16) { node.set(boxInteger(value)) }
    func encode(_ value: Int32) { node.set(boxInteger(value)) }
    func encode(_ value: Int64) { node.set(boxInteger(value)) }
    func encode(_ value: UInt) { node.set(boxInteger(value)) }
    func encode(_ value: UInt8) { node.set(boxInteger(value)) }
    func encode(_ value: UInt16) { node.set(boxInteger(value)) }
    func encode(_ value: UInt32) { node.set(boxInteger(value)) }
    func encode(_ value: UInt64) { node.set(boxInteger(value)) }
    func encode(_ value: some Encodable) throws { try box(value) }
}
