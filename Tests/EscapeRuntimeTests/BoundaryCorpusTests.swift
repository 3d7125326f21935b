// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// The C-boundary fuzz targets' seeds (Tests/BoundaryCorpus/NAME) replayed through the targets built
/// normally, as a regression test: among them the paste that made libedit write through a NULL row once
/// keys taken out of its line had left its picture of the screen behind
/// (`edit/wide-paste-past-the-room-60x20`).
@Suite struct BoundaryCorpusTests {
    static let targets = ["edit", "louis", "braille", "speech"]

    /// Runs `efb-fuzz-TARGET` on `folder`: its status and its standard output.
    private static func replay(_ target: String, _ folder: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = efbExecutable.deletingLastPathComponent().appendingPathComponent("efb-fuzz-\(target)")
        process.arguments = [folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(arguments: targets)
    func everySeedPlaysWithoutAFailure(target: String) throws {
        let folder = packageRoot.appendingPathComponent("Tests/BoundaryCorpus/\(target)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path).count
        #expect(seeds > 0, "Tests/BoundaryCorpus/\(target) holds no seed")
        let (status, text) = try Self.replay(target, folder)
        #expect(status == 0, "efb-fuzz-\(target): \(text)")
        #expect(text == "efb-fuzz-\(target): \(seeds) inputs replayed without a failure\n")
    }

    @Test(arguments: targets)
    func anEmptyOrMissingFolderFails(target: String) throws {
        let folder = try temporaryFolder("empty-boundary-corpus")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.replay(target, folder) == (1, ""))
        #expect(try Self.replay(target, folder.appendingPathComponent("missing")) == (1, ""))
    }
}
