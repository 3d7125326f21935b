// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeTestSupport
import Foundation
import Testing

/// The closed lists the event schema spells out are the engine's enums, case for case.
@Suite struct SchemaListTests {
    /// The schema's `$defs`.
    private func definitions() throws -> [String: Any] {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Protocol/schema/event.schema.json"))
        let schema = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(schema["$defs"] as? [String: Any])
    }

    @Test func theSchemaListsEveryCueAndTheAmbience() throws {
        let sound = try #require(definitions()["sound"] as? [String: Any])
        let properties = try #require(sound["properties"] as? [String: Any])
        let name = try #require(properties["name"] as? [String: Any])
        let names = try #require(name["enum"] as? [String])
        #expect(Set(names) == Set(SoundCue.allCases.map(\.rawValue) + ["ambient"]))
        #expect(names.count == SoundCue.allCases.count + 1)
    }

    @Test func theSchemaListsEveryScreenGestureAction() throws {
        let gesture = try #require(definitions()["gesture"] as? [String: Any])
        let choices = try #require(gesture["oneOf"] as? [[String: Any]])
        let object = try #require(choices.first { $0["type"] as? String == "object" })
        let properties = try #require(object["properties"] as? [String: Any])
        let action = try #require(properties["action"] as? [String: Any])
        let names = try #require(action["enum"] as? [String])
        #expect(Set(names) == Set(ScreenGesture.Action.allCases.map(\.rawValue)))
        #expect(names.count == ScreenGesture.Action.allCases.count)
    }
}
