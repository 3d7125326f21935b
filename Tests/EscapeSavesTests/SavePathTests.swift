// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a save path may be, what the store may touch beside it, and which files are ours (issue 26).
struct SavePathTests {
    private let file = SaveFile([SaveData(adventureID: "adv", completed: ["a"], current: "b")])

    /// Only a damaged save of ours is ever moved aside or replaced; anything else is refused untouched.
    @Test(
        arguments: [
            "[]", "export PATH=$HOME/bin:$PATH\n", "root:x:0:0:root:/root:/bin/bash\n", #"{"editor":"vim"}"#,
            "\u{FEFF}# a comment\n", "\u{00}\u{01}binary",
        ]
    )
    func aFileThatIsNotASaveIsRefusedAndLeftAlone(_ text: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/.bashrc"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let store = FileSaveStore(path: path)
        #expect(throws: SaveError.notASave(path: path, reason: "it does not hold a save of this game")) {
            try store.load()
        }
        #expect(throws: SaveError.notASave(path: path, reason: "it does not hold a save of this game")) {
            try store.acquire()
        }
        #expect(throws: SaveError.self) { try store.save(file) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(text.utf8))
        // Not even a lock file beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [".bashrc"])
    }

    /// Damaged saves of ours (empty, truncated, wrong shapes) may still be moved aside.
    @Test(arguments: ["", "{", #"{"adventure":"a","compl"#, "{\"format\":1,\"adventure\":\u{00}}", #"{"format":"x"}"#])
    func aDamagedSaveOfOursMayBeMovedAside(_ text: String) {
        #expect(SaveFile.mayBeOurs(Array(text.utf8)))
    }

    /// A byte-order mark and a format written `1.0` are read as protocol lines and adventures read them.
    @Test(
        arguments: [
            "\u{FEFF}" + #"{"adventure":"adv","completed":["a"],"current":"b","format":1}"#,
            #"{"adventure":"adv","completed":["a"],"current":"b","format":1.0}"#,
            "\u{FEFF}" + #"{"adventures":{"adv":{"completed":["a"],"current":"b"}},"format":2.0}"#,
        ]
    )
    func aByteOrderMarkAndAnIntegralFormatAreAccepted(_ text: String) throws {
        #expect(try SaveFile.decode(Array(text.utf8)) == file)
    }

    /// Empty and folder-looking paths are refused before anything is made.
    @Test(arguments: ["", "/", ".", "..", "sub/", "a/.", "a/..", "/tmp/"])
    func aPathThatNamesAFolderIsRefused(_ path: String) {
        #expect {
            try FileSaveStore(checking: path)
        } throws: { error in
            guard case .notASave = error as? SaveError else { return false }
            return true
        }
    }

    @Test func anExistingFolderIsRefused() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: SaveError.self) { try FileSaveStore(checking: directory.path) }
    }

    /// Only the save's own folder is made for a path the user gives: a long path of folders that do not
    /// exist is refused by the system at the first missing one, never created.
    @Test func onlyTheSavesOwnFolderIsMade() throws {
        let directory = try TemporaryDirectory()
        let own = FileSaveStore(path: directory.path + "/own/progress.json")
        try own.save(file)
        #expect(try own.load() == file)
        let deep = FileSaveStore(path: directory.path + "/a/b/c/progress.json")
        #expect(throws: SaveError.self) { try deep.save(file) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["own"])
    }

    /// The lock file a link or a folder: the store says the place cannot be used, and makes nothing.
    @Test(arguments: [true, false])
    func aLinkOrAFolderAtTheLockIsUnusable(_ link: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        if link {
            #expect(symlink(directory.path + "/elsewhere", path + ".lock") == 0)
        } else {
            #expect(mkdir(path + ".lock", 0o700) == 0)
        }
        #expect {
            try FileSaveStore(path: path).acquire()
        } throws: { error in
            guard case .unusable(let lock, _) = error as? SaveError else { return false }
            return lock == path + ".lock"
        }
        #expect(access(directory.path + "/elsewhere", F_OK) != 0)
    }

    /// Only our own leftovers go: `NAME.tmp-PID`, a regular file of ours, of a process no longer running.
    @Test func onlyOurOwnLeftoversAreRemoved() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notes"
        let dead = try deadProcessNumber()
        let kept = [
            "notes.tmp-draft",  // a user's file with a similar name
            "notes.tmp-1",  // init is running: not a leftover
            "notes.tmp-\(getppid())",  // a running process
            "notes.tmp-\(dead)x",
            "notes.tmp-",
        ]
        for name in kept { try Data("mine".utf8).write(to: URL(fileURLWithPath: directory.path + "/" + name)) }
        #expect(mkdir(directory.path + "/notes.tmp-\(dead + 1_000_000)", 0o700) == 0)  // a folder
        #expect(symlink(directory.path + "/notes.tmp-draft", directory.path + "/notes.tmp-\(dead + 2_000_000)") == 0)
        var expected = Set(kept + ["notes.tmp-\(dead + 1_000_000)", "notes.tmp-\(dead + 2_000_000)"])
        if geteuid() == 0 {
            // Another user's file, even of a dead process, is not ours.
            let foreign = directory.path + "/notes.tmp-\(dead + 3_000_000)"
            try Data("theirs".utf8).write(to: URL(fileURLWithPath: foreign))
            #expect(chown(foreign, 65_534, 65_534) == 0)
            expected.insert("notes.tmp-\(dead + 3_000_000)")
        }
        try Data("leftover".utf8).write(to: URL(fileURLWithPath: directory.path + "/notes.tmp-\(dead)"))
        let store = FileSaveStore(path: path)
        try store.acquire()
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(names == expected.union(["notes.lock"]))
    }

    /// A symbolic link to a save of the user's own (kept in a synced folder, say) is resolved once: the
    /// link stays a link and its target gets the progress.
    @Test func aSymlinkedSaveOfOurOwnIsWrittenThroughItsTarget() throws {
        let directory = try TemporaryDirectory()
        #expect(mkdir(directory.path + "/synced", 0o700) == 0)
        let target = directory.path + "/synced/progress.json"
        let old = SaveFile([SaveData(adventureID: "adv", completed: [], current: "a")])
        try Data(old.encoded()).write(to: URL(fileURLWithPath: target))
        let link = directory.path + "/progress.json"
        #expect(symlink(target, link) == 0)
        let store = try FileSaveStore(checking: link)
        #expect(store.path == target)
        #expect(try store.load() == old)
        try store.save(file)
        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(try SaveFile.decode(Array(Data(contentsOf: URL(fileURLWithPath: link)))) == file)
    }

    /// A link whose target is missing or not a file is refused, never followed into creating something.
    @Test func aDanglingOrFolderLinkIsRefused() throws {
        let directory = try TemporaryDirectory()
        let dangling = directory.path + "/dangling.json"
        #expect(symlink(directory.path + "/missing/progress.json", dangling) == 0)
        #expect(throws: SaveError.self) { try FileSaveStore(checking: dangling) }
        let folder = directory.path + "/folder.json"
        #expect(symlink(directory.path, folder) == 0)
        #expect(throws: SaveError.self) { try FileSaveStore(checking: folder) }
        #expect(access(directory.path + "/missing", F_OK) != 0)
    }

    /// The number of a process that has ended (and been reaped).
    private func deadProcessNumber() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
