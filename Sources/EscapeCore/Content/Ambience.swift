// SPDX-License-Identifier: Apache-2.0
/// A chapter's ambient sound, named by the adventure (`wind-in-a-shaft`, say), for a front end to loop
/// while the chapter lasts.
///
/// The name is the wire form (the `loop` of an ambient `sound` event): lowercase ASCII letters, digits
/// and hyphens, starting with a letter or a digit. A value of this type always holds such a name;
/// decoding refuses any other, so an adventure file with a bad name is refused at load.
public struct Ambience: Sendable, Hashable, CustomStringConvertible {
    /// The ambience's name, as the adventure spells it.
    public let name: String

    /// Wraps `name`, or returns `nil` when it is not a valid ambience name.
    ///
    /// - Parameter name: Lowercase ASCII letters, digits and hyphens, not starting with a hyphen.
    public init?(_ name: String) {
        guard Self.isValidName(name) else { return nil }
        self.name = name
    }

    /// Whether `name` can name an ambience: lowercase ASCII letters, digits and hyphens, not empty and
    /// not starting with a hyphen.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    /// The name.
    public var description: String { name }
}

extension Ambience: Codable {
    /// Decodes the name, a plain string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid ambience name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let ambience = Ambience(name) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "\"\(name)\" is not an ambience name: use lowercase letters, digits and hyphens, not starting with a hyphen"
            )
        }
        self = ambience
    }

    /// Encodes the name as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
