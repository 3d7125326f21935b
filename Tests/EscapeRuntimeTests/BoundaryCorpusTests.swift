import EscapeTestSupport
import Foundation
import Testing

/// The C-boundary fuzz targets' seeds (Tests/BoundaryCorpus/NAME) replayed through the targets built
/// normally, as a regression test: among them the input that made libedit write through a missing row
/// (`edit/tall-line-60x20`).
@Suite struct BoundaryCorpusTests {
    @Test(arguments: ["edit", "louis", "braille", "speech"])
    func everySeedPlaysWithoutAFailure(target: String) throws {
        let process = Process()
        process.executableURL = efbExecutable.deletingLastPathComponent().appendingPathComponent("efb-fuzz-\(target)")
        process.arguments = [packageRoot.appendingPathComponent("Tests/BoundaryCorpus/\(target)").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "efb-fuzz-\(target): \(text)")
        let count = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        #expect(count > 0, "no seed replayed for \(target): \(text)")
    }
}
