// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeSaves
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What another user (or a mistake) can plant beside the save must never make the engine write
/// through a link, create files elsewhere or hang.
struct HostileSavePathTests {
    private let data = SaveData(adventureID: "adv", completed: ["a"], current: "b")

    @Test func aSymlinkPlantedAtTheTemporaryFileIsNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        let victim = directory.path + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let store = FileSaveStore(path: path)
        try store.acquire()  // leftovers are cleared when the lock is taken: plant the link after
        #expect(symlink(victim, "\(path).tmp-\(getpid())") == 0)
        try store.save(SaveFile([data]))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try store.load() == SaveFile([data]))
    }

    @Test func aSymlinkedLockPathDoesNotCreateItsTarget() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        let target = directory.path + "/created-elsewhere"
        #expect(symlink(target, path + ".lock") == 0)
        let store = FileSaveStore(path: path)
        #expect(throws: SaveError.self) { try store.acquire() }
        #expect(access(target, F_OK) != 0)
    }

    @Test func aFIFOAtTheSavePathIsRefusedWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        #expect(mkfifo(path, 0o600) == 0)
        let store = FileSaveStore(path: path)
        // Before, `open` waited for a writer that never comes.
        #expect(throws: SaveError.self) { try store.load() }
    }
}
