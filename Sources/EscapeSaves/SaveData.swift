public import EscapeCore
import EscapeJSON

/// What a save file holds, version 1: the adventure, the solved levels and where to carry on.
///
/// Levels are named by id, not position, so a save survives an adventure gaining levels.
public struct SaveData: Sendable, Hashable {
    /// The newest save format this engine writes and reads.
    public static let currentFormat = 1

    /// The adventure the progress belongs to.
    public var adventureID: String
    /// Ids of the solved levels, in playing order.
    public var completed: [String]
    /// Id of the level to carry on with, or `nil` when the game was finished.
    public var current: String?

    /// Creates save data.
    public init(adventureID: String, completed: [String], current: String?) {
        self.adventureID = adventureID
        self.completed = completed
        self.current = current
    }

    /// The save form of `progress` in `adventure`.
    public init(_ progress: Progress, in adventure: Adventure) {
        let levels = adventure.chapters.flatMap(\.levels)
        self.init(
            adventureID: adventure.id,
            completed: levels.map(\.id).filter { progress.completed.contains($0) },
            current: progress.current.map { adventure.chapters[$0.chapter].levels[$0.level].id }
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
        return Progress(completed: solved, current: position)
    }

    /// The file's bytes: one JSON object with sorted keys and a final newline.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.write(
            [
                "format": .int(Self.currentFormat),
                "adventure": .string(adventureID),
                "completed": .array(completed.map(JSONValue.string)),
                "current": current.map(JSONValue.string) ?? .null,
            ],
            into: &bytes
        )
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Reads a save file's bytes: the format version first, then the version's body.
    ///
    /// - Parameter bytes: The file's content.
    /// - Returns: The save.
    /// - Throws: ``SaveError`` saying what is wrong.
    public static func decode(_ bytes: [UInt8]) throws(SaveError) -> SaveData {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .corrupt("the file is not UTF-8 text") }
        let value: JSONValue
        do {
            value = try JSONReader.read(bytes)
        } catch {
            throw .corrupt("not valid JSON: \(error)")
        }
        guard case .object(let object) = value else { throw .corrupt("the file does not hold a JSON object") }
        guard case .int(let format) = object["format"] else { throw .corrupt("format is missing or not an integer") }
        guard format <= currentFormat else { throw .newerFormat(format) }
        guard format == currentFormat else { throw .corrupt("format \(format) is not one this engine reads") }
        guard case .string(let adventureID) = object["adventure"] else { throw .corrupt("adventure is missing") }
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
        return SaveData(adventureID: adventureID, completed: completed, current: current)
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

    /// A sentence for people.
    public var description: String {
        switch self {
        case .corrupt(let reason): "the save file is damaged (\(reason))"
        case .newerFormat(let format):
            "the save file has format \(format), written by a newer version of the game; it is left untouched"
        case .system(let operation, let path, let code): "\(operation) \(path) failed: \(SystemCalls.describe(code))"
        case .locked(let path): "another game is playing with the save \(path)"
        }
    }
}
