// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The player's named saves (`save door`, `restore door`): one snapshot blob a file, in a folder beside the
/// save file (`<folder of the save>/slots/door.snapshot`).
///
/// Written like ``ConsolePreferences``: whole to a temporary file, then renamed, so a slot is never half
/// written. On a shared machine nothing planted by someone else is followed: the folder is made `0700`
/// and must be a real folder of this user, files are opened with `O_NOFOLLOW`, and a slot that is not a
/// regular file of this user is not read.
package struct SaveSlots: Sendable, Hashable {
    /// The folder holding the slots.
    package let folder: String

    /// Slots kept in `folder`.
    package init(folder: String) {
        self.folder = folder
    }

    /// The slots beside a save file: `slots` in its folder.
    ///
    /// - Parameter save: The save file's path.
    /// - Returns: The slots.
    package static func beside(save: String) -> SaveSlots {
        guard let slash = save.lastIndex(of: "/") else { return SaveSlots(folder: "slots") }
        return SaveSlots(folder: save[...slash] + "slots")
    }

    /// The largest slot read, in bytes: a snapshot is far smaller.
    package static let maximumSize = 1 << 20

    /// The longest slot name, in characters.
    package static let maximumNameLength = 40

    /// What a slot file's name ends with.
    static let suffix = ".snapshot"

    /// What every snapshot blob starts with (protocol §4.18).
    static let blobPrefix = "efb-snapshot-1."

    /// The slot a typed name means: letters, digits, `-` and `_`, at most ``maximumNameLength``, folded to
    /// lower case; `nil` for anything else.
    ///
    /// - Parameter typed: The name as typed.
    /// - Returns: The name as kept, or `nil`.
    package static func name(_ typed: String) -> String? {
        guard !typed.isEmpty, typed.count <= maximumNameLength,
            typed.unicodeScalars.allSatisfy({ $0.isASCII && (isLetterOrDigit($0) || $0 == "-" || $0 == "_") })
        else { return nil }
        return typed.lowercased()
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// Why a slot could not be kept or read.
    package enum Failure: Error, Sendable, Hashable {
        /// No slot has this name.
        case missing
        /// The slot is larger than ``SaveSlots/maximumSize``.
        case tooLarge
        /// The slot does not hold a snapshot.
        case damaged
        /// The folder or the slot is a link, not a folder or file, or belongs to someone else: left alone.
        case notYours(path: String)
        /// A system call failed.
        case system(path: String, reason: String)
    }

    /// Where the slot `name` is kept.
    package func path(of name: String) -> String {
        "\(folder)/\(name)\(Self.suffix)"
    }

    /// Keeps `blob` as the slot `name`, replacing the slot of that name (wraps `mkdir`, `open`, `write`,
    /// `fsync`, `rename`).
    ///
    /// - Parameters:
    ///   - blob: The snapshot.
    ///   - name: The slot's name, as ``name(_:)`` gives it.
    /// - Throws: ``Failure`` when the folder is not safe to write in or a write fails; nothing is left half written.
    package func keep(_ blob: String, as name: String) throws(Failure) {
        try makeFolder()
        let target = path(of: name)
        let temporary = "\(folder)/.\(name).tmp-\(getpid())"
        // A leftover of a game that stopped mid-write (the folder is this user's alone).
        unlink(temporary)
        let descriptor = retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw Self.failure(temporary) }
        let bytes = Array((blob + "\n").utf8)
        var offset = 0
        var failure: Failure?
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retrying { write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset) }
            }
            guard written > 0 else {
                failure = Self.failure(temporary)
                break
            }
            offset += written
        }
        if failure == nil, retrying({ fsync(descriptor) }) != 0 { failure = Self.failure(temporary) }
        close(descriptor)
        if failure == nil, rename(temporary, target) != 0 { failure = Self.failure(target) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The blob kept as the slot `name` (wraps `open`, `fstat`, `read`).
    ///
    /// - Parameter name: The slot's name, as ``name(_:)`` gives it.
    /// - Returns: The blob, at most ``maximumSize`` bytes, starting as every snapshot does.
    /// - Throws: ``Failure``: missing, too large, not a snapshot, not this user's regular file, unreadable.
    package func blob(_ name: String) throws(Failure) -> String {
        let path = path(of: name)
        try checkFolder()
        let descriptor = retrying { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        if descriptor < 0 {
            if errno == ENOENT { throw .missing }
            if errno == ELOOP { throw .notYours(path: path) }
            throw Self.failure(path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure(path) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { throw .notYours(path: path) }
        guard status.st_size <= Self.maximumSize else { throw .tooLarge }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retrying { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { throw Self.failure(path) }
            if count == 0 { break }
            bytes += chunk[..<count]
            // It may have grown since fstat.
            if bytes.count > Self.maximumSize { throw .tooLarge }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .damaged }
        let blob = text.trimmingSuffix { $0 == "\n" }
        guard blob.hasPrefix(Self.blobPrefix), !blob.contains(where: { $0.isWhitespace }) else { throw .damaged }
        return blob
    }

    /// The slots' names, the newest first (wraps `opendir`, `readdir`, `lstat`); none when the folder
    /// cannot be read or is not safe to read.
    package func names() -> [String] {
        guard (try? checkFolder()) != nil, let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var found: [(name: String, seconds: Int, nanoseconds: Int)] = []
        while let entry = readdir(stream) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard file.hasSuffix(Self.suffix), let name = Self.name(String(file.dropLast(Self.suffix.count))),
                "\(name)\(Self.suffix)" == file
            else { continue }
            var status = stat()
            guard lstat("\(folder)/\(file)", &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            found.append((name, Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)))
        }
        return found.sorted {
            ($0.seconds, $0.nanoseconds, $1.name) > ($1.seconds, $1.nanoseconds, $0.name)
        }.map(\.name)
    }

    /// Makes the folder (and its missing parents) `0700`, or checks the one there.
    private func makeFolder() throws(Failure) {
        var prefix = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw Self.failure(prefix) }
        }
        try checkFolder()
    }

    /// Checks that the folder is a real folder of this user that nobody else may write in (wraps `lstat`);
    /// a folder that does not exist yet holds no slot and passes.
    private func checkFolder() throws(Failure) {
        var status = stat()
        guard lstat(folder, &status) == 0 else {
            if errno == ENOENT { return }
            throw Self.failure(folder)
        }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            throw .notYours(path: folder)
        }
    }

    private static func failure(_ path: String) -> Failure {
        .system(path: path, reason: String(cString: strerror(errno)))
    }

    /// Calls `body` until it does not fail with EINTR.
    private func retrying<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }
}

extension String {
    /// The string without the characters at its end that match `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = Substring(self)
        while let last = text.last, predicate(last) { text = text.dropLast() }
        return String(text)
    }
}
