// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import Testing

/// The spec's rule, §2: an integer field takes a number with an integral value, however written, and
/// refuses one with a fraction, however near an integer it is (issue 26 G).
struct NumberRulesTests {
    private static func answer(_ line: String) -> [StampedEvent] {
        let session = Support.session()
        _ = session.start()
        return session.handle(.line(Array(line.utf8)))
    }

    @Test(arguments: ["1e-400", "0.0000000000000000000000000000001", "1000.0000000000000000001", "1e-99999"])
    func aWaitOfAFractionIsRefused(ms: String) {
        let events = Self.answer(#"{"type":"wait","id":"w","ms":\#(ms)}"#)
        guard case .error(let error) = events.first?.event else {
            Issue.record("ms \(ms) was accepted: \(events.map(\.event))")
            return
        }
        #expect(error.code == .invalidParams)
        #expect(error.field == "ms")
    }

    /// Before: `1e-400` was refused as "ms must be an integer, not 0.0", though `0.0` is accepted.
    @Test(arguments: ["1e-400", "-1e-400", "1e-99999"])
    func aFractionTooSmallForADoubleIsNotCalledZero(ms: String) {
        let events = Self.answer(#"{"type":"wait","id":"w","ms":\#(ms)}"#)
        guard case .error(let error) = events.first?.event else {
            Issue.record("ms \(ms) was accepted: \(events.map(\.event))")
            return
        }
        #expect(error.message == "ms must be an integer, not a fraction too small to be told from 0")
    }

    @Test(arguments: ["9007199254740991.0000000001", "1e-400", "-0.00000000000000000000001"])
    func anIdWithAFractionIsRefusedWithoutReplyTo(id: String) {
        let events = Self.answer(#"{"type":"ping","id":\#(id)}"#)
        guard case .error(let error) = events.first?.event else {
            Issue.record("id \(id) was accepted: \(events.map(\.event))")
            return
        }
        #expect(error.code == .invalidParams)
        #expect(error.field == "id")
        #expect(events.allSatisfy { $0.replyTo == nil })
    }

    @Test(arguments: [
        ("1e3", 1000), ("1000.0", 1000), ("10000e-1", 1000), ("9007199254740991.000", 9_007_199_254_740_991),
    ])
    func anIntegralIdIsEchoedAsTheInteger(sample: (String, Int)) {
        let events = Self.answer(#"{"type":"ping","id":\#(sample.0)}"#)
        #expect(events.map(\.event) == [.done])
        #expect(events.first?.replyTo == .int(sample.1))
    }
}
