/// Where progress is kept.
public protocol SaveStore: AnyObject {
    /// A short description for logs ("file /path", "memory").
    var location: String { get }
    /// Reads the save, or returns `nil` when there is none yet.
    func load() throws(SaveError) -> SaveData?
    /// Replaces the save, all or nothing.
    ///
    /// Throws ``SaveError/locked(path:)``, touching nothing, while another game holds the save.
    func save(_ data: SaveData) throws(SaveError)
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
    /// What was last saved.
    public private(set) var data: SaveData?
    /// How many times progress was saved.
    public private(set) var saveCount = 0

    /// Creates a store, empty or holding `data`.
    public init(_ data: SaveData? = nil) {
        self.data = data
    }

    /// `memory`.
    public var location: String { "memory" }

    /// Returns what was last saved.
    public func load() throws(SaveError) -> SaveData? { data }

    /// Keeps `data`.
    public func save(_ data: SaveData) throws(SaveError) {
        self.data = data
        saveCount += 1
    }

    /// Forgets the save.
    public func moveAside() throws(SaveError) -> String? {
        data = nil
        return nil
    }
}
