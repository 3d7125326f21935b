// SPDX-License-Identifier: Apache-2.0
/// Time arithmetic that clamps instead of trapping: times come from peers (a restored snapshot, an
/// embedder's clock), so no sum or product of them may end the process.
extension Int64 {
    /// The largest integer every JSON reader holds exactly, 2^53 − 1: the bound of restored numbers.
    public static let safeInteger: Int64 = (1 << 53) - 1

    /// `self + other`, clamped to `Int64.min ... Int64.max`.
    public func adding(saturating other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, clamped to `Int64.min ... Int64.max`.
    public func subtracting(saturating other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    /// `self * other`, clamped to `Int64.min ... Int64.max`.
    public func multiplied(saturating other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) != (other < 0) ? .min : .max
    }
}

extension Int {
    /// The next value of a counter the protocol sends (`seq`, `gen`): one more, but never past 2^53 − 1,
    /// the largest integer every JSON reader holds exactly.
    public var countingOn: Int { self < Int(Int64.safeInteger) ? self + 1 : self }
}
