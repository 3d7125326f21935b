// SPDX-License-Identifier: Apache-2.0
/// Where progress is kept.
public protocol SaveStore: AnyObject {
    /// A short description for logs ("file /path", "memory").
    var location: String { get }
    /// Reads the save file, or returns `nil` when there is none yet.
    func load() throws(SaveError) -> SaveFile?
    /// Replaces the save file, all or nothing.
    ///
    /// Throws ``SaveError/locked(path:)``, touching nothing, while another game holds the save.
    func save(_ file: SaveFile) throws(SaveError)
    /// Moves a damaged save out of the way, keeping it; returns where it went.
    ///
    /// Throws ``SaveError/locked(path:)``, touching nothing, while another game holds the save.
    func moveAside() throws(SaveError) -> String?
    /// Takes the save for this game, so a second game cannot overwrite it; taking it again is harmless.
    ///
    /// Throws ``SaveError/locked(path:)`` while another game holds it.
    func acquire() throws(SaveError)
}

extension SaveStore {
    /// Stores that no other process can reach need no lock.
    public func acquire() throws(SaveError) {}
}

/// Keeps progress in memory, for tests and bots: nothing touches the disk.
public final class InMemorySaveStore: SaveStore {
    /// The save file as last saved.
    public private(set) var file: SaveFile?
    /// The record last saved (or given at the start).
    public private(set) var data: SaveData?
    /// How many times progress was saved.
    public private(set) var saveCount = 0

    /// Creates a store, empty or holding `data`.
    public init(_ data: SaveData? = nil) {
        self.data = data
        file = data.map { SaveFile([$0]) }
    }

    /// Creates a store holding `file`.
    public init(file: SaveFile) {
        self.file = file
    }

    /// `memory`.
    public var location: String { "memory" }

    /// Returns what was last saved.
    public func load() throws(SaveError) -> SaveFile? { file }

    /// Keeps `file`.
    public func save(_ file: SaveFile) throws(SaveError) {
        let changed = file.records.values.first { self.file?[adventure: $0.adventureID] != $0 }
        data = changed ?? data.flatMap { file[adventure: $0.adventureID] } ?? file.records.values.first
        self.file = file
        saveCount += 1
    }

    /// Forgets the save.
    public func moveAside() throws(SaveError) -> String? {
        data = nil
        file = nil
        return nil
    }
}
