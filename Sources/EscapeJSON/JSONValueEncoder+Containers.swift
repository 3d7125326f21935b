// SPDX-License-Identifier: Apache-2.0
/// Fills in the members of a JSON object.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    /// The encoder of a new member at `key`.
    private func member(_ key: some CodingKey) -> ValueEncoder {
        encoder.child(encoder.node.member(key.stringValue), at: key)
    }

    mutating func encodeNil(forKey key: Key) { member(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws { try member(key).box(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        member(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        member(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { member(JSONNamedKey(stringValue: "super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { member(key) }
}

/// Fills in the elements of a JSON array.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    /// The encoder of a new element at the end.
    private func next() -> ValueEncoder {
        let index = count
        return encoder.child(encoder.node.append(), at: JSONIndexKey(index))
    }

    mutating func encodeNil() { next().encodeNil() }
    mutating func encode(_ value: Bool) { next().encode(value) }
    mutating func encode(_ value: String) { next().encode(value) }
    mutating func encode(_ value: Double) throws { try next().encode(value) }
    mutating func encode(_ value: Float) throws { try next().encode(value) }
    mutating func encode(_ value: Int) { next().encode(value) }
    mutating func encode(_ value: Int8) { next().encode(value) }
    mutating func encode(_ value: Int16) { next().encode(value) }
    mutating func encode(_ value: Int32) { next().encode(value) }
    mutating func encode(_ value: Int64) { next().encode(value) }
    mutating func encode(_ value: UInt) { next().encode(value) }
    mutating func encode(_ value: UInt8) { next().encode(value) }
    mutating func encode(_ value: UInt16) { next().encode(value) }
    mutating func encode(_ value: UInt32) { next().encode(value) }
    mutating func encode(_ value: UInt64) { next().encode(value) }
    mutating func encode(_ value: some Encodable) throws { try next().box(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { next() }
}
