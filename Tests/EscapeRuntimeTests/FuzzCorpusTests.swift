import EscapeTestSupport
import Foundation
import Testing

/// The fuzz corpus replayed through the fuzz targets' own checks, as a regression test.
@Suite struct FuzzCorpusTests {
    private static let targets = ["lines", "engine", "snapshot", "save", "adventure"]

    private static func replay(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = efbExecutable.deletingLastPathComponent().appendingPathComponent("efb-fuzz")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func everyInputOfEveryTargetsCorpusPlaysWithoutAFailure() throws {
        let (status, text) = try Self.replay(["--all", packageRoot.appendingPathComponent("Tests/FuzzCorpus").path])
        #expect(status == 0)
        for target in Self.targets {
            // Each target's folder holds inputs: a replay of nothing would pass without testing anything.
            let line = text.split(separator: "\n").first { $0.hasPrefix("efb-fuzz: \(target): ") }
            let count = line.flatMap { Int($0.split(separator: " ")[2]) } ?? 0
            #expect(count > 0, "no input replayed for \(target): \(text)")
        }
    }

    @Test func anEmptyCorpusFails() throws {
        let folder = try temporaryFolder("empty-corpus")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.replay(["save", folder.path]).status != 0)
        #expect(try Self.replay(["--all", folder.path]).status != 0)
    }
}
