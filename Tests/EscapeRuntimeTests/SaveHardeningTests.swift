// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

@testable import EscapeRuntime

/// Saves that cannot be written, or that say what cannot be, leave nothing behind and nothing strange.
struct SaveHardeningTests {
    /// A full disk (here: no file may grow, `ulimit -f 0`) fails the save and leaves no partial file.
    @Test func aFailedWriteLeavesNoTemporaryFile() throws {
        let folder = try temporaryFolder("efb-full-disk")
        defer { try? FileManager.default.removeItem(at: folder) }
        let save = folder.appendingPathComponent("progress.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"trap '' XFSZ; ulimit -f 0; exec "$0" pipe --clock virtual --save "$1""#,
            efbExecutable.path, save,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(#"{"type":"replay"}"#.utf8 + [10]))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("save_failed"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.filter { $0.contains(".tmp-") } == [])
    }

    /// A save that says nothing is solved and nothing is left to play opens on the introduction.
    @Test func aSaveWithNothingSolvedAndNoCurrentLevelStartsANewGame() {
        let save = SaveData(adventureID: Support.adventure.id, completed: [], current: nil)
        #expect(save.progress(in: Support.adventure) == .fresh)
        let session = Support.session(store: InMemorySaveStore(save))
        _ = session.start()
        #expect(session.engine.screen.kind == .intro)
    }

    /// A save whose level to carry on with follows nothing solved carries on with the first unsolved.
    @Test func aSaveAheadOfItsSolvedLevelsCarriesOnWithTheFirstUnsolved() {
        let save = SaveData(adventureID: Support.adventure.id, completed: ["cellar-door"], current: "threshold-way-out")
        #expect(save.progress(in: Support.adventure).current == LevelPosition(chapter: 0, level: 1))
        let finished = Support.adventure.chapters.flatMap(\.levels).map(\.id)
        let done = SaveData(adventureID: Support.adventure.id, completed: finished, current: nil)
        #expect(done.progress(in: Support.adventure).current == nil)
    }
}
