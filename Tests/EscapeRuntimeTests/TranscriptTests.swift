// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import Foundation
import Testing

/// The seeded examples in Protocol/examples, compared byte for byte.
struct TranscriptTests {
    private let commands = Support.examples.appendingPathComponent("full-game.commands.ndjson")

    @Test(arguments: ["full-game", "full-game-1.1", "bot-features", "chapters-1.2", "dials-1.3"])
    func theExamplesMatchTheirGoldenTranscripts(name: String) throws {
        let commands = Support.examples.appendingPathComponent("\(name).commands.ndjson")
        let golden = Support.examples.appendingPathComponent("\(name).transcript.ndjson")
        let input = try Array(Data(contentsOf: commands))
        let output = Support.transcript(of: input)
        if ProcessInfo.processInfo.environment["EFB_RECORD"] == "1" {
            try Data(output).write(to: golden)
            Issue.record("recorded \(golden.path); run again without EFB_RECORD")
            return
        }
        let expected = try Array(Data(contentsOf: golden))
        if output != expected {
            let got = output.split(separator: UInt8(ascii: "\n"))
            let want = expected.split(separator: UInt8(ascii: "\n"))
            let first = Array(zip(got, want)).firstIndex { $0 != $1 } ?? min(got.count, want.count)
            Issue.record(
                """
                transcript differs from \(golden.lastPathComponent) at line \(first + 1) \
                (set EFB_RECORD=1 to record a new one)
                got:  \(first < got.count ? String(decoding: got[first], as: UTF8.self) : "<end>")
                want: \(first < want.count ? String(decoding: want[first], as: UTF8.self) : "<end>")
                """
            )
        }
    }

    @Test func theSameSeedReplaysByteForByteAndAnotherSeedDiffers() throws {
        let input = try Array(Data(contentsOf: commands))
        #expect(Support.transcript(of: input) == Support.transcript(of: input))
        let other = Support.transcript(of: input, session: Support.session(seed: 99))
        #expect(other != Support.transcript(of: input))
    }

    @Test func everyCommandGetsExactlyOneDoneWithItsID() throws {
        let input = try Array(Data(contentsOf: commands))
        let events = try Support.events(Support.transcript(of: input))
        let dones = events.filter { $0["type"] == "done" }
        let commandLines = input.split(separator: UInt8(ascii: "\n"))
        #expect(dones.count == commandLines.count)
        for (done, line) in zip(dones, commandLines) {
            guard case .object(let command) = try JSONReader.read(line) else { continue }
            #expect(done["replyTo"] == command["id"])
        }
        #expect(events.last?["type"] == "bye")
        #expect(events.contains { $0["type"] == "ended" && $0["reason"] == "escaped" })
    }
}
