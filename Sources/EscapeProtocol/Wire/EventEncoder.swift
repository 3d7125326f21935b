// SPDX-License-Identifier: Apache-2.0
import EscapeCore
public import EscapeJSON

/// Writes events in their wire form: one JSON object per line, keys sorted.
public enum EventEncoder {
    /// The protocol version this engine speaks.
    public static let protocolVersion = 1

    /// Appends one event's line, `\n` included, to `output`.
    ///
    /// - Parameters:
    ///   - stamped: The event and its envelope.
    ///   - output: Receives UTF-8 bytes.
    public static func encode(_ stamped: StampedEvent, into output: inout [UInt8]) {
        var line = DirectLine()
        encode(stamped, through: &line, into: &output)
        line.flush(into: &output)
    }

    /// Appends the lines of `events`, in order, each with its `\n`: the same bytes as encoding them one
    /// by one, written through one buffer.
    ///
    /// - Parameters:
    ///   - events: The events and their envelopes.
    ///   - output: Receives UTF-8 bytes.
    public static func encode(_ events: [StampedEvent], into output: inout [UInt8]) {
        var line = DirectLine()
        // By index: each event is encoded where it is, not copied out of the array first.
        for index in events.indices { encode(events[index], through: &line, into: &output) }
        line.flush(into: &output)
    }

    /// Writes one line to `line`'s bytes, or (for the rare events it does not write) what `line` holds
    /// and then the line to `output`.
    private static func encode(_ stamped: StampedEvent, through line: inout DirectLine, into output: inout [UInt8]) {
        if !line.write(stamped) {
            line.flush(into: &output)
            JSONWriter.write(json(stamped), into: &output)
        }
        line.newline()
    }

    /// The event as a JSON object.
    public static func json(_ stamped: StampedEvent) -> JSONValue {
        var object = body(stamped.event, generation: stamped.generation, ranges: stamped.protocolMinor >= 3)
        if stamped.protocolMinor >= 1 {
            object["gen"] = .int(stamped.generation)
            if case .progress(let summary, _) = stamped.event {
                object["onScreen"] =
                    summary.onScreen.map { ["chapter": .int($0.chapter), "level": .int($0.level)] } ?? .null
                if stamped.protocolMinor >= 2 {
                    object["chapterId"] = summary.chapterID.map(JSONValue.string) ?? .null
                    object["chapters"] = .array(
                        summary.chapters.map {
                            ["id": .string($0.id), "completed": .int($0.completed), "total": .int($0.total)]
                        }
                    )
                }
            }
        }
        object["seq"] = .int(stamped.seq)
        if let replyTo = stamped.replyTo { object["replyTo"] = replyTo.json }
        if let game = stamped.game { object["game"] = .int(game) }
        return .object(object)
    }

    /// The event's own members; `ranges`: whether adjustable elements carry their `range` (1.3).
    private static func body(_ event: Event, generation: Int, ranges: Bool) -> [String: JSONValue] {
        switch event {
        case .hello(let hello):
            var object: [String: JSONValue] = [
                "type": "hello",
                "protocol": .int(hello.protocolVersion),
                "version": Self.json(hello.version),
                "versions": .array(hello.versions.map(Self.json)),
                "engine": .string(hello.engineVersion),
                "locale": .string(hello.locale),
                "adventure": ["id": .string(hello.adventureID), "title": .string(hello.adventureTitle)],
                "capabilities": .array(hello.capabilities.map(JSONValue.string)),
                "gen": .int(generation),
            ]
            if let want = hello.grantedWant { object["want"] = .array(want.map(JSONValue.string)) }
            if let omit = hello.grantedOmit, !omit.isEmpty { object["omit"] = .array(omit.map(JSONValue.string)) }
            if let games = hello.games { object["games"] = .int(games) }
            return object
        case .game(let gameEvent):
            return body(gameEvent, generation: generation, ranges: ranges)
        case .progress(let summary, let saved):
            return [
                "type": "progress",
                "chapter": summary.chapter.map(JSONValue.int) ?? .null,
                "level": summary.level.map(JSONValue.int) ?? .null,
                "completed": .array(summary.completed.map(JSONValue.string)),
                "total": .int(summary.total),
                "saved": .bool(saved),
            ]
        case .error(let error):
            var object: [String: JSONValue] = [
                "type": "error", "code": .string(error.code.rawValue), "message": .string(error.message),
            ]
            if let field = error.field { object["field"] = .string(field) }
            return object
        case .done:
            return ["type": "done", "gen": .int(generation)]
        case .bye:
            return ["type": "bye"]
        case .ended(let reason, let cutShort):
            return ["type": "ended", "reason": .string(reason.rawValue), "cutShort": .bool(cutShort)]
        case .validActions(let screen, let actions):
            return [
                "type": "validActions",
                "gen": .int(generation),
                "screen": .string(screen),
                "actions": .array(
                    actions.map { action in
                        [
                            "element": action.element.map(JSONValue.string) ?? .null,
                            "command": CommandEncoder.json(action.command, element: action.element),
                            "label": .string(action.label),
                            "needsText": .bool(action.needsText),
                        ]
                    }
                ),
            ]
        case .observation(let observation):
            var object: [String: JSONValue] = [
                "type": "observation",
                "gen": .int(generation),
                "screen": .string(observation.screen),
                "kind": .string(observation.kind.rawValue),
                "focus": .string(observation.focus),
                "text": .string(observation.text),
                "completed": .int(observation.completed),
                "total": .int(observation.total),
            ]
            if !observation.heard.isEmpty { object["heard"] = .array(observation.heard.map(JSONValue.string)) }
            return object
        case .snapshot(let blob):
            return ["type": "snapshot", "gen": .int(generation), "blob": .string(blob)]
        case .idle:
            return ["type": "idle", "gen": .int(generation)]
        case .role(let role, let controlFree):
            return [
                "type": "role", "gen": .int(generation), "role": .string(role.rawValue),
                "controlFree": .bool(controlFree),
            ]
        }
    }

    private static func body(_ event: GameEvent, generation: Int, ranges: Bool) -> [String: JSONValue] {
        func elementJSON(_ element: Element) -> JSONValue { json(element, range: ranges) }
        switch event {
        case .screen(let screen):
            var object: [String: JSONValue] = [
                "type": "screen",
                "gen": .int(generation),
                "screen": .string(screen.id),
                "kind": .string(screen.kind.rawValue),
                "title": .string(screen.title),
                "elements": .array(screen.elements.map(elementJSON)),
                "magicTap": json(screen.magicTap),
                "escape": json(screen.escape),
            ]
            if let hints = screen.hints {
                object["hints"] = ["total": .int(hints.total), "unlocked": .int(hints.unlocked)]
            }
            if let chapterID = screen.chapterID { object["chapterId"] = .string(chapterID) }
            return object
        case .focus(let focus):
            return [
                "type": "focus",
                "gen": .int(generation),
                "screen": .string(focus.screen),
                "element": elementJSON(focus.element),
                "index": .int(focus.index),
                "count": .int(focus.count),
            ]
        case .announce(let announcement):
            return [
                "type": "announce",
                "text": .string(announcement.text),
                "priority": .string(announcement.priority.rawValue),
                "category": .string(announcement.category.rawValue),
            ]
        case .rotor(let rotor):
            return [
                "type": "rotor",
                "element": .string(rotor.element),
                "rotor": .string(rotor.rotor),
                "rotorIndex": .int(rotor.rotorIndex),
                "rotorCount": .int(rotor.rotorCount),
                "item": rotor.item.map(JSONValue.string) ?? .null,
                "itemIndex": rotor.itemIndex.map(JSONValue.int) ?? .null,
                "itemCount": .int(rotor.itemCount),
            ]
        case .actions(let list):
            return [
                "type": "actions",
                "element": .string(list.element),
                "actions": .array(
                    list.actions.enumerated().map { offset, name in
                        ["index": .int(offset + 1), "name": .string(name)]
                    }
                ),
            ]
        case .result(let result):
            return ["type": "result", "outcome": .string(result.outcome.rawValue), "level": .string(result.level)]
        case .sound(let cue):
            return ["type": "sound", "name": .string(cue.rawValue)]
        case .ambient(let ambience):
            return ["type": "sound", "name": "ambient", "loop": .string(ambience.name)]
        case .ended(let reason):
            return ["type": "ended", "reason": .string(reason.rawValue), "cutShort": .bool(reason != .escaped)]
        case .elementChanged(let element):
            return ["type": "elementChanged", "gen": .int(generation), "element": elementJSON(element)]
        case .timer(let timer):
            return [
                "type": "timer",
                "limitMs": .int(Int(timer.limitMs)),
                "remainingMs": .int(Int(timer.remainingMs)),
                "paused": .bool(timer.paused),
            ]
        }
    }

    private static func json(_ element: Element, range: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(element.id),
            "label": .string(element.label),
            "traits": .array(element.traits.map { .string($0.rawValue) }),
        ]
        if let hint = element.hint { object["hint"] = .string(hint) }
        if let value = element.value { object["value"] = .string(value) }
        if !element.rotors.isEmpty { object["rotors"] = .array(element.rotors.map(JSONValue.string)) }
        if !element.actions.isEmpty { object["actions"] = .array(element.actions.map(JSONValue.string)) }
        if range, let position = element.range {
            object["range"] = ["position": .int(position.position), "count": .int(position.count)]
        }
        return .object(object)
    }

    private static func json(_ version: ProtocolVersion) -> JSONValue {
        [.int(version.major), .int(version.minor)]
    }

    private static func json(_ gesture: ScreenGesture?) -> JSONValue {
        guard let gesture else { return .null }
        return ["action": .string(gesture.action.rawValue), "label": .string(gesture.label)]
    }
}
