// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// A fresh directory under the system's temporary directory, removed afterwards.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "efb-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

struct SaveStoreTests {
    private let data = SaveData(adventureID: "adv", completed: ["a", "b"], current: "c")
    private var file: SaveFile { SaveFile([data]) }

    @Test func aSaveReadsBackTheSame() throws {
        let directory = try TemporaryDirectory()
        let store = FileSaveStore(path: directory.path + "/state/efb/progress.json", makesParents: true)
        #expect(try store.load() == nil)
        try store.save(file)
        #expect(try store.load() == file)
        try store.save(SaveFile([SaveData(adventureID: "adv", completed: [], current: nil)]))
        #expect(try store.load()?[adventure: "adv"]?.current == nil)
    }

    @Test func theFileIsVersionedJSONWithSortedKeys() throws {
        let other = SaveData(adventureID: "another", completed: [], current: nil)
        let text = String(decoding: SaveFile([data, other]).encoded(), as: UTF8.self)
        let records = #"{"adv":{"completed":["a","b"],"current":"c"},"another":{"completed":[],"current":null}}"#
        #expect(text == #"{"adventures":"# + records + #","format":2}"# + "\n")
    }

    /// A save exactly as the engine wrote it before JSON had a target of its own (format 1, one adventure):
    /// it reads as a file of one record, nothing lost.
    @Test func aSaveWrittenByEarlierVersionsLoadsWithNothingLost() throws {
        let old =
            #"{"adventure":"escape-from-blindness","completed":["corridor","cellar/door"],"current":"stairs \u2028","format":1}"#
        let bytes = Array((old + "\n").utf8)
        let save = try SaveFile.decode(bytes)
        let expected = SaveData(
            adventureID: "escape-from-blindness",
            completed: ["corridor", "cellar/door"],
            current: "stairs \u{2028}"
        )
        #expect(save == SaveFile([expected]))
        #expect(try SaveFile.decode(save.encoded()) == save)
        let finished = Array(#"{"adventure":"a","completed":[],"current":null,"format":1}"#.utf8) + [0x0A]
        #expect(try SaveFile.decode(finished) == SaveFile([SaveData(adventureID: "a", completed: [], current: nil)]))
    }

    @Test func theDirectoryIsPrivateAndNoTemporaryFileIsLeft() throws {
        let directory = try TemporaryDirectory()
        let store = FileSaveStore(path: directory.path + "/new/progress.json")
        try store.save(file)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/new")
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        // The save and the lock that saving takes; no temporary file.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path + "/new").sorted()
                == ["progress.json", "progress.json.lock"]
        )
    }

    @Test(
        arguments: [
            "", "{", "\u{FEFF}{", #"{"format":"1"}"#, #"{"format":1}"#, #"{"format":2,"adventures":[]}"#,
            #"{"format":2,"adventures":{"a":[]}}"#, #"{"format":1.5,"adventure":"a","completed":[],"current":null}"#,
            #"{"format":1,"adventure":"a","completed":[1],"current":null}"#,
            #"{"format":1,"adventure":"a","completed":[],"current":5}"#,
            #"{"format":0,"adventure":"a","completed":[]}"#,
        ]
    )
    func aDamagedFileIsReportedAsCorrupt(_ text: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try FileSaveStore(path: path).load()
        } throws: { error in
            guard case .corrupt = error as? SaveError else { return false }
            return true
        }
    }

    @Test func aNewerFormatIsRecognised() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        try Data(#"{"format":3,"whatever":true}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SaveError.newerFormat(3)) { try FileSaveStore(path: path).load() }
    }

    @Test func movingAsideKeepsTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        let store = FileSaveStore(path: path)
        for round in 1...2 {
            try Data("{junk \(round)".utf8).write(to: URL(fileURLWithPath: path))
            let aside = try store.moveAside()
            #expect(aside == "\(path).unreadable-\(round)")
            #expect(try String(contentsOfFile: "\(path).unreadable-\(round)", encoding: .utf8) == "{junk \(round)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// `flock` locks an open file description: a second store in this process is refused as a second game is.
    @Test func aStoreWithoutTheLockNeitherMovesAsideNorSaves() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/progress.json"
        var holder: FileSaveStore? = FileSaveStore(path: path)
        try holder?.acquire()
        try Data("{junk".utf8).write(to: URL(fileURLWithPath: path))
        let other = FileSaveStore(path: path)
        #expect(throws: SaveError.locked(path: path)) { try other.moveAside() }
        #expect(throws: SaveError.locked(path: path)) { try other.save(file) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{junk")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "progress.json", "progress.json.lock",
            ]
        )
        // Once the holder is gone, the other store takes the lock and may change the file.
        holder = nil
        // A process spawned meanwhile by a parallel test holds a copy of the descriptor from its fork to
        // its exec (O_CLOEXEC closes it only then), so the kernel may let go of the lock a moment later.
        try waitUntil("the released lock") { (try? other.acquire()) != nil }
        #expect(try other.moveAside() == "\(path).unreadable-1")
        try other.save(file)
        #expect(try other.load() == file)
    }

    @Test func anUnwritableLocationIsASystemError() throws {
        let directory = try TemporaryDirectory()
        try Data("file".utf8).write(to: URL(fileURLWithPath: directory.path + "/blocker"))
        let store = FileSaveStore(path: directory.path + "/blocker/progress.json")
        #expect {
            try store.save(file)
        } throws: { error in
            guard case .system = error as? SaveError else { return false }
            return true
        }
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(
            FileSaveStore.defaultPath(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/p"])
                == "/x/state/escape-from-blindness/progress.json"
        )
        #expect(
            FileSaveStore.defaultPath(environment: ["HOME": "/home/p"])
                == "/home/p/.local/state/escape-from-blindness/progress.json"
        )
        #expect(
            FileSaveStore.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/p"])
                == "/home/p/.local/state/escape-from-blindness/progress.json"
        )
    }

    /// Without `HOME` (or with a relative one) the home is the password database's, never the current
    /// folder, where anyone could read or plant the save.
    @Test func withoutHomeTheDefaultPathIsThePasswordDatabasesHome() throws {
        let entry = try #require(getpwuid(geteuid()))
        let home = String(cString: entry.pointee.pw_dir)
        let expected = home + (home.hasSuffix("/") ? "" : "/") + ".local/state/escape-from-blindness/progress.json"
        #expect(FileSaveStore.defaultPath(environment: [:]) == expected)
        #expect(FileSaveStore.defaultPath(environment: ["HOME": ""]) == expected)
        #expect(FileSaveStore.defaultPath(environment: ["HOME": "."]) == expected)
        #expect(FileSaveStore.defaultPath(environment: ["HOME": "relative/home"]) == expected)
        #expect(FileSaveStore.defaultPath(environment: [:])?.hasPrefix("/") == true)
    }

    @Test func inMemoryStoresKeepTheLastSave() throws {
        let store = InMemorySaveStore()
        try store.save(file)
        #expect(try store.load() == file)
        #expect(store.data == data)
        #expect(store.saveCount == 1)
    }
}

/// Issue 23, item 11: the answers' orders travel in the save, and a bad one costs nothing earned.
struct SaveAnswerOrderTests {
    @Test func ordersAreWrittenWhenThereAreAnyAndReadBack() throws {
        let data = SaveData(adventureID: "adv", completed: ["a"], current: "b", answerOrders: ["b": ["y", "x", "z"]])
        let text = String(decoding: SaveFile([data]).encoded(), as: UTF8.self)
        let record = #"{"answerOrders":{"b":["y","x","z"]},"completed":["a"],"current":"b"}"#
        #expect(text == #"{"adventures":{"adv":"# + record + #"},"format":2}"# + "\n")
        #expect(try SaveFile.decode(Array(text.utf8))[adventure: "adv"] == data)
    }

    @Test func aMalformedOrderIsLeftOutAndTheRestKept() throws {
        let text = #"""
            {"adventures":{"adv":{"answerOrders":{"b":["y",1],"c":"x","d":["q"]},"completed":["a"],"current":"b"}},"format":2}
            """#
        let read = try #require(try SaveFile.decode(Array(text.utf8))[adventure: "adv"])
        #expect(read.completed == ["a"])
        #expect(read.current == "b")
        #expect(read.answerOrders == ["d": ["q"]])
        let ignored = #"{"adventures":{"adv":{"answerOrders":7,"completed":["a"],"current":"b"}},"format":2}"#
        #expect(try SaveFile.decode(Array(ignored.utf8))[adventure: "adv"]?.answerOrders == [:])
    }
}
