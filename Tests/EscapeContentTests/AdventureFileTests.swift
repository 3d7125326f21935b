// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What an adventure file's problems say: the real reason, and where in the file.
struct AdventureFileTests {
    private static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/EscapeContent/Adventures/en.json")

    private func message(loading url: URL) -> String {
        do {
            _ = try AdventureLoader.load(path: url.path)
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func aDeviceIsNotARegularFileRatherThanAPermissionProblem() {
        let said = message(loading: URL(fileURLWithPath: "/dev/zero"))
        #expect(said.contains("not a regular file"), "\(said)")
        #expect(!said.contains("permission"))
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = NSTemporaryDirectory() + "efb-adventure-fifo-\(UUID().uuidString)"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(message(loading: URL(fileURLWithPath: path)).contains("not a regular file"))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let bytes = try Data(contentsOf: Self.shipped)
        let adventure = try AdventureLoader.decode(Data([0xEF, 0xBB, 0xBF]) + bytes, file: "bom.json")
        #expect(adventure.locale == "en")
    }

    @Test func syntaxAndEncodingErrorsSayTheirByteInTheFile() {
        func problem(_ bytes: [UInt8]) -> String {
            do {
                _ = try AdventureLoader.decode(Data(bytes), file: "x.json")
                return "loaded"
            } catch {
                return error.description
            }
        }
        #expect(
            problem(Array(#"{"format": 1,}"#.utf8)) == "x.json: $: not valid JSON: expected a string key at byte 13"
        )
        // After a byte-order mark the offset still counts from the file's first byte.
        #expect(problem([0xEF, 0xBB, 0xBF] + Array(#"{"format": 1,}"#.utf8)).hasSuffix("at byte 16"))
        #expect(
            problem(Array(#"{"id": "a"#.utf8) + [0xFF] + Array(#""}"#.utf8)) == "x.json: $: not valid UTF-8 at byte 9"
        )
    }
}
