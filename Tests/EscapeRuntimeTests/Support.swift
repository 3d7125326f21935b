// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Paths and helpers shared by the runtime and end-to-end tests.
enum Support {
    static let examples = packageRoot.appendingPathComponent("Protocol/examples")

    static let adventure: Adventure = {
        do {
            return try AdventureLoader.bundled(locale: "en")
        } catch {
            fatalError("the shipped adventure must load: \(error)")
        }
    }()

    /// A session as `efb pipe --seed 1 --clock virtual --memory-save` makes it.
    static func session(store: any SaveStore = InMemorySaveStore(), seed: UInt64 = 1) -> SessionHost {
        do {
            return try SessionHost(
                adventure: adventure,
                options: EngineOptions(hintInterval: 30_000, seed: seed),
                store: store,
                clock: VirtualClock()
            )
        } catch {
            fatalError("a test's save must open: \(error)")
        }
    }

    /// Feeds `input` to a session through a framer, as the pipe does, and returns every line it writes.
    static func transcript(of input: [UInt8], session: SessionHost = session()) -> [UInt8] {
        var output: [UInt8] = []
        var framer = LineFramer()
        for event in session.start() { EventEncoder.encode(event, into: &output) }
        var frames = framer.feed(input)
        if let last = framer.finish() { frames.append(last) }
        for frame in frames where !session.isFinished {
            for event in session.handle(frame) { EventEncoder.encode(event, into: &output) }
        }
        for event in session.finish() { EventEncoder.encode(event, into: &output) }
        return output
    }

    /// Validates NDJSON against Protocol/ schemas with the independent Python validator.
    static func validate(_ kind: String, _ bytes: [UInt8]) throws -> (ok: Bool, report: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("efb-\(UUID().uuidString).ndjson")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            pythonCommand, packageRoot.appendingPathComponent("Protocol/tools/validate.py").path, kind, file.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus == 0, report)
    }

    /// Splits NDJSON output into parsed objects.
    static func events(_ bytes: [UInt8]) throws -> [[String: JSONValue]] {
        try bytes.split(separator: UInt8(ascii: "\n")).map { line in
            guard case .object(let object) = try JSONReader.read(line) else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }
}
