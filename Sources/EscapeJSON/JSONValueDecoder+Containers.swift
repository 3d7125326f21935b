// SPDX-License-Identifier: Apache-2.0
/// The members of a JSON object, read by key.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let members: [String: JSONValue]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    /// The decoder of the member at `key`, which must be there.
    private func member(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
                )
            )
        }
        return decoder.child(value, at: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).unboxBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).unboxString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).unboxDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).unboxFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).unboxInteger(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).unboxInteger(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).unboxInteger(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).unboxInteger(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).unboxInteger(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).unboxInteger(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).unboxInteger(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).unboxInteger(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).unboxInteger(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).unboxInteger(type) }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try member(key).unbox(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(members["super"] ?? .null, at: JSONNamedKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(members[key.stringValue] ?? .null, at: key)
    }
}

/// The elements of a JSON array, read in order.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the next element; moves past it.
    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        guard !isAtEnd else { throw atEnd(type) }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], at: JSONIndexKey(currentIndex))
    }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(
            type,
            .init(
                codingPath: codingPath + [JSONIndexKey(currentIndex)],
                debugDescription: "Unkeyed container is at end."
            )
        )
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Never.self) }
        guard elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).unboxBool() }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).unboxString() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).unboxDouble() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).unboxFloat() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).unboxInteger(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).unboxInteger(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).unboxInteger(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).unboxInteger(type) }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try next(type).unbox(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self)
    }
}
