// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// What was answered reaches the output before a save is written (issue 26, the save, item 1).
@Suite struct FlushBeforeSaveTests {
    /// Before: output was written once per read (64 KiB).
    ///
    /// So a process the save's write ended (a file-size limit below the save's size raised SIGXFSZ)
    /// lost every answer of the lines read with the solving one. Whether or not the save then ends the process, those answers are out first.
    @Test func answersBeforeASaveAreOutBeforeItIsWritten() throws {
        let folder = try temporaryFolder("flush-before-save")
        let save = folder.appendingPathComponent("progress.json").path
        let lines = [
            #"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#, #"{"type":"ping","id":"before"}"#,
            #"{"type":"activate","element":"senses","id":"solve"}"#,
        ]
        // One write, so the engine reads every line at once; `ulimit -f 0` makes any save's write
        // exceed the limit.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"ulimit -f 0; exec "$0" "$@""#, efbExecutable.path, "pipe", "--clock", "virtual", "--save", save,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""replyTo":"before""#), "stdout: \(text.suffix(300))")
        #expect(text.contains(#""outcome":"correct","replyTo":"solve""#))
    }
}
