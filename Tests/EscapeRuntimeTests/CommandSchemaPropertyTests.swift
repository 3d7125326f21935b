// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// The engine accepts exactly the commands the command schema accepts: Protocol/tools/command_property.py
/// draws a few thousand valid and mutated commands from the schema and feeds them to one `efb pipe`.
struct CommandSchemaPropertyTests {
    @Test(arguments: [1, 2])
    func theEngineAcceptsExactlyWhatTheSchemaAccepts(seed: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            pythonCommand, packageRoot.appendingPathComponent("Protocol/tools/command_property.py").path,
            efbExecutable.path, "--seed", "\(seed)", "--count", "2000",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let drained = Pipe.drain(errors)
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try waitUntil(timeout: 30, "the property test's standard error to close") { drained.isEnded }
        #expect(process.terminationStatus == 0, "\(summary)\(drained.text.prefix(4000))")
        #expect(summary.contains("0 problems"), "\(summary)")
    }
}
