// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Foundation
import Testing

/// Loading and validating adventure files: every problem named with the file and its path.
@Suite struct AdventureLoaderTests {
    private func shipped() throws -> [String: Any] { try AdventureTree.shipped() }

    private func problems(_ tree: [String: Any]) throws -> [String] { try AdventureTree.problems(tree) }

    @Test func theShippedAdventuresLoad() throws {
        let adventure = try AdventureLoader.bundled(locale: "en_GB.UTF-8")
        #expect(adventure.locale == "en")
        #expect(adventure.chapters.reduce(0) { $0 + $1.levels.count } >= 12)
    }

    @Test func aSyntaxErrorNamesTheFile() {
        #expect(throws: ContentError.self) {
            try AdventureLoader.decode(Data("{\"format\":".utf8), file: "broken.json")
        }
        do {
            _ = try AdventureLoader.decode(Data("{\"format\":".utf8), file: "broken.json")
        } catch {
            #expect(error.description.hasPrefix("broken.json: $"))
        }
    }

    @Test func aMissingFieldIsNamedWithItsPath() throws {
        var tree = try shipped()
        var chapters = try #require(tree["chapters"] as? [[String: Any]])
        chapters[1]["title"] = nil
        tree["chapters"] = chapters
        let found = try problems(tree)
        #expect(found.contains { $0.contains("$.chapters[1]") && $0.contains("title") }, "\(found)")
    }

    @Test(arguments: ["Wind", "-wind", "", "wind in a shaft", "vent\u{E9}"])
    func aBadAmbienceNameIsRefusedWithItsPath(name: String) throws {
        var tree = try shipped()
        var chapters = try #require(tree["chapters"] as? [[String: Any]])
        chapters[1]["ambient"] = name
        tree["chapters"] = chapters
        let found = try problems(tree)
        #expect(found.count == 1 && found[0].hasPrefix("$.chapters[1].ambient: "), "\(found)")
        #expect(Ambience(name) == nil)
    }

    @Test func aWrongTypeIsNamedWithItsPath() throws {
        var tree = try shipped()
        var chapters = try #require(tree["chapters"] as? [[String: Any]])
        var levels = try #require(chapters[1]["levels"] as? [[String: Any]])
        levels[0]["timeLimit"] = "ten"
        chapters[1]["levels"] = levels
        tree["chapters"] = chapters
        #expect(try problems(tree) == ["$.chapters[1].levels[0].timeLimit: expected an integer"])
    }

    @Test func aDuplicateKeyIsRefusedWithItsOffset() throws {
        do {
            _ = try AdventureLoader.decode(Data(#"{"format":1,"format":1}"#.utf8), file: "twice.json")
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.description == #"twice.json: $: not valid JSON: duplicate key "format" at byte 12"#)
        }
    }

    @Test func rulesBeyondTheShapeAreChecked() throws {
        var tree = try shipped()
        var chapters = try #require(tree["chapters"] as? [[String: Any]])
        var levels = try #require(chapters[0]["levels"] as? [[String: Any]])
        var puzzle = try #require(levels[0]["puzzle"] as? [String: Any])
        var answers = try #require(puzzle["answers"] as? [[String: Any]])
        answers[1]["correct"] = true
        puzzle["answers"] = answers
        levels[0]["puzzle"] = puzzle
        levels[1]["id"] = levels[0]["id"]
        chapters[0]["levels"] = levels
        tree["chapters"] = chapters
        let found = try problems(tree)
        #expect(
            found.contains("$.chapters[0].levels[0].puzzle.answers: exactly one answer must have \"correct\": true")
        )
        #expect(found.contains { $0.hasPrefix("$.chapters[0].levels[1].id: duplicate level id") })
    }

    @Test func aFeminineObjectNeedsTheFeminineWords() throws {
        var tree = try AdventureTree.shipped(locale: "fr")
        var messages = try #require(tree["messages"] as? [String: Any])
        messages["noActionYetFeminine"] = nil
        tree["messages"] = messages
        #expect(try problems(tree) == ["$.messages.noActionYetFeminine: is needed by this adventure's levels"])
    }

    @Test func anUntouchedObjectAgreesWithItsGender() throws {
        let adventure = try AdventureLoader.bundled(locale: "fr")
        let level = try #require(adventure.chapters.flatMap(\.levels).first { $0.id == "workshop-hatch" })
        let puzzle = try #require(level.puzzle.content as? CustomActionPuzzle)
        var random = SeededGenerator(seed: 1)
        let values = puzzle.elements(puzzle.start(using: &random), messages: adventure.messages)
            .map { "\($0.label): \($0.value ?? "")" }
        #expect(
            values == [
                "Échelle en bois: pas encore manipulée", "Verrou de fer: pas encore manipulé",
                "Ta vieille lanterne: pas encore manipulée",
            ]
        )
    }

    @Test func sizesOverTheLimitsAreRefused() throws {
        var tree = try shipped()
        var chapters = try #require(tree["chapters"] as? [[String: Any]])
        var levels = try #require(chapters[0]["levels"] as? [[String: Any]])
        levels[0]["story"] = String(repeating: "long ", count: AdventureLimits.textLength)
        levels[0]["hints"] = Array(repeating: "a hint", count: AdventureLimits.hints + 1)
        chapters[0]["levels"] = levels
        tree["chapters"] = chapters
        let found = try problems(tree)
        #expect(found.contains { $0.hasPrefix("$.chapters[0].levels[0].story: the text is") })
        #expect(found.contains("$.chapters[0].levels[0].hints: too many hints: 11; the limit is 10"))
    }

    @Test func aFileOverTheSizeLimitIsRefusedBeforeParsing() {
        let data = Data(repeating: 0x20, count: AdventureLoader.maximumFileSize + 1)
        do {
            _ = try AdventureLoader.decode(data, file: "huge.json")
            Issue.record("a huge file loaded")
        } catch {
            #expect(error.description.contains("the limit is \(AdventureLoader.maximumFileSize)"))
        }
    }
}
