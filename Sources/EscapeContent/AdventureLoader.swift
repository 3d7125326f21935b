public import EscapeCore
import EscapeJSON
// Foundation only finds the bundled files and reads files; JSON is EscapeJSON's.
public import Foundation

/// Finds, reads and validates adventure files.
public enum AdventureLoader {
    /// The largest adventure file accepted: 4 MiB.
    public static let maximumFileSize = 4 << 20

    /// The locales the game ships an adventure for.
    public static let bundledLocales = ["en", "fr"]

    /// Loads the shipped adventure for a locale.
    ///
    /// - Parameter locale: A locale such as `en` or `en_GB.UTF-8`; its language picks the file, and an
    ///   unknown language falls back to English.
    /// - Returns: The validated adventure.
    /// - Throws: ``ContentError`` when the shipped file is broken.
    public static func bundled(locale: String) throws(ContentError) -> Adventure {
        let language = String(locale.prefix { $0.isLetter }).lowercased()
        let name = bundledLocales.contains(language) ? language : "en"
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Adventures") else {
            throw ContentError(
                file: "Adventures/\(name).json",
                problems: [.init(path: "$", message: "the shipped adventure is missing from the resources")]
            )
        }
        return try load(from: url)
    }

    /// Reads and validates an adventure file.
    ///
    /// - Parameter url: The file.
    /// - Returns: The validated adventure.
    /// - Throws: ``ContentError`` naming the file, the path inside it and every problem.
    public static func load(from url: URL) throws(ContentError) -> Adventure {
        let name = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ContentError(
                file: name,
                problems: [.init(path: "$", message: "cannot read the file: \(error.localizedDescription)")]
            )
        }
        return try decode(data, file: name)
    }

    /// Validates an adventure held in memory.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The name used in error messages.
    /// - Returns: The validated adventure.
    /// - Throws: ``ContentError`` naming every problem.
    public static func decode(_ data: Data, file: String) throws(ContentError) -> Adventure {
        guard data.count <= maximumFileSize else {
            throw ContentError(
                file: file,
                problems: [
                    .init(path: "$", message: "the file is \(data.count) bytes; the limit is \(maximumFileSize)")
                ]
            )
        }
        // One pass of the strict reader, which names duplicate keys and syntax errors with their byte
        // offset, then the model decoded from its value, with the JSON path of any mismatch.
        let value: JSONValue
        do {
            value = try JSONReader.read(data)
        } catch {
            throw ContentError(file: file, problems: [.init(path: "$", message: "not valid JSON: \(error)")])
        }
        // Every string of the file, wherever it is, within the text limit.
        var textProblems: [ContentError.Problem] = []
        AdventureValidator.checkTexts(in: value, at: "$", into: &textProblems)
        let adventure: Adventure
        do {
            adventure = try JSONValueDecoder().decode(Adventure.self, from: value)
        } catch let error as DecodingError {
            throw ContentError(file: file, problems: textProblems + [problem(from: error)])
        } catch {
            throw ContentError(file: file, problems: textProblems + [.init(path: "$", message: "\(error)")])
        }
        let problems = textProblems + AdventureValidator.problems(in: adventure)
        guard problems.isEmpty else { throw ContentError(file: file, problems: problems) }
        return adventure
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
