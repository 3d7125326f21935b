// SPDX-License-Identifier: Apache-2.0
import EscapeProtocol
import Foundation
import Testing

@testable import EscapeRuntime

/// Snapshot blobs: written as Foundation's JSONEncoder wrote them, so old blobs restore and give the
/// same bytes back.
struct SnapshotCodecTests {
    /// Every good blob in the examples: the literal one a bot sends and the one its transcript holds
    /// (`AAAA` is the deliberately bad one).
    private func exampleBlobs() throws -> [String] {
        var blobs: [String] = []
        for name in ["bot-features.commands.ndjson", "bot-features.transcript.ndjson"] {
            let text = try String(contentsOf: Support.examples.appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: /efb-snapshot-1\.[A-Za-z0-9+\/=]+\.[0-9a-f]{16}/) {
                if !match.output.hasPrefix("efb-snapshot-1.AAAA.") { blobs.append(String(match.output)) }
            }
        }
        return blobs
    }

    @Test func theExampleBlobsDecodeAndEncodeToTheSameBytes() throws {
        let blobs = try exampleBlobs()
        #expect(blobs.count >= 2)
        for blob in blobs {
            let snapshot = try SnapshotCodec.decode(blob, engineVersion: Session.engineVersion)
            #expect(SnapshotCodec.encode(snapshot) == blob)
        }
    }

    @Test func theJSONIsWhatFoundationsJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for blob in try exampleBlobs() {
            var snapshot = try SnapshotCodec.decode(blob, engineVersion: Session.engineVersion)
            // Numbers past Int64 and a `/` in a string, which JSONEncoder escapes.
            snapshot.clock = .min
            snapshot.adventure = "a/b \u{8}\u{7F}\u{2028}"
            let ours = SnapshotCodec.encode(snapshot).split(separator: ".")[1]
            #expect(ours == Substring(try encoder.encode(snapshot).base64EncodedString()))
            #expect(
                try SnapshotCodec.decode(SnapshotCodec.encode(snapshot), engineVersion: snapshot.engine) == snapshot
            )
        }
    }

    @Test func anAlteredBlobIsRefused() throws {
        let blob = try #require(try exampleBlobs().first)
        var altered = Array(blob)
        let index = altered.index(altered.startIndex, offsetBy: 20)
        altered[index] = altered[index] == "A" ? "B" : "A"
        #expect(throws: ProtocolError.self) {
            try SnapshotCodec.decode(String(altered), engineVersion: Session.engineVersion)
        }
    }
}

struct Base64Tests {
    @Test(arguments: 0..<12)
    func writesAndReadsWhatFoundationDoes(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
        let text = Base64.encode(bytes)
        #expect(text == Data(bytes).base64EncodedString())
        #expect(Base64.decode(text) == bytes)
    }

    @Test(arguments: ["A", "AB=", "A===", "AB=C", "AB==AB==", "AB C", "AB\nC", "ABC-", "ABCD====", "=ABC"])
    func refusesWhatIsNotPaddedBase64(text: String) {
        // Stricter than `Data(base64Encoded:)`, which takes `AB=C` and `ABCD====`.
        #expect(Base64.decode(text) == nil)
    }
}
