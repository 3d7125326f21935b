// SPDX-License-Identifier: Apache-2.0
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

extension HarnessTests {
    /// The suite plays `efb pipe` in process; the built program must write the same bytes.
    ///
    /// A game of the lantern room with a refused line, a malformed one, a batch, a wait and the end of
    /// input, each way.
    @Test("Harness: the built efb pipe writes byte for byte what the suite's in-process pipe writes")
    func theProgramAndTheInProcessPipeAgree() async throws {
        let lines =
            EFB.toFirstLevel + [
                #"{"type":"hello","id":"h","protocol":[1,2],"want":["validActions"]}"#,
                #"{"type":"activate","element":"nowhere","id":1}"#, #"{"type":"next""#,
                #"{"type":"batch","id":2,"commands":[{"type":"next"},{"type":"previous"}]}"#,
                #"{"type":"state","id":3}"#, #"{"type":"wait","ms":45000,"id":4}"#,
            ]
        let input = Array(lines.map { $0 + "\n" }.joined().utf8)
        let inProcess = try #require(try EFB.inProcess(EFB.lantern, input: input), "efb pipe ran as a program")
        let program = try runEFB(EFB.lantern, input: input)
        #expect(program.status == 0)
        #expect(inProcess.stdout.count > 2000)
        #expect(
            inProcess.stdout == program.stdout,
            "\(String(decoding: inProcess.stdout, as: UTF8.self))\nagainst\n\(String(decoding: program.stdout, as: UTF8.self))"
        )
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("efb-harness-\(UUID().uuidString)")
        try Data(program.stdout).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Validator.shared.validate(file.path).ok)
    }
}
