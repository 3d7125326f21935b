// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a shared game could not be offered on its socket.
package enum ListenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket's folder can be read or entered by other users, or is not the user's own.
    case folderNotPrivate(folder: String)
    /// A game is already served on this socket.
    case alreadyServed(path: String)
    /// The path does not fit in a socket address (107 bytes on Linux).
    case pathTooLong(path: String)
    /// Something else is at the path (a file, a folder).
    case notASocket(path: String)
    /// A system call failed.
    case system(operation: String, path: String, errno: Int32)
    /// The socket's folder is a symbolic link another user owns, who could point it elsewhere later.
    case linkNotYours(folder: String, owner: UInt32)
    /// The game on the socket is served by another user: nothing is said to it.
    case servedByAnotherUser(path: String, owner: UInt32)

    /// What went wrong, in plain words.
    package var description: String {
        switch self {
        case .folderNotPrivate(let folder):
            "the folder \(folder) is not yours alone: other users could reach the game. "
                + "Use a folder only you can read (chmod 700), or leave out --socket."
        case .alreadyServed(let path):
            "a game is already served on \(path): attach to it, or choose another --socket."
        case .pathTooLong(let path):
            "the socket path \(path) is too long for a socket (at most 107 bytes)."
        case .notASocket(let path):
            "\(path) exists and is not a socket; choose another --socket."
        case .system(let operation, let path, let code):
            "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        case .linkNotYours(let folder, let owner):
            "the folder \(folder) is a symbolic link that belongs to another user (uid \(owner)), who could point it "
                + "elsewhere: remove it, or choose another --socket."
        case .servedByAnotherUser(let path, let owner):
            "the game on \(path) is served by another user (uid \(owner)), not by you: efb does not speak to it. "
                + "Check who made that socket, or choose another one."
        }
    }
}

/// A listening Unix domain socket that only its user can reach.
///
/// The socket is made with mode 0600 in a folder that must be the user's own and closed to others
/// (0700, say); connections from another user (checked with `SO_PEERCRED`) are closed at once. A
/// socket file left by a game that ended without cleaning up is replaced; a live one is refused.
package final class UnixListener {
    /// The socket's path.
    package let path: String
    /// The listening descriptor (non-blocking, closed on exec).
    package let descriptor: Int32

    /// The most connections waiting to be accepted: the system's own bound (`SOMAXCONN`), so a burst
    /// of clients connecting at once is queued rather than refused with `EAGAIN`.
    package static let backlog = SOMAXCONN

    /// Listens on `path`, making its folder (0700) when it is missing.
    ///
    /// A folder given through a symbolic link is resolved first, and the socket is made in the real
    /// folder, which must be the user's alone. The link itself must be the user's or root's: another
    /// user's link (planted at `/tmp/escape-from-blindness-UID`, say) could be turned elsewhere
    /// afterwards, and clients following it would reach that user's socket.
    ///
    /// - Throws: A ``ListenError`` saying why not.
    package init(path givenPath: String) throws(ListenError) {
        let path = try Self.resolvingLinkedFolder(givenPath)
        self.path = path
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw .pathTooLong(path: path)
        }
        let folder = Self.folder(of: path)
        try Self.checkPrivate(folder: folder)
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
            if let live = try? Self.connect(to: path) {
                close(live)
                throw .alreadyServed(path: path)
            }
            unlink(path)
        }
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw .system(operation: "making a socket for", path: path, errno: errno) }
        // Bound and listening under a name of its own in the same folder, then renamed into place: a
        // client that finds the socket at `path` is never refused because `listen` has not run yet.
        let staging = folder + "/.efb-listening-\(getpid())"
        let bindPath = staging.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) ? staging : path
        unlink(bindPath)
        var address = Self.address(bindPath)
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previous)
        guard bound == 0, chmod(bindPath, 0o600) == 0, listen(socketDescriptor, Self.backlog) == 0,
            bindPath == path || rename(bindPath, path) == 0
        else {
            let code = errno
            close(socketDescriptor)
            if bound == 0 { unlink(bindPath) }
            throw .system(operation: "listening on", path: path, errno: code)
        }
        _ = fcntl(socketDescriptor, F_SETFL, fcntl(socketDescriptor, F_GETFL) | O_NONBLOCK)
        descriptor = socketDescriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Takes one waiting connection from this user, non-blocking; `nil` when none waits.
    ///
    /// Connections from other users are closed unread.
    package func accept() -> Int32? {
        while true {
            let client = systemAccept(descriptor)
            if client < 0 {
                if errno == EINTR { continue }
                return nil
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            guard Self.peerUser(of: client) == getuid() else {
                close(client)
                continue
            }
            return client
        }
    }

    /// Connects to a served game (blocking, closed on exec).
    ///
    /// - Parameter path: The game's socket.
    /// - Returns: The connected descriptor.
    /// - Throws: A ``ListenError`` when the path is too long or nothing listens there.
    package static func connect(to path: String) throws(ListenError) -> Int32 {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw .pathTooLong(path: path)
        }
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard client >= 0 else { throw .system(operation: "making a socket for", path: path, errno: errno) }
        var address = address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(client)
            throw .system(operation: "connecting to", path: path, errno: code)
        }
        // Before a word is said: the server must be this user (another could have planted the socket).
        guard let owner = peerUser(of: client), owner == getuid() else {
            let owner = peerUser(of: client) ?? UInt32.max
            close(client)
            throw .servedByAnotherUser(path: path, owner: owner)
        }
        return client
    }

    /// The user of the process at the other end of a Unix socket (`SO_PEERCRED`); `nil` when unknown.
    static func peerUser(of descriptor: Int32) -> UInt32? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    /// The default socket: `$XDG_RUNTIME_DIR/escape-from-blindness/game.sock`, or
    /// `/tmp/escape-from-blindness-UID/game.sock` without a runtime folder.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The path.
    package static func defaultPath(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/escape-from-blindness/game.sock"
        }
        return "/tmp/escape-from-blindness-\(getuid())/game.sock"
    }

    /// `path` with its folder's symbolic links resolved, when the folder is one (the user's or root's);
    /// else `path`.
    private static func resolvingLinkedFolder(_ path: String) throws(ListenError) -> String {
        let folder = folder(of: path)
        var status = stat()
        guard let slash = path.lastIndex(of: "/"), lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFLNK
        else { return path }
        guard status.st_uid == getuid() || status.st_uid == 0 else {
            throw .linkNotYours(folder: folder, owner: status.st_uid)
        }
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        let name = path[path.index(after: slash)...]
        let real = String(cString: resolved)
        return real == "/" ? "/\(name)" : "\(real)/\(name)"
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes the folder (0700) when missing; refuses one that is not the user's or is open to others.
    private static func checkPrivate(folder: String) throws(ListenError) {
        var status = stat()
        if lstat(folder, &status) != 0 {
            guard errno == ENOENT, mkdir(folder, 0o700) == 0, lstat(folder, &status) == 0 else {
                throw .system(operation: "making the folder", path: folder, errno: errno)
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw .folderNotPrivate(folder: folder)
        }
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return address
    }
}

/// `connect(2)`, under a name the method above does not shadow.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

/// `accept(2)` without the peer's address, under a name the method above does not shadow.
private func systemAccept(_ descriptor: Int32) -> Int32 {
    accept(descriptor, nil, nil)
}

/// Linux's `struct ucred`, which `SO_PEERCRED` fills (Glibc shows it only with `_GNU_SOURCE`).
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
