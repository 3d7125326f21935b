// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
import EscapeJSON

/// One adventure's progress in a save file: the adventure, the solved levels and where to carry on.
///
/// Levels are named by id, not position, so a save survives an adventure gaining levels.
public struct SaveData: Sendable, Hashable {
    /// The adventure the progress belongs to.
    public var adventureID: String
    /// Ids of the solved levels, in playing order.
    public var completed: [String]
    /// Id of the level to carry on with, or `nil` when the game was finished.
    public var current: String?
    /// The order chance gave each level that has one (its answers' ids as shown), by level id.
    public var answerOrders: [String: [String]]

    /// Creates save data.
    public init(adventureID: String, completed: [String], current: String?, answerOrders: [String: [String]] = [:]) {
        self.adventureID = adventureID
        self.completed = completed
        self.current = current
        self.answerOrders = answerOrders
    }

    /// The save form of `progress` in `adventure`.
    public init(_ progress: Progress, in adventure: Adventure) {
        var completed: [String] = []
        // Ids read where they are, not each level copied out whole.
        for chapter in adventure.chapters.indices {
            let levels = adventure.chapters[chapter].levels
            for level in levels.indices where progress.completed.contains(levels[level].id) {
                completed.append(levels[level].id)
            }
        }
        self.init(
            adventureID: adventure.id,
            completed: completed,
            current: progress.current.map { adventure.chapters[$0.chapter].levels[$0.level].id },
            answerOrders: progress.answerOrders
        )
    }

    /// The progress this save describes in `adventure`.
    ///
    /// Unknown level ids are dropped. A level to carry on with that the game could not have reached —
    /// none while levels are unsolved, one that follows an unsolved level, one the adventure lacks — is
    /// replaced by the first unsolved level, so a damaged or hand-made save never opens on the end
    /// screen with nothing solved.
    public func progress(in adventure: Adventure) -> Progress {
        let levels = adventure.chapters.enumerated().flatMap { chapter, content in
            content.levels.indices.map {
                (position: LevelPosition(chapter: chapter, level: $0), id: content.levels[$0].id)
            }
        }
        let solved = Set(completed).intersection(levels.map(\.id))
        let reachable: Bool
        if let current {
            let index = levels.firstIndex { $0.id == current }
            reachable = index.map { $0 == 0 || solved.contains(levels[$0 - 1].id) } ?? false
        } else {
            reachable = levels.last.map { solved.contains($0.id) } ?? false
        }
        let position =
            reachable ? levels.first { $0.id == current }?.position : levels.first { !solved.contains($0.id) }?.position
        // The engine keeps only the orders that are its levels' answers (see `Engine`).
        return Progress(completed: solved, current: position, answerOrders: answerOrders)
    }

    /// The bytes of a save file holding this record alone (see ``SaveFile/encoded()``).
    public func encoded() -> [UInt8] { SaveFile([self]).encoded() }

    /// The save format's body for this record: `{"completed":[...],"current":...}`, with
    /// `"answerOrders":{level id: [answer ids]}` when a level has one.
    var record: JSONValue {
        var record: [String: JSONValue] = [
            "completed": .array(completed.map(JSONValue.string)),
            "current": current.map(JSONValue.string) ?? .null,
        ]
        if !answerOrders.isEmpty {
            record["answerOrders"] = .object(answerOrders.mapValues { .array($0.map(JSONValue.string)) })
        }
        return .object(record)
    }

    /// Reads one record: `completed` (level ids), `current` (a level id or null), `answerOrders`.
    ///
    /// An order that is not a list of strings is left out, not refused: it
    /// is not something the player earned, and the rest of the record is still good.
    static func record(_ object: [String: JSONValue], adventureID: String) throws(SaveError) -> SaveData {
        guard case .array(let list) = object["completed"] else { throw .corrupt("completed is missing") }
        var completed: [String] = []
        for item in list {
            guard case .string(let id) = item else { throw .corrupt("completed holds something other than level ids") }
            completed.append(id)
        }
        let current: String?
        switch object["current"] {
        case .string(let id): current = id
        case .null: current = nil
        default: throw .corrupt("current must be a level id or null")
        }
        var orders: [String: [String]] = [:]
        if case .object(let kept)? = object["answerOrders"] {
            for (level, value) in kept {
                guard case .array(let items) = value else { continue }
                let ids = items.compactMap { item -> String? in
                    if case .string(let id) = item { return id }
                    return nil
                }
                if ids.count == items.count { orders[level] = ids }
            }
        }
        return SaveData(adventureID: adventureID, completed: completed, current: current, answerOrders: orders)
    }
}

/// A save file: the progress of every adventure played with it, one record per adventure id.
///
/// Format 2 keeps one record per adventure, so playing another adventure with the same save never
/// wipes the progress of the first; a format 1 file (one adventure) reads as a file of one record
/// and is written back as format 2 at the next save, losing nothing.
public struct SaveFile: Sendable, Hashable {
    /// The newest save format this engine writes and reads.
    public static let currentFormat = 2

    /// The records, by adventure id.
    public private(set) var records: [String: SaveData]

    /// Creates a file holding `saves` (a later save of the same adventure replaces an earlier one).
    public init(_ saves: [SaveData] = []) {
        records = [:]
        for save in saves { records[save.adventureID] = save }
    }

    /// The progress kept for the adventure `id`, if any.
    public subscript(adventure id: String) -> SaveData? { records[id] }

    /// Keeps `save` as its adventure's record, replacing the one before.
    public mutating func record(_ save: SaveData) {
        records[save.adventureID] = save
    }

    /// The file's bytes: one JSON object with sorted keys and a final newline.
    public func encoded() -> [UInt8] {
        var adventures: [String: JSONValue] = [:]
        for (id, save) in records { adventures[id] = save.record }
        var bytes: [UInt8] = []
        JSONWriter.write(["format": .int(Self.currentFormat), "adventures": .object(adventures)], into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Whether `bytes` may be a save this game wrote, however damaged: empty or all NUL bytes (what a
    /// crash can leave of a file on some file systems), or text that starts (after a byte-order mark and
    /// blanks) with `{` and, where it reads as JSON at all, holds a `format` key.
    ///
    /// Anything else (a shell's start-up file, someone else's JSON) is not ours to move aside or replace.
    public static func mayBeOurs(_ bytes: [UInt8]) -> Bool {
        if bytes.allSatisfy({ $0 == 0 }) { return true }
        let body = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes[...]
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return true }
        guard first == UInt8(ascii: "{") else { return false }
        guard case .object(let object)? = try? JSONReader.read(body) else { return true }
        return object["format"] != nil
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads a save file's bytes: the format version first, then the version's body.
    ///
    /// A UTF-8 byte-order mark is skipped, and the format may be written `1` or `1.0`, as on protocol
    /// lines and in adventure files.
    ///
    /// - Parameter bytes: The file's content.
    /// - Returns: The save file.
    /// - Throws: ``SaveError/notASave(path:reason:)`` (with an empty path) for a file this game did not
    ///   write (see ``mayBeOurs(_:)``), else ``SaveError`` saying what is wrong.
    public static func decode(_ bytes: [UInt8]) throws(SaveError) -> SaveFile {
        guard mayBeOurs(bytes) else { throw .notASave(path: "", reason: "it does not hold a save of this game") }
        let body = bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(byteOrderMark.count)) : bytes
        guard String(validating: body, as: UTF8.self) != nil else { throw .corrupt("the file is not UTF-8 text") }
        let value: JSONValue
        do {
            value = try JSONReader.read(body)
        } catch {
            throw .corrupt("not valid JSON: \(error)")
        }
        guard case .object(let object) = value else { throw .corrupt("the file does not hold a JSON object") }
        let format: Int
        switch object["format"] {
        case .int(let number): format = number
        case .double(let number) where number.rounded() == number && abs(number) < 1e9: format = Int(number)
        default: throw .corrupt("format is missing or not an integer")
        }
        guard format <= currentFormat else { throw .newerFormat(format) }
        switch format {
        case 1:
            guard case .string(let adventureID) = object["adventure"] else { throw .corrupt("adventure is missing") }
            return SaveFile([try SaveData.record(object, adventureID: adventureID)])
        case 2:
            guard case .object(let adventures) = object["adventures"] else {
                throw .corrupt("adventures is missing or not an object")
            }
            var file = SaveFile()
            for id in adventures.keys.sorted() {
                guard case .object(let record) = adventures[id] else {
                    throw .corrupt("the record of adventure \"\(id)\" is not an object")
                }
                file.record(try SaveData.record(record, adventureID: id))
            }
            return file
        default:
            throw .corrupt("format \(format) is not one this engine reads")
        }
    }
}

/// Why a save could not be read or written.
public enum SaveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is damaged or not a save.
    case corrupt(String)
    /// The file was written by a newer engine; it is left alone.
    case newerFormat(Int)
    /// A system call failed.
    case system(operation: String, path: String, errno: Int32)
    /// Another game holds the save's lock.
    case locked(path: String)
    /// What sits at the path is not a save of this game (or the path cannot be one): it is left
    /// untouched and the game does not start with it.
    case notASave(path: String, reason: String)
    /// Saving cannot work at this place (the lock file is a link or a folder): the save is still read,
    /// but nothing is written in this session.
    case unusable(path: String, reason: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .corrupt(let reason): "the save file is damaged (\(reason))"
        case .newerFormat(let format):
            "the save file has format \(format), written by a newer version of the game; it is left untouched"
        case .system(let operation, let path, let code): "\(operation) \(path) failed: \(SystemCalls.describe(code))"
        case .locked(let path): "another game is playing with the save \(path)"
        case .notASave(let path, let reason):
            path.isEmpty
                ? "this is not a save of this game: \(reason)" : "\(path) cannot be used as the save: \(reason)"
        case .unusable(let path, let reason): "\(path) cannot be used: \(reason)"
        }
    }
}
