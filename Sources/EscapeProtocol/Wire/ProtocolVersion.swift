// SPDX-License-Identifier: Apache-2.0
/// A protocol version: `major.minor`, written `[major, minor]` on the wire.
///
/// Versions with the same major number only add to each other; a new major number breaks.
public struct ProtocolVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The major number: a change that breaks clients.
    public var major: Int
    /// The minor number: additions only.
    public var minor: Int

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Protocol 1.0, the first.
    public static let v1_0 = ProtocolVersion(major: 1, minor: 0)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Protocol 1.1: integral numbers everywhere, batched `ifGen`, `cancel`, version negotiation.
    public static let v1_1 = ProtocolVersion(major: 1, minor: 1)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Protocol 1.2: the chapter's id on chapter and level screens and in `progress`.
    public static let v1_2 = ProtocolVersion(major: 1, minor: 2)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Protocol 1.3: an adjustable element's `range`, and `adjust` to the first or last value.
    public static let v1_3 = ProtocolVersion(major: 1, minor: 3)

    /// `major.minor`, as people write it.
    public var description: String { "\(major).\(minor)" }

    /// Orders versions by major number, then minor number.
    public static func < (lhs: ProtocolVersion, rhs: ProtocolVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}

/// The protocol versions a client accepts, as its `hello` says.
public enum VersionRequest: Sendable, Hashable, CustomStringConvertible {
    /// These versions, and no other: `1` (1.0), `[1, 1]`, or `[[1, 0], [1, 1]]`.
    case versions([ProtocolVersion])
    /// Every version from `min` to `max`, both included: `{"min": [1, 0], "max": [1, 1]}`.
    case range(min: ProtocolVersion, max: ProtocolVersion)

    /// Whether the client accepts `version`.
    public func accepts(_ version: ProtocolVersion) -> Bool {
        switch self {
        case .versions(let versions): versions.contains(version)
        case .range(let min, let max): min <= version && version <= max
        }
    }

    /// The newest of `supported` that the client accepts, if any.
    ///
    /// - Parameter supported: The versions the engine speaks.
    /// - Returns: The version to speak, or `nil` when there is no common one.
    public func best(among supported: [ProtocolVersion]) -> ProtocolVersion? {
        supported.filter(accepts).max()
    }

    /// The request as people write it: `1.0`, `1.0 or 1.1`, `1.0 to 1.1`.
    public var description: String {
        switch self {
        case .versions(let versions): versions.map(\.description).joined(separator: " or ")
        case .range(let min, let max): "\(min) to \(max)"
        }
    }
}
