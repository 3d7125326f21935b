// SPDX-License-Identifier: Apache-2.0
/// `--hint-interval`: seconds written as a decimal number, kept as the whole milliseconds they are.
///
/// Parsed by hand: `Double` would take `0x10`, `inf` and `1e-9`, and a fraction of a millisecond would
/// become 0 ms. The text is kept so a refusal can say what was wrong with it.
package struct HintInterval: Hashable, Sendable {
    /// The default: 30 seconds.
    package static let standard = Self(text: "30")
    /// The milliseconds allowed: one millisecond to one day.
    package static let range: ClosedRange<Int64> = 1...86_400_000

    /// What was written.
    package let text: String
    /// The milliseconds it says; `nil` when it is not digits with an optional fraction of at most three
    /// digits (below a millisecond), or when it is too large to count.
    package let milliseconds: Int64?

    /// Reads `text` as seconds.
    package init(text: String) {
        self.text = text
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let digits = whole + fraction
        guard !digits.isEmpty, fraction.count <= 3, whole.count <= 12,
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            milliseconds = nil
            return
        }
        let padded = fraction + String(repeating: "0", count: 3 - fraction.count)
        milliseconds = Int64(whole.isEmpty ? "0" : whole).flatMap { seconds in Int64(padded).map { seconds * 1000 + $0 }
        }
    }

    /// Why the interval cannot be used, in a sentence naming the option; `nil` when it can.
    package var problem: String? {
        guard let milliseconds else {
            return
                "--hint-interval takes seconds in decimal digits, to the millisecond (at most three after the point), "
                + "such as 30 or 0.5, from 0.001 to 86400 (not \"\(text)\")."
        }
        guard Self.range.contains(milliseconds) else {
            return "--hint-interval must be at least 0.001 and at most 86400 seconds (not \"\(text)\")."
        }
        return nil
    }
}
