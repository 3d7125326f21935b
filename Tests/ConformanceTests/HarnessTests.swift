import EscapeTestSupport
import Foundation
import Testing

/// The harness itself: the validator every run goes through must catch an engine that drifted from the schema.
@Suite struct HarnessTests {
    @Test("Harness: the validator refuses an unknown field, a bad seq and a missing newline, and accepts real output")
    func validatorCatchesDrift() throws {
        let good = #"{"gen":0,"seq":1,"type":"done"}"# + "\n"
        let cases = [
            #"{"gen":0,"seq":1,"type":"done","extra":1}"# + "\n",
            good + #"{"gen":0,"seq":3,"type":"ping"}"# + "\n",
            #"{"gen":0,"seq":1,"type":"done"}"#,
            #"{"gen":0,"seq":0,"type":"done"}"# + "\n",
        ]
        for bad in cases {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("efb-harness-\(UUID().uuidString)")
            try Data(bad.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try !Validator.shared.validate(file.path).ok, "\(bad)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("efb-harness-\(UUID().uuidString)")
        try Data(good.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Validator.shared.validate(file.path).ok)
    }
}
