// SPDX-License-Identifier: Apache-2.0
/// Decodes `Decodable` types from a ``JSONValue``, as Foundation's JSON decoder does from bytes.
///
/// Errors are `DecodingError`s whose coding paths lead to the offending value, so a caller can name
/// it (`$.chapters[1].levels[0].title`). Integers keep their exact 64-bit value; an integral number
/// written with a fraction or exponent (`1.0`, `1e2`) is accepted for an integer type, like Foundation.
package struct JSONValueDecoder {
    /// Values handed to every `init(from:)`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder.
    package init() {}

    /// Decodes a value of `type` from `value`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` with the coding path of the first problem.
    package func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try ValueDecoder(value: value, codingPath: [], userInfo: userInfo).unbox(type)
    }
}

/// A key for an array element in a coding path: `intValue` is the index.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A key given by its name, for `superDecoder()` and `superEncoder()`.
struct JSONNamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The decoder for one value at one coding path.
struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    /// The decoder of a value inside this one.
    func child(_ value: JSONValue, at key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: Any].self)
        }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedValueDecodingContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Unboxing

    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(
                type,
                .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead.")
            )
        }
        return .typeMismatch(
            type,
            .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead.")
        )
    }

    /// What `value` is, for error messages: `a string`, `an array`, `null`.
    private var found: String {
        switch value {
        case .null: "null"
        case .array, .object: "an \(value.typeName)"
        case .bool, .int, .uint, .double, .string: "a \(value.typeName)"
        }
    }

    func unbox<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try Value(from: self)
    }

    func unboxBool() throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self) }
        return flag
    }

    func unboxString() throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self) }
        return text
    }

    func unboxInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let exact: Integer?
        switch value {
        case .int(let number): exact = Integer(exactly: number)
        case .uint(let number): exact = Integer(exactly: number)
        // Read JSON holds an integer within 64 bits as `.int` or `.uint`: a smaller `.double` has a
        // fraction, even when it is nearest to an integer (`1e-400`, `3.0000000000000001`).
        case .double(let number) where number.magnitude >= 0x1p63: exact = Integer(exactly: number)
        default: throw mismatch(type)
        }
        guard let exact else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "The number \(number) does not fit in \(type).")
            )
        }
        return exact
    }

    func unboxDouble() throws -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .uint(let number): return Double(number)
        case .double(let number): return number
        default: throw mismatch(Double.self)
        }
    }

    func unboxFloat() throws -> Float {
        let number = try unboxDouble()
        guard let float = Float(exactly: number) ?? Float(number.description), float.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "The number \(number) does not fit in Float.")
            )
        }
        return float
    }

    /// The number in `value`, for error messages.
    private var number: String {
        switch value {
        case .int(let number): "\(number)"
        case .uint(let number): "\(number)"
        case .double(let number): "\(number)"
        case .null, .bool, .string, .array, .object: value.typeName
        }
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool() }
    func decode(_ type: String.Type) throws -> String { try unboxString() }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble() }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat() }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(type) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try unbox(type) }
}
