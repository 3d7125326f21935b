// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Foundation
import Testing

/// The adventure limits hold for every text, count code points, bound what placeholders make, and a
/// game at the largest documented size stays quick.
struct AdventureLimitsTests {
    private func shipped() throws -> [String: Any] { try AdventureTree.shipped() }

    private func problems(_ tree: [String: Any]) throws -> [String] { try AdventureTree.problems(tree) }

    private func level(_ tree: inout [String: Any], _ edit: (inout [String: Any]) -> Void) throws {
        var chapters = try #require(tree["chapters"] as? [[String: Any]])
        var levels = try #require(chapters[0]["levels"] as? [[String: Any]])
        edit(&levels[0])
        chapters[0]["levels"] = levels
        tree["chapters"] = chapters
    }

    @Test func everyTextIsLimitedNotOnlyAFew() throws {
        var tree = try shipped()
        try level(&tree) { $0["hints"] = [String(repeating: "h", count: 1_000_000)] }
        let found = try problems(tree)
        #expect(found.contains { $0.hasPrefix("$.chapters[0].levels[0].hints[0]: ") }, "\(found)")
        tree = try shipped()
        tree["title"] = String(repeating: "t", count: 3_500_000)
        #expect(try problems(tree).contains { $0.hasPrefix("$.title: ") })
        tree = try shipped()
        try level(&tree) { $0["title"] = String(repeating: "x", count: 4001) }
        #expect(try problems(tree).contains { $0.hasPrefix("$.chapters[0].levels[0].title: ") })
    }

    @Test func aCharacterIsACodePoint() throws {
        var tree = try shipped()
        // One grapheme cluster: a letter and a million combining acute accents.
        tree["title"] = "e" + String(repeating: "\u{301}", count: 1_000_000)
        #expect(try problems(tree).contains { $0.contains("$.title: the text is 1000001 characters long") })
        tree["title"] = String(repeating: "é", count: 4000)
        #expect(try problems(tree) == [])
    }

    @Test func placeholdersNeverMakeATextLongerThanTheLimit() throws {
        var tree = try shipped()
        var messages = try #require(tree["messages"] as? [String: Any])
        messages["menuLevel"] = String(repeating: "{title}", count: 500)
        tree["messages"] = messages
        try level(&tree) { $0["title"] = String(repeating: "x", count: 4000) }
        let adventure = try AdventureLoader.decode(JSONSerialization.data(withJSONObject: tree), file: "test.json")
        var engine = Engine(adventure: adventure, progress: .fresh, now: 0)
        _ = try engine.apply(.menu, now: 0)
        let longest = engine.screen.elements.map(\.label.unicodeScalars.count).max() ?? 0
        #expect(longest <= AdventureLimits.textLength)
    }

    @Test func theMenuOfTheLargestAdventureIsBuiltAndUsable() throws {
        var tree = try shipped()
        let chapters = try #require(tree["chapters"] as? [[String: Any]])
        let template = try #require((chapters[0]["levels"] as? [[String: Any]])?.first)
        tree["chapters"] = (0..<AdventureLimits.chapters).map { chapter -> [String: Any] in
            var copy = chapters[0]
            copy["id"] = "chapter-\(chapter)"
            copy["levels"] = (0..<AdventureLimits.levelsPerChapter).map { level -> [String: Any] in
                var levelCopy = template
                levelCopy["id"] = "level-\(chapter)-\(level)"
                return levelCopy
            }
            return copy
        }
        let adventure = try AdventureLoader.decode(JSONSerialization.data(withJSONObject: tree), file: "big.json")
        let completed = Set(adventure.chapters.flatMap(\.levels).prefix(1200).map(\.id))
        var engine = Engine(
            adventure: adventure,
            progress: Progress(completed: completed, current: LevelPosition(chapter: 24, level: 0)),
            now: 0
        )
        // Unlocking was quadratic (seconds a command in debug); it is linear now. How fast is not asserted
        // here (no wall-clock assertions in the suite); this checks the largest menu is built and usable.
        for _ in 0..<3 {
            _ = try engine.apply(.menu, now: 0)
            #expect(engine.screen.kind == .menu)
            #expect(engine.screen.elements.count > AdventureLimits.chapters)
            _ = try engine.apply(.next, now: 0)
            _ = try engine.apply(.escape, now: 0)
            #expect(engine.screen.kind == .level)
        }
    }
}
