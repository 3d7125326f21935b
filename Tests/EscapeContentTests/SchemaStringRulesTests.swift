// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The engine's validator applies the adventure schema's rules to every string position the schema
/// constrains (issue 26, item 9): the positions are read from `Protocol/schema/adventure.schema.json`
/// itself, so a position added to the schema is checked here too.
struct SchemaStringRulesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A string position of the schema: keys from the root (`[]` for an array's items, `*` for any key),
    /// the level kind it belongs to, and whether it is an id (a pattern) rather than a text.
    struct Position: CustomStringConvertible, Sendable {
        var steps: [String]
        var kind: String?
        var constraint: String

        var description: String { steps.joined(separator: ".") + (kind.map { " (\($0))" } ?? "") }
    }

    /// Every string position of the schema that has a rule (minLength, pattern or enum).
    static func positions() throws -> [Position] {
        let data = try Data(contentsOf: root.appendingPathComponent("Protocol/schema/adventure.schema.json"))
        let schema = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        var found: [Position] = []
        func walk(_ node: [String: Any], _ steps: [String], _ kind: String?) {
            if let reference = node["$ref"] as? String,
                let target = definitions[String(reference.split(separator: "/").last ?? "")] as? [String: Any]
            {
                walk(target, steps, kind)
                return
            }
            // A text has a minimum length (and a pattern against control characters); an id a pattern only.
            if (node["minLength"] as? Int ?? 0) > 0 {
                found.append(Position(steps: steps, kind: kind, constraint: "minLength"))
            } else if node["pattern"] != nil {
                found.append(Position(steps: steps, kind: kind, constraint: "pattern"))
            } else if node["enum"] != nil {
                found.append(Position(steps: steps, kind: kind, constraint: "enum"))
            }
            for (key, value) in node["properties"] as? [String: Any] ?? [:] {
                if let value = value as? [String: Any] { walk(value, steps + [key], kind) }
            }
            if let items = node["items"] as? [String: Any] { walk(items, steps + ["[]"], kind) }
            if let values = node["additionalProperties"] as? [String: Any] { walk(values, steps + ["*"], kind) }
            for branch in node["allOf"] as? [[String: Any]] ?? [] {
                let condition = (branch["if"] as? [String: Any])?["properties"] as? [String: Any]
                let constant = (condition?["kind"] as? [String: Any])?["const"] as? String
                if let then = branch["then"] as? [String: Any] { walk(then, steps, constant ?? kind) }
            }
        }
        walk(schema, [], nil)
        return found.sorted { $0.description < $1.description }
    }

    /// The shipped adventures and the example: together they hold every position at least once.
    static func documents() throws -> [[String: Any]] {
        try [
            "Sources/EscapeContent/Adventures/en.json", "Sources/EscapeContent/Adventures/fr.json",
            "docs/examples/lantern-room.json",
        ].map { path in
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    /// Replaces the first string at `steps` (in a level of `kind`) with `text`; returns the tree and the
    /// JSON path of the string replaced, or `nil` when the tree has none there.
    static func replacing(
        _ node: Any,
        _ steps: ArraySlice<String>,
        kind: String?,
        with text: String,
        path: String
    ) -> (Any, String)? {
        guard let step = steps.first else { return node is String ? (text, path) : nil }
        let rest = steps.dropFirst()
        switch step {
        case "[]":
            guard var items = node as? [Any] else { return nil }
            for index in items.indices {
                if let (item, found) = replacing(items[index], rest, kind: kind, with: text, path: "\(path)[\(index)]")
                {
                    items[index] = item
                    return (items, found)
                }
            }
            return nil
        case "*":
            guard var object = node as? [String: Any] else { return nil }
            for key in object.keys.sorted() {
                if let value = object[key],
                    let (item, found) = replacing(value, rest, kind: kind, with: text, path: "\(path).\(key)")
                {
                    object[key] = item
                    return (object, found)
                }
            }
            return nil
        default:
            guard var object = node as? [String: Any], let value = object[step] else { return nil }
            if step == "puzzle", let kind, object["kind"] as? String != kind { return nil }
            guard let (item, found) = replacing(value, rest, kind: kind, with: text, path: "\(path).\(step)") else {
                return nil
            }
            object[step] = item
            return (object, found)
        }
    }

    /// The problems the loader finds in `tree`.
    static func problems(_ tree: Any) throws -> [ContentError.Problem] {
        let data = try JSONSerialization.data(withJSONObject: tree)
        do {
            _ = try AdventureLoader.decode(data, file: "test.json")
            return []
        } catch {
            return error.problems
        }
    }

    @Test func theSchemaHasTheStringPositionsTheIssueCounted() throws {
        // 94 constrained string positions in the schema today; the test below checks each.
        #expect(try Self.positions().count >= 90)
    }

    @Test(arguments: try positions())
    func anEmptyStringIsRefusedAtEveryConstrainedPosition(_ position: Position) throws {
        let documents = try Self.documents()
        let mutated = documents.lazy.compactMap {
            Self.replacing($0, position.steps[...], kind: position.kind, with: "", path: "$")
        }.first
        let (tree, path) = try #require(mutated, "no adventure holds \(position)")
        let problems = try Self.problems(tree)
        #expect(problems.contains { $0.path == path }, "\(path): \(problems)")
    }

    @Test(arguments: try positions().filter { $0.constraint == "pattern" })
    func aPathLikeIdIsRefusedAtEveryIdPosition(_ position: Position) throws {
        for bad in ["../../Etc PASSWD", "Upper", "-leading", "a/b", "é", String(repeating: "a", count: 65)] {
            if position.steps.last == "ambient" && bad.count == 65 { continue }  // ambient has no length limit
            if position.steps == ["locale"] && bad == String(repeating: "a", count: 65) { continue }
            let documents = try Self.documents()
            let mutated = documents.lazy.compactMap {
                Self.replacing($0, position.steps[...], kind: position.kind, with: bad, path: "$")
            }.first
            let (tree, path) = try #require(mutated, "no adventure holds \(position)")
            let problems = try Self.problems(tree)
            #expect(problems.contains { $0.path == path }, "\(bad) at \(path): \(problems)")
        }
    }

    /// A shared adventure could carry terminal commands (ESC, OSC 52 writing the clipboard, C1 CSI,
    /// BEL) or bidirectional overrides in any text: every text position refuses them, naming the JSON
    /// path and the character.
    @Test(arguments: try positions().filter { $0.constraint == "minLength" })
    func aControlCharacterIsRefusedAtEveryTextPosition(_ position: Position) throws {
        let cases: [(String, String)] = [
            ("Hello \u{1B}]52;c;ZXZpbA==\u{07} there", "U+001B (ESC) at character 7"),
            ("Bell\u{07}", "U+0007 (BEL) at character 5"),
            ("C1 \u{9B}2J", "U+009B (CSI) at character 4"),
            ("abc\u{202E}fed", "U+202E (a bidirectional embedding or override) at character 4"),
            ("isolate \u{2066}x\u{2069}", "U+2066 (a bidirectional isolate) at character 9"),
            ("line\nbreak", "U+000A (line feed) at character 5"),
        ]
        for (bad, said) in cases {
            let documents = try Self.documents()
            let mutated = documents.lazy.compactMap {
                Self.replacing($0, position.steps[...], kind: position.kind, with: bad, path: "$")
            }.first
            let (tree, path) = try #require(mutated, "no adventure holds \(position)")
            let problems = try Self.problems(tree)
            #expect(problems.contains { $0.path == path && $0.message.contains(said) }, "\(path): \(problems)")
        }
    }

    /// A key of an object is named in a problem's path: its control characters are left out, so the
    /// message itself sends nothing to the terminal.
    @Test func aProblemPathNeverCarriesAControlCharacter() throws {
        var document = try Self.documents()[0]
        var messages = try #require(document["messages"] as? [String: Any])
        messages["x\u{1B}[2Jy"] = ""
        document["messages"] = messages
        let problems = try Self.problems(document)
        #expect(!problems.isEmpty)
        for problem in problems {
            #expect(!"\(problem.path) \(problem.message)".unicodeScalars.contains { $0.value == 0x1B }, "\(problem)")
        }
    }

    @Test func theShippedAdventuresFollowTheRules() throws {
        for document in try Self.documents() { #expect(try Self.problems(document) == []) }
    }

    /// `efb validate /proc/self/mem` and friends: the reason in the project's words, never Foundation's.
    @Test(arguments: ["/proc/self/mem", "/nonexistent/adventure.json"])
    func anUnreadableFileIsDescribedInTheProjectsWords(_ path: String) {
        do {
            _ = try AdventureLoader.load(path: path)
            Issue.record("\(path) loaded")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("\(path): $: "), "\(text)")
            #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("Error Domain"), "\(text)")
            #expect(text.contains("cannot read the file") || text.contains("not valid JSON"), "\(text)")
        }
    }
}
