import EscapeCore
import Foundation
import Testing

/// The schema's list of sound names and the engine's cues are the same list.
@Suite struct SoundSchemaTests {
    @Test func theSchemaListsEveryCueAndTheAmbience() throws {
        let data = try Data(contentsOf: Support.root.appendingPathComponent("Protocol/schema/event.schema.json"))
        let schema = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let sound = try #require(definitions["sound"] as? [String: Any])
        let properties = try #require(sound["properties"] as? [String: Any])
        let name = try #require(properties["name"] as? [String: Any])
        let names = try #require(name["enum"] as? [String])
        #expect(Set(names) == Set(SoundCue.allCases.map(\.rawValue) + ["ambient"]))
        #expect(names.count == SoundCue.allCases.count + 1)
    }
}
