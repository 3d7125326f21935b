// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
import EscapeJSON
import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds, reads and validates adventure files.
public enum AdventureLoader {
    /// The largest adventure file accepted: 4 MiB.
    public static let maximumFileSize = 4 << 20

    /// The locales the game ships an adventure for.
    public static let bundledLocales = ["en", "fr"]

    /// The shipped locale a locale's language picks, or `nil` when the game ships none in that language.
    ///
    /// - Parameter locale: A locale such as `fr`, `fr-CA` or `fr_FR.UTF-8`.
    /// - Returns: One of ``bundledLocales``, or `nil`.
    public static func bundledLocale(for locale: String) -> String? {
        let language = LocaleLanguage.code(of: locale)
        return bundledLocales.contains(language) ? language : nil
    }

    /// Loads the shipped adventure for a locale.
    ///
    /// - Parameter locale: A locale such as `en` or `en_GB.UTF-8`; its language picks the file, and an
    ///   unknown language falls back to English.
    /// - Returns: The validated adventure.
    /// - Throws: ``ContentError`` when the shipped file is broken.
    public static func bundled(locale: String) throws(ContentError) -> Adventure {
        let name = bundledLocale(for: locale) ?? "en"
        guard let folder = ShippedData.folder(.adventures) else {
            throw ContentError(
                file: "adventures/\(name).json",
                problems: [.init(path: "$", message: ShippedData.notFound(.adventures))]
            )
        }
        return try load(path: "\(folder)/\(name).json")
    }

    /// Reads and validates an adventure file.
    ///
    /// - Parameter name: The file's path.
    /// - Returns: The validated adventure.
    /// - Throws: ``ContentError`` naming the file, the path inside it and every problem.
    public static func load(path name: String) throws(ContentError) -> Adventure {
        func refuse(_ message: String) -> ContentError {
            ContentError(file: name, problems: [.init(path: "$", message: message)])
        }
        // Opened without blocking and checked on the open file: a FIFO would wait for a writer, a device
        // such as /dev/zero would be read without end. Both are said to be what they are.
        let descriptor = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw refuse("cannot read the file: \(describe(errno: errno))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw refuse("cannot read the file: \(describe(errno: errno))") }
        let kind: String? =
            switch status.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "a directory"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFIFO: "a FIFO"
            case S_IFSOCK: "a socket"
            default: "not a file"
            }
        if let kind { throw refuse("cannot read the file: it is not a regular file but \(kind)") }
        if status.st_size > maximumFileSize {
            throw refuse("the file is \(status.st_size) bytes; the limit is \(maximumFileSize)")
        }
        // At most one byte over the limit is read: a file that grows, or says it is empty as files under
        // /proc do, is still bounded.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= maximumFileSize {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw refuse("cannot read the file: \(describe(errno: errno))") }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return try decode(bytes, file: name)
    }

    /// Why a file could not be read, in the project's words.
    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: "there is no such file"
        case EACCES, EPERM: "this user may not read it (permission denied)"
        case EISDIR: "it is a directory"
        case ENOTDIR: "a part of the path is not a directory"
        case ELOOP: "the path has too many symbolic links"
        case ENAMETOOLONG: "the path is too long"
        case EIO: "the system could not read it (input/output error)"
        case EAGAIN: "it is not ready to be read (it would block)"
        default: "the system refused (\(String(cString: strerror(code))))"
        }
    }

    /// Validates an adventure held in memory.
    ///
    /// - Parameters:
    ///   - data: The file's bytes (an array, `Data`, any collection of bytes).
    ///   - file: The name used in error messages.
    /// - Returns: The validated adventure.
    /// - Throws: ``ContentError`` naming every problem.
    public static func decode(_ data: some Collection<UInt8>, file: String) throws(ContentError) -> Adventure {
        guard data.count <= maximumFileSize else {
            throw ContentError(
                file: file,
                problems: [
                    .init(path: "$", message: "the file is \(data.count) bytes; the limit is \(maximumFileSize)")
                ]
            )
        }
        // A UTF-8 byte-order mark is skipped, as on protocol lines; offsets still count from the file's
        // first byte.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skipped = data.starts(with: bom) ? bom.count : 0
        let body = data.dropFirst(skipped)
        if let offset = invalidUTF8Offset(body) {
            throw ContentError(
                file: file,
                problems: [.init(path: "$", message: "not valid UTF-8 at byte \(skipped + offset)")]
            )
        }
        // One pass of the strict reader, which names duplicate keys and syntax errors with their byte
        // offset, then the model decoded from its value, with the JSON path of any mismatch.
        let value: JSONValue
        do {
            value = try JSONReader.read(body)
        } catch {
            var error = error
            error.offset += skipped
            throw ContentError(file: file, problems: [.init(path: "$", message: "not valid JSON: \(error)")])
        }
        // Every string of the file, wherever it is, within the text limit.
        var textProblems: [ContentError.Problem] = []
        AdventureValidator.checkTexts(in: value, at: "$", into: &textProblems)
        // A French adventure's texts get French spacing here, once, so its authors type plain spaces.
        let typeset = isFrench(value) ? frenchSpaced(value) : value
        var adventure: Adventure
        do {
            adventure = try JSONValueDecoder().decode(Adventure.self, from: typeset)
        } catch let error as DecodingError {
            throw ContentError(file: file, problems: textProblems + [problem(from: error)])
        } catch {
            throw ContentError(file: file, problems: textProblems + [.init(path: "$", message: "\(error)")])
        }
        let problems = textProblems + AdventureValidator.problems(in: adventure)
        guard problems.isEmpty else { throw ContentError(file: file, problems: problems) }
        // Names the adventure gives gestures the engine does not know are never shown.
        for (name, word) in adventure.messages.gestureNames ?? [:] {
            if let gesture = Gesture(wireName: name) { adventure.gestureWords[gesture] = word }
        }
        return adventure
    }

    /// Whether the file's `locale` is French.
    private static func isFrench(_ value: JSONValue) -> Bool {
        guard case .object(let fields) = value, case .string(let locale)? = fields["locale"] else { return false }
        return LocaleLanguage.isFrench(locale)
    }

    /// `value` with every string in it given French spacing (``FrenchTypography``); keys are left alone.
    private static func frenchSpaced(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(FrenchTypography.spaced(text))
        case .array(let items): .array(items.map(frenchSpaced))
        case .object(let fields): .object(fields.mapValues(frenchSpaced))
        case .null, .bool, .int, .uint, .double: value
        }
    }

    /// The offset of the first byte that is not part of valid UTF-8, or `nil` when all of it is.
    private static func invalidUTF8Offset(_ bytes: some Collection<UInt8>) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }

    private static func problem(from error: DecodingError) -> ContentError.Problem {
        switch error {
        case .typeMismatch(let type, let context):
            return .init(path: path(context.codingPath), message: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return .init(path: path(context.codingPath), message: "expected \(describe(type)), found null")
        case .keyNotFound(let key, let context):
            return .init(path: path(context.codingPath), message: "missing required key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            return .init(path: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            return .init(path: "$", message: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    /// `$.chapters[1].levels[0]` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(key.stringValue)"
        }
    }
}
