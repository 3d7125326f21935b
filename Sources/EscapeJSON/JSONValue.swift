// SPDX-License-Identifier: Apache-2.0
/// A JSON value, as read from or written to the wire.
///
/// Integers and other numbers are kept apart so `3` stays an integer and `3.5` is not mistaken for one.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in a signed 64-bit integer, however it was written (`5`, `5.0`, `5e0`).
    case int(Int)
    /// An integer above `Int.max` that fits in an unsigned 64-bit integer.
    ///
    /// Only such numbers take this case, so each integer has one spelling: `5` is always `.int(5)`.
    case uint(UInt64)
    /// Any other finite number: one with a fraction (decided on its digits, so `1e-400` is one, though
    /// it is nearest to 0), or an integer beyond 64 bits (`1e20`), the only integers this case holds
    /// when read.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are unique.
    case object([String: JSONValue])

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .uint, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
}
