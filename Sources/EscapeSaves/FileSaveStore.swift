#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps progress in a file, replaced atomically: a crash leaves the old save or the new one, never a mix.
///
/// Each save writes a temporary file beside the target, flushes it to disk, renames it over the
/// target and flushes the directory. The directory is created with user-only permissions.
///
/// Only the holder of the save's lock changes the file: ``save(_:)`` and ``moveAside()`` take the lock
/// first (see ``acquire()``) and refuse with ``SaveError/locked(path:)`` while another game holds it.
public final class FileSaveStore: SaveStore {
    /// The save file.
    public let path: String
    private var lockDescriptor: Int32 = -1

    /// Creates a store for `path`; nothing is read or written yet.
    public init(path: String) {
        self.path = path
    }

    deinit {
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// The lock file beside the save: `PATH.lock`.
    public var lockPath: String { path + ".lock" }

    /// Takes an advisory lock (`flock`) on `PATH.lock` for as long as this store lives.
    ///
    /// The lock is released by the kernel when the process ends, however it ends, so a crash never
    /// leaves a stale lock behind.
    public func acquire() throws(SaveError) {
        guard lockDescriptor < 0 else { return }
        try SystemCalls.makeDirectories(Self.directory(of: path), mode: 0o700)
        let descriptor = try SystemCalls.openLockFile(lockPath)
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw .locked(path: path) }
            throw .system(operation: "locking", path: lockPath, errno: code)
        }
        lockDescriptor = descriptor
        removeLeftovers()
    }

    /// Removes temporary files a killed game left beside the save; only the lock holder may.
    private func removeLeftovers() {
        let directory = Self.directory(of: path)
        let prefix = (path.split(separator: "/").last.map(String.init) ?? path) + ".tmp-"
        for name in SystemCalls.names(in: directory) where name.hasPrefix(prefix) {
            unlink(directory + "/" + name)
        }
    }

    /// The default save file: `$XDG_STATE_HOME/escape-from-blindness/progress.json`, where
    /// `XDG_STATE_HOME` defaults to `~/.local/state`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The path.
    public static func defaultPath(environment: [String: String]) -> String {
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = xdg
        } else {
            state = (environment["HOME"] ?? ".") + "/.local/state"
        }
        return state + "/escape-from-blindness/progress.json"
    }

    /// `file PATH`.
    public var location: String { "file \(path)" }

    /// Reads the save; a missing file means a new game.
    public func load() throws(SaveError) -> SaveData? {
        guard let bytes = try SystemCalls.readFile(path) else { return nil }
        return try SaveData.decode(bytes)
    }

    /// Writes `data` atomically, holding the lock.
    ///
    /// - Throws: ``SaveError/locked(path:)`` while another game holds the save, which stays untouched;
    ///   a ``SaveError/system(operation:path:errno:)`` when the lock or the file cannot be written.
    public func save(_ data: SaveData) throws(SaveError) {
        try acquire()
        let directory = Self.directory(of: path)
        try SystemCalls.makeDirectories(directory, mode: 0o700)
        let temporary = "\(path).tmp-\(getpid())"
        // The name is ours while we hold the lock: whatever sits there (a link, a leftover) goes first,
        // and the file is created anew, never opened through a link.
        unlink(temporary)
        try SystemCalls.writeFileSynced(temporary, bytes: data.encoded(), mode: 0o600)
        do {
            try SystemCalls.rename(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
        try SystemCalls.syncDirectory(directory)
    }

    /// Renames the save to `PATH.unreadable-N`, the first N not taken, holding the lock.
    ///
    /// - Returns: Where the save went.
    /// - Throws: ``SaveError/locked(path:)`` while another game holds the save, which stays where it
    ///   is; a ``SaveError/system(operation:path:errno:)`` when the lock or the rename fails.
    public func moveAside() throws(SaveError) -> String? {
        try acquire()
        var number = 1
        var target = "\(path).unreadable-\(number)"
        while access(target, F_OK) == 0 {
            number += 1
            target = "\(path).unreadable-\(number)"
        }
        try SystemCalls.rename(path, to: target)
        return target
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
