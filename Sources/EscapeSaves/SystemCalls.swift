// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every system call the save store makes, each turning failure into a ``SaveError`` and retrying on EINTR.
enum SystemCalls {
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func failure(_ operation: String, _ path: String) -> SaveError {
        .system(operation: operation, path: path, errno: errno)
    }

    /// Calls `body` until it does not fail with EINTR.
    private static func retrying<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// Reads a whole regular file (wraps `open`, `fstat`, `read`); `nil` when it does not exist.
    ///
    /// It is opened without blocking and must be a regular file, so a FIFO or a device at the path is
    /// refused at once instead of waiting for a writer or reading without end.
    static func readFile(_ path: String, limit: Int = 1 << 20) throws(SaveError) -> [UInt8]? {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        if descriptor == -1 {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("fstat", path) }
        // Not a file the store could have written: left as it is, like a file it may not read.
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .system(operation: "reading (not a regular file)", path: path, errno: EINVAL)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retrying { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            if count == -1 { throw failure("read", path) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > limit { throw .corrupt("the file is larger than \(limit) bytes") }
        }
    }

    /// Creates a new file, writes all of `bytes` and flushes it to disk (wraps `open`, `write`, `fsync`).
    ///
    /// The file must not exist (`O_EXCL`, `O_NOFOLLOW`): a file or a symbolic link planted at `path`
    /// is never written through. On failure the file is removed, so no partial file is left.
    static func writeFileSynced(_ path: String, bytes: [UInt8], mode: mode_t) throws(SaveError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let descriptor = retrying { open(path, flags, mode) }
        guard descriptor != -1 else { throw failure("open", path) }
        defer { close(descriptor) }
        do {
            try writeAll(descriptor, path, bytes)
        } catch {
            unlink(path)
            throw error
        }
    }

    private static func writeAll(_ descriptor: Int32, _ path: String, _ bytes: [UInt8]) throws(SaveError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retrying { write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset) }
            }
            guard written != -1 else { throw failure("write", path) }
            offset += written
        }
        guard retrying({ fsync(descriptor) }) == 0 else { throw failure("fsync", path) }
    }

    /// Opens (or creates) the lock file, never through a symbolic link (wraps `open`).
    static func openLockFile(_ path: String) throws(SaveError) -> Int32 {
        let descriptor = retrying { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw failure("opening", path) }
        return descriptor
    }

    /// The names in a folder (empty when it cannot be read).
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Renames atomically (wraps `rename`).
    static func rename(_ source: String, to target: String) throws(SaveError) {
        #if canImport(Glibc)
        let result = Glibc.rename(source, target)
        #elseif canImport(Musl)
        let result = Musl.rename(source, target)
        #else
        let result = Darwin.rename(source, target)
        #endif
        guard result == 0 else { throw failure("rename", source) }
    }

    /// Flushes a directory's entries to disk (wraps `open`, `fsync`).
    static func syncDirectory(_ path: String) throws(SaveError) {
        let descriptor = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor != -1 else { throw failure("open", path) }
        defer { close(descriptor) }
        guard retrying({ fsync(descriptor) }) == 0 else { throw failure("fsync", path) }
    }

    /// Creates a directory with `mode` unless it exists; its parent must exist (wraps `mkdir`).
    static func makeDirectory(_ path: String, mode: mode_t) throws(SaveError) {
        if mkdir(path, mode) != 0 && errno != EEXIST { throw failure("mkdir", path) }
    }

    /// Creates a directory and its parents with `mode` (wraps `mkdir`).
    static func makeDirectories(_ path: String, mode: mode_t) throws(SaveError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { throw failure("mkdir", prefix) }
        }
    }
}
