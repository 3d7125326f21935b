// SPDX-License-Identifier: Apache-2.0
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
    /// Whether missing folders above the save's own folder may be made (the default save's state folder);
    /// otherwise only the save's own folder is made.
    public let makesParents: Bool
    private var lockDescriptor: Int32 = -1

    /// Creates a store for `path`; nothing is read or written yet.
    ///
    /// A file-size limit (`ulimit -f`) must fail a save with `EFBIG`, not kill the process: unless the
    /// process already handles `SIGXFSZ`, it is ignored from here on.
    ///
    /// - Parameters:
    ///   - path: The save file, used as given (see ``init(checking:makesParents:)`` for a path from a user).
    ///   - makesParents: Whether missing folders above the save's own folder may be made.
    public init(path: String, makesParents: Bool = false) {
        Self.ignoreFileSizeSignal()
        self.path = path
        self.makesParents = makesParents
    }

    /// Creates a store for a save path a user gave, refusing one that cannot be a save.
    ///
    /// An empty path and one that names a folder (`/`, `.`, `sub/`, an existing folder) are refused. A
    /// symbolic link (a save kept in a synced folder, say) is resolved once, here: the store then reads,
    /// locks and replaces the link's target, so the link keeps pointing at the progress. The link and its
    /// target must both be the user's own, and the target an existing regular file; anything else is
    /// refused rather than followed.
    ///
    /// - Throws: ``SaveError/notASave(path:reason:)`` saying why.
    public convenience init(checking path: String, makesParents: Bool = false) throws(SaveError) {
        self.init(path: try Self.checked(path), makesParents: makesParents)
    }

    static func checked(_ path: String) throws(SaveError) -> String {
        func refuse(_ reason: String) -> SaveError { .notASave(path: path.isEmpty ? "\"\"" : path, reason: reason) }
        if path.isEmpty { throw refuse("the path is empty") }
        let last = path.split(separator: "/").last
        if path.hasSuffix("/") || last == nil || last == "." || last == ".." {
            throw refuse(
                "it names a folder; give the path of a file, such as \(path.hasSuffix("/") ? path : path + "/")progress.json"
            )
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return path }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw refuse("it is a folder; give the path of a file in it, such as \(path)/progress.json")
        case S_IFREG:
            if let owner = Self.otherOwner(status) { throw refuse("it belongs to another user (\(owner))") }
            if let stream = Self.standardStream(status) { throw refuse("it is this game's own \(stream)") }
            return path
        case S_IFLNK:
            guard status.st_uid == geteuid() else { throw refuse("it is a symbolic link that belongs to another user") }
            guard let resolved = realpath(path, nil) else {
                throw refuse("it is a symbolic link to a file that cannot be found (\(SystemCalls.describe(errno)))")
            }
            defer { free(resolved) }
            let target = String(cString: resolved)
            var targetStatus = stat()
            guard stat(target, &targetStatus) == 0, targetStatus.st_mode & S_IFMT == S_IFREG else {
                throw refuse("it is a symbolic link to \(target), which is not a regular file")
            }
            guard targetStatus.st_uid == geteuid() else {
                throw refuse("it is a symbolic link to \(target), which belongs to another user")
            }
            // `/proc/self/fd/1` or `/dev/stdout` is a link to the game's own output: a save there would
            // overwrite the transcript (and move it aside as unreadable).
            if let stream = Self.standardStream(targetStatus) {
                throw refuse("it leads to \(target), which is this game's own \(stream)")
            }
            return target
        default:
            throw refuse("it is not a regular file (\(Self.kind(of: status))); give the path of a file")
        }
    }

    /// The name of the file kind `status` describes, for a message.
    static func kind(of status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFIFO: "a named pipe"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Who owns the file `status` describes, when it is another user: their name (or number).
    ///
    /// A save is only ever read and written by its owner: one run as root (`sudo -E`) or through another
    /// user's `XDG_STATE_HOME` would otherwise replace it with a file its owner cannot read.
    static func otherOwner(_ status: stat) -> String? {
        guard status.st_uid != geteuid() else { return nil }
        return userName(status.st_uid)
    }

    /// A user's name from the password database, else `uid N`.
    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name {
            return "user \(String(cString: name)), uid \(uid)"
        }
        return "uid \(uid)"
    }

    /// Which of the process's standard input, output or error is the file `status` describes, if any.
    static func standardStream(_ status: stat) -> String? {
        for (descriptor, name) in [(Int32(0), "standard input"), (1, "standard output"), (2, "standard error")] {
            var open = stat()
            if fstat(descriptor, &open) == 0, open.st_dev == status.st_dev, open.st_ino == status.st_ino {
                return name
            }
        }
        return nil
    }

    /// Ignores `SIGXFSZ` once, unless the process already handles it.
    private static func ignoreFileSizeSignal() {
        var current = sigaction()
        guard sigaction(SIGXFSZ, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
        signal(SIGXFSZ, SIG_IGN)
    }

    deinit {
        guard lockDescriptor >= 0 else { return }
        // Unlocked first: a child forked elsewhere in the process may still hold a copy of the descriptor
        // until it execs (it is close-on-exec), and the lock belongs to every copy.
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    /// The lock file beside the save: `PATH.lock`.
    public var lockPath: String { path + ".lock" }

    /// Takes an advisory lock (`flock`) on `PATH.lock` for as long as this store lives.
    ///
    /// The lock is released by the kernel when the process ends, however it ends, so a crash never
    /// leaves a stale lock behind.
    ///
    /// - Throws: ``SaveError/notASave(path:reason:)``, before making anything, when the file at the path is
    ///   not a save of this game; ``SaveError/unusable(path:reason:)`` when the lock file is a link or a
    ///   folder; ``SaveError/locked(path:)`` while another game holds the lock.
    public func acquire() throws(SaveError) {
        if lockDescriptor >= 0 {
            // Held, unless the lock file was removed or replaced since: a second game could then lock
            // the new one and save too. Ours is let go and the lock taken again (or refused).
            guard !holdsLockFile() else { return }
            flock(lockDescriptor, LOCK_UN)
            close(lockDescriptor)
            lockDescriptor = -1
        }
        try checkOwners()
        // A file that is not a save of ours is never touched, not even by a lock file beside it.
        if let bytes = try? SystemCalls.readFile(path), !SaveFile.mayBeOurs(bytes) {
            throw .notASave(path: path, reason: "it does not hold a save of this game")
        }
        try makeFolder()
        let descriptor: Int32
        do {
            descriptor = try SystemCalls.openLockFile(lockPath)
        } catch {
            // A link or a folder at the lock's name: saving cannot be guarded, so it cannot be done.
            var status = stat()
            if lstat(lockPath, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                let kind = status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a regular file"
                throw .unusable(path: lockPath, reason: "the save's lock file is \(kind)")
            }
            throw error
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw .locked(path: path) }
            throw .system(operation: "locking", path: lockPath, errno: code)
        }
        lockDescriptor = descriptor
        // Removed or replaced between our open and our lock: the file a second game would lock is not
        // this one, so this lock guards nothing.
        guard holdsLockFile() else {
            flock(descriptor, LOCK_UN)
            close(descriptor)
            lockDescriptor = -1
            throw .locked(path: path)
        }
        removeLeftovers()
    }

    /// Whether the file at ``lockPath`` is still the one this store holds locked (same device and inode).
    private func holdsLockFile() -> Bool {
        var held = stat()
        var named = stat()
        return fstat(lockDescriptor, &held) == 0 && lstat(lockPath, &named) == 0 && held.st_dev == named.st_dev
            && held.st_ino == named.st_ino
    }

    /// Refuses a save, a lock file or (for root) a folder that belongs to another user: efb never
    /// changes the owner of a player's files.
    private func checkOwners() throws(SaveError) {
        var status = stat()
        if lstat(path, &status) == 0, let owner = Self.otherOwner(status) {
            throw .notASave(
                path: path,
                reason: "it belongs to another user (\(owner)); efb never changes a save's owner"
            )
        }
        if lstat(lockPath, &status) == 0, let owner = Self.otherOwner(status) {
            throw .notASave(
                path: path,
                reason: "its lock file \(lockPath) belongs to another user (\(owner)); efb never changes a save's owner"
            )
        }
        // Root writing into a user's folder would leave files there that the user cannot replace.
        let directory = Self.directory(of: path)
        if geteuid() == 0, lstat(directory, &status) == 0, status.st_uid != 0, status.st_mode & S_ISVTX == 0 {
            throw .notASave(
                path: path,
                reason: "its folder \(directory) belongs to another user (\(Self.userName(status.st_uid))); "
                    + "efb run as root never writes a user's save"
            )
        }
    }

    /// Removes temporary files a killed game left beside the save; only the lock holder may.
    ///
    /// Only our own leftovers go: `BASENAME.tmp-PID` exactly, a regular file of this user, whose process
    /// is no longer running. Anything else with a similar name (`notes.tmp-draft`, another user's file,
    /// a link, a folder) is left alone.
    private func removeLeftovers() {
        let directory = Self.directory(of: path)
        let prefix = (path.split(separator: "/").last.map(String.init) ?? path) + ".tmp-"
        for name in SystemCalls.names(in: directory) where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ ("0"..."9").contains($0) }),
                let pid = pid_t(digits), pid > 0
            else { continue }
            let file = directory + "/" + name
            var status = stat()
            guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
                continue
            }
            // A process of that number still running may be the game that wrote it (in another folder's
            // view, or a moment ago): its file stays. Our own number is ours to clear.
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }
            unlink(file)
        }
    }

    /// Makes the save's folder (user-only), and the folders above it only when ``makesParents``.
    private func makeFolder() throws(SaveError) {
        let directory = Self.directory(of: path)
        if makesParents {
            try SystemCalls.makeDirectories(directory, mode: 0o700)
        } else {
            try SystemCalls.makeDirectory(directory, mode: 0o700)
        }
    }

    /// The default save file: `$XDG_STATE_HOME/escape-from-blindness/progress.json`, where
    /// `XDG_STATE_HOME` defaults to `~/.local/state`.
    ///
    /// The home is `HOME` when it is an absolute path, else the password database's entry for the user;
    /// never the current folder (a game started from `/tmp` without `HOME` would leave its save there,
    /// for anyone to read or plant). A relative `XDG_STATE_HOME` is ignored, as the XDG specification says.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The path; `nil` when neither `HOME` nor the password database gives a home.
    ///
    /// Its store makes the missing folders above it (``makesParents``); a path given by the user only
    /// gets its own folder made.
    public static func defaultPath(environment: [String: String]) -> String? {
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = xdg
        } else if let home = home(environment: environment) {
            state = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/state"
        } else {
            return nil
        }
        return state + "/escape-from-blindness/progress.json"
    }

    /// The user's home: `HOME` when absolute, else the password database's (wraps `getpwuid_r`).
    static func home(environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil,
            let directory = entry.pw_dir
        else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }

    /// What to say when there is no default save (``defaultPath(environment:)`` is `nil`).
    public static let noHomeProblem =
        "there is no home folder for the save: HOME is not set and the password database has no home for this "
        + "user. Give --save PATH, or play with --memory-save (nothing is kept)"

    /// `file PATH`.
    public var location: String { "file \(path)" }

    /// Reads the save; a missing file means a new game.
    ///
    /// - Throws: ``SaveError/notASave(path:reason:)`` when the file is not a save of this game (see
    ///   ``SaveFile/mayBeOurs(_:)``), else ``SaveError`` saying what is wrong.
    public func load() throws(SaveError) -> SaveFile? {
        try checkOwners()
        guard let bytes = try SystemCalls.readFile(path) else { return nil }
        do {
            return try SaveFile.decode(bytes)
        } catch .notASave(_, let reason) {
            throw .notASave(path: path, reason: reason)
        }
    }

    /// Writes `file` atomically, holding the lock.
    ///
    /// - Throws: ``SaveError/locked(path:)`` while another game holds the save, which stays untouched;
    ///   a ``SaveError/system(operation:path:errno:)`` when the lock or the file cannot be written.
    public func save(_ file: SaveFile) throws(SaveError) {
        try acquire()
        let directory = Self.directory(of: path)
        try makeFolder()
        let temporary = "\(path).tmp-\(getpid())"
        // The name is ours while we hold the lock: whatever sits there (a link, a leftover) goes first,
        // and the file is created anew, never opened through a link.
        unlink(temporary)
        try SystemCalls.writeFileSynced(temporary, bytes: file.encoded(), mode: 0o600)
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
