// SPDX-License-Identifier: Apache-2.0
/// A small, fast, repeatable random number generator (SplitMix64).
///
/// The engine owns one as part of its state, so a seed and a list of commands give the same game
/// every time, and a saved state carries on exactly where it was.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable, Codable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
