// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import Foundation
import Testing

/// Adventure files as mutable JSON trees, for the loader and limits tests.
enum AdventureTree {
    /// A shipped adventure (English unless told) as a mutable JSON tree.
    static func shipped(locale: String = "en") throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/EscapeContent/Adventures/\(locale).json")
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Every problem the loader finds in `tree`, as `FILE: PATH: PROBLEM` lines; none when it loads.
    static func problems(_ tree: [String: Any]) throws -> [String] {
        let data = try JSONSerialization.data(withJSONObject: tree)
        do {
            _ = try AdventureLoader.decode(data, file: "test.json")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }
}
