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

    /// Reads a whole file (wraps `open`, `read`); `nil` when it does not exist.
    static func readFile(_ path: String, limit: Int = 1 << 20) throws(SaveError) -> [UInt8]? {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        if descriptor == -1 {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(descriptor) }
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

    /// Creates a file, writes all of `bytes` and flushes it to disk (wraps `open`, `write`, `fsync`).
    static func writeFileSynced(_ path: String, bytes: [UInt8], mode: mode_t) throws(SaveError) {
        let descriptor = retrying { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        guard descriptor != -1 else { throw failure("open", path) }
        defer { close(descriptor) }
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

    /// Renames atomically (wraps `rename`).
    static func openLockFile(_ path: String) throws(SaveError) -> Int32 {
        let descriptor = retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
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

    /// Creates a directory and its parents with `mode` (wraps `mkdir`).
    static func makeDirectories(_ path: String, mode: mode_t) throws(SaveError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { throw failure("mkdir", prefix) }
        }
    }
}
