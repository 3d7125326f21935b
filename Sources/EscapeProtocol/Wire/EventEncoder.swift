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
        if !DirectLine.write(stamped, into: &output) { JSONWriter.write(json(stamped), into: &output) }
        output.append(UInt8(ascii: "\n"))
    }

    /// The event as a JSON object.
    public static func json(_ stamped: StampedEvent) -> JSONValue {
        var object = body(stamped.event, generation: stamped.generation)
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

    private static func body(_ event: Event, generation: Int) -> [String: JSONValue] {
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
            if let games = hello.games { object["games"] = .int(games) }
            return object
        case .game(let gameEvent):
            return body(gameEvent, generation: generation)
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

    private static func body(_ event: GameEvent, generation: Int) -> [String: JSONValue] {
        switch event {
        case .screen(let screen):
            var object: [String: JSONValue] = [
                "type": "screen",
                "gen": .int(generation),
                "screen": .string(screen.id),
                "kind": .string(screen.kind.rawValue),
                "title": .string(screen.title),
                "elements": .array(screen.elements.map(json)),
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
                "element": json(focus.element),
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
            return ["type": "elementChanged", "gen": .int(generation), "element": json(element)]
        case .timer(let timer):
            return [
                "type": "timer",
                "limitMs": .int(Int(timer.limitMs)),
                "remainingMs": .int(Int(timer.remainingMs)),
                "paused": .bool(timer.paused),
            ]
        }
    }

    private static func json(_ element: Element) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(element.id),
            "label": .string(element.label),
            "traits": .array(element.traits.map { .string($0.rawValue) }),
        ]
        if let hint = element.hint { object["hint"] = .string(hint) }
        if let value = element.value { object["value"] = .string(value) }
        if !element.rotors.isEmpty { object["rotors"] = .array(element.rotors.map(JSONValue.string)) }
        if !element.actions.isEmpty { object["actions"] = .array(element.actions.map(JSONValue.string)) }
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

/// The most frequent events written straight to bytes, without building a ``JSONValue`` first.
///
/// `done`, `idle`, `focus`, `announce`, `sound`, `result`, `screen`, `rotor`, `progress` and
/// `elementChanged` are nearly all of a command's output; their keys are
/// written in the order ``JSONWriter`` sorts them, at a fraction of the cost. `EventEncoderTests`
/// checks each against the general path, byte for byte.
enum DirectLine {
    /// Writes the event's line without its terminator; `false` (and nothing written) for other events.
    static func write(_ stamped: StampedEvent, into output: inout [UInt8]) -> Bool {
        var line = Line(stamped: stamped, output: output)
        defer { output = line.output }
        output = []
        switch stamped.event {
        case .done:
            line.open()
            line.generation(always: true)
            line.envelope(type: "done")
        case .idle:
            line.open()
            line.generation(always: true)
            line.envelope(type: "idle")
        case .progress(let summary, let saved):
            // Protocol 1.2's chapters are written by the general path.
            guard stamped.protocolMinor < 2 else { return false }
            line.open()
            line.optional("chapter", summary.chapter)
            line.strings("completed", summary.completed)
            line.generation()
            line.optional("level", summary.level)
            if stamped.protocolMinor >= 1 {
                line.key("onScreen")
                if let place = summary.onScreen {
                    line.output.append(contentsOf: #"{"chapter":"#.utf8)
                    line.decimal(place.chapter)
                    line.output.append(contentsOf: #","level":"#.utf8)
                    line.decimal(place.level)
                    line.output.append(UInt8(ascii: "}"))
                } else {
                    line.output.append(contentsOf: "null".utf8)
                }
            }
            line.replyTo()
            line.flag("saved", saved)
            line.seq()
            line.field("total", summary.total)
            line.type("progress")
        case .game(.screen(let screen)):
            // A chapter's id (protocol 1.2) is written by the general path.
            guard screen.chapterID == nil else { return false }
            line.open()
            line.key("elements")
            line.output.append(UInt8(ascii: "["))
            for (offset, element) in screen.elements.enumerated() {
                if offset > 0 { line.output.append(UInt8(ascii: ",")) }
                line.element(element)
            }
            line.output.append(UInt8(ascii: "]"))
            line.gesture("escape", screen.escape)
            line.generation(always: true)
            if let hints = screen.hints {
                line.key("hints")
                line.output.append(contentsOf: #"{"total":"#.utf8)
                line.decimal(hints.total)
                line.output.append(contentsOf: #","unlocked":"#.utf8)
                line.decimal(hints.unlocked)
                line.output.append(UInt8(ascii: "}"))
            }
            line.field("kind", screen.kind.rawValue)
            line.gesture("magicTap", screen.magicTap)
            line.replyTo()
            line.field("screen", screen.id)
            line.seq()
            line.field("title", screen.title)
            line.type("screen")
        case .game(.rotor(let rotor)):
            line.open()
            line.field("element", rotor.element)
            line.generation()
            line.optional("item", rotor.item)
            line.field("itemCount", rotor.itemCount)
            line.optional("itemIndex", rotor.itemIndex)
            line.replyTo()
            line.field("rotor", rotor.rotor)
            line.field("rotorCount", rotor.rotorCount)
            line.field("rotorIndex", rotor.rotorIndex)
            line.seq()
            line.type("rotor")
        case .game(.elementChanged(let element)):
            line.open()
            line.key("element")
            line.element(element)
            line.generation(always: true)
            line.envelope(type: "elementChanged")
        case .game(.announce(let announcement)):
            line.open()
            line.field("category", announcement.category.rawValue)
            line.generation()
            line.field("priority", announcement.priority.rawValue)
            line.replyTo()
            line.seq()
            line.field("text", announcement.text)
            line.type("announce")
        case .game(.sound(let cue)):
            line.open()
            line.generation()
            line.field("name", cue.rawValue)
            line.envelope(type: "sound")
        case .game(.result(let result)):
            line.open()
            line.generation()
            line.field("level", result.level)
            line.field("outcome", result.outcome.rawValue)
            line.envelope(type: "result")
        case .game(.focus(let focus)):
            line.open()
            line.field("count", focus.count)
            line.key("element")
            line.element(focus.element)
            line.generation(always: true)
            line.field("index", focus.index)
            line.replyTo()
            line.field("screen", focus.screen)
            line.seq()
            line.type("focus")
        case .validActions(let screen, let actions):
            line.open()
            line.key("actions")
            line.output.append(UInt8(ascii: "["))
            for (offset, action) in actions.enumerated() {
                if offset > 0 { line.output.append(UInt8(ascii: ",")) }
                line.validAction(action)
            }
            line.output.append(UInt8(ascii: "]"))
            line.generation(always: true)
            line.replyTo()
            line.field("screen", screen)
            line.seq()
            line.type("validActions")
        default:
            return false
        }
        line.output.append(UInt8(ascii: "}"))
        return true
    }

    /// What a line says of every event besides the event itself: copied out of the stamped event
    /// once, rather than the event (whose payload is mostly references) for each object written.
    private struct Envelope {
        let seq: Int
        let replyTo: RequestID?
        let generation: Int
        let game: Int?
        let protocolMinor: Int

        init(_ stamped: StampedEvent) {
            seq = stamped.seq
            replyTo = stamped.replyTo
            generation = stamped.generation
            game = stamped.game
            protocolMinor = stamped.protocolMinor
        }
    }

    /// An object being written: its bytes and whether a member was written yet.
    private struct Line {
        let stamped: Envelope
        var output: [UInt8]
        var first = true

        init(stamped: Envelope, output: [UInt8]) {
            self.stamped = stamped
            self.output = output
        }

        init(stamped: StampedEvent, output: [UInt8]) {
            self.init(stamped: Envelope(stamped), output: output)
        }

        mutating func open() { output.append(UInt8(ascii: "{")) }

        /// Appends ASCII text whole.
        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { output.append(contentsOf: $0) }
        }

        /// `,"name":` (no comma first in an object): the quotes and colon go in with the name's bytes,
        /// a byte at a time, which costs less than copying a few bytes as a buffer.
        mutating func key(_ name: StaticString) {
            if first { first = false } else { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            let start = name.utf8Start
            for offset in 0..<name.utf8CodeUnitCount { output.append(start[offset]) }
            output.append(UInt8(ascii: "\""))
            output.append(UInt8(ascii: ":"))
        }

        /// Writes `number` in decimal digits, as `String(number)` spells it, without making the string.
        mutating func decimal(_ number: Int) {
            if number >= 0 && number < 10 { return output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: number)) }
            if number < 0 { output.append(UInt8(ascii: "-")) }
            let magnitude = number.magnitude
            // The largest power of ten not above the number, then its digits from the left.
            var scale: UInt = 1
            while magnitude / scale >= 10 { scale *= 10 }
            var rest = magnitude
            repeat {
                output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / scale))
                rest %= scale
                scale /= 10
            } while scale > 0
        }

        mutating func field(_ name: StaticString, _ text: String) {
            key(name)
            JSONWriter.writeString(text, into: &output)
        }

        mutating func field(_ name: StaticString, _ number: Int) {
            key(name)
            decimal(number)
        }

        /// `game`, in an engine that hosts many, then `gen`: in every event of protocol 1.1, and in the
        /// few that carry it in 1.0 too. (No key sorts between the two.)
        mutating func generation(always: Bool = false) {
            if let game = stamped.game { field("game", game) }
            if always || stamped.protocolMinor >= 1 { field("gen", stamped.generation) }
        }

        mutating func replyTo() {
            guard let replyTo = stamped.replyTo else { return }
            key("replyTo")
            switch replyTo {
            case .int(let number): decimal(number)
            case .string(let text): JSONWriter.writeString(text, into: &output)
            }
        }

        mutating func seq() { field("seq", stamped.seq) }

        mutating func optional(_ name: StaticString, _ number: Int?) {
            key(name)
            guard let number else { return output.append(contentsOf: "null".utf8) }
            decimal(number)
        }

        mutating func optional(_ name: StaticString, _ text: String?) {
            key(name)
            guard let text else { return output.append(contentsOf: "null".utf8) }
            JSONWriter.writeString(text, into: &output)
        }

        mutating func flag(_ name: StaticString, _ value: Bool) {
            key(name)
            output.append(contentsOf: (value ? "true" : "false").utf8)
        }

        /// A screen's `magicTap` or `escape`: its action and label, or `null`.
        mutating func gesture(_ name: StaticString, _ gesture: ScreenGesture?) {
            key(name)
            guard let gesture else { return output.append(contentsOf: "null".utf8) }
            output.append(contentsOf: #"{"action":"#.utf8)
            JSONWriter.writeString(gesture.action.rawValue, into: &output)
            output.append(contentsOf: #","label":"#.utf8)
            JSONWriter.writeString(gesture.label, into: &output)
            output.append(UInt8(ascii: "}"))
        }

        mutating func type(_ name: StaticString) {
            key("type")
            output.append(UInt8(ascii: "\""))
            raw(name)
            output.append(UInt8(ascii: "\""))
        }

        /// `replyTo`, `seq` and `type`, which end most events.
        mutating func envelope(type name: StaticString) {
            replyTo()
            seq()
            type(name)
        }

        /// An element's `traits`, their names written as they are (no name needs an escape).
        mutating func traits(_ traits: [Trait]) {
            key("traits")
            output.append(UInt8(ascii: "["))
            for (offset, trait) in traits.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "\""))
                raw(trait.wireName)
                output.append(UInt8(ascii: "\""))
            }
            output.append(UInt8(ascii: "]"))
        }

        mutating func strings(_ name: StaticString, _ values: some Sequence<String>) {
            key(name)
            output.append(UInt8(ascii: "["))
            for (offset, value) in values.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(value, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        }

        /// One of `validActions`' actions: its command as ``CommandEncoder`` writes it, aimed at its element.
        mutating func validAction(_ action: ValidAction) {
            var inner = Line(stamped: stamped, output: output)
            output = []
            inner.open()
            inner.key("command")
            inner.command(action.command, element: action.element)
            inner.optional("element", action.element)
            inner.field("label", action.label)
            inner.flag("needsText", action.needsText)
            inner.output.append(UInt8(ascii: "}"))
            output = inner.output
        }

        /// A command object, keys sorted, with `element` when the command or `element` names one.
        mutating func command(_ command: GameCommand, element: String?) {
            var inner = Line(stamped: stamped, output: output)
            output = []
            inner.open()
            func aimed(_ target: String?) {
                if let target = target ?? element { inner.field("element", target) }
            }
            switch command {
            case .next, .previous, .first, .last, .magicTap, .escape, .hint, .menu, .replay, .repeatAnnouncement:
                aimed(nil)
            case .focus(let target):
                inner.field("element", target)
            case .activate(let target):
                aimed(target)
            case .rotor(let direction), .rotorItem(let direction):
                inner.field("direction", direction.rawValue)
                aimed(nil)
            case .action(.name(let name)):
                aimed(nil)
                inner.field("name", name)
            case .action(.index(let index)):
                aimed(nil)
                inner.field("index", index)
            case .adjust(let direction):
                inner.field("direction", direction.rawValue)
                aimed(nil)
            case .input(let text, let target):
                aimed(target)
                inner.field("text", text)
            case .goto(let chapter, let level):
                inner.field("chapter", chapter)
                aimed(nil)
                inner.field("level", level)
            case .assistive(let active):
                inner.flag("active", active)
                aimed(nil)
            }
            inner.key("type")
            JSONWriter.writeString(command.wireName, into: &inner.output)
            inner.output.append(UInt8(ascii: "}"))
            output = inner.output
        }

        mutating func element(_ element: Element) {
            var inner = Line(stamped: stamped, output: output)
            output = []
            inner.open()
            if !element.actions.isEmpty { inner.strings("actions", element.actions) }
            if let hint = element.hint { inner.field("hint", hint) }
            inner.field("id", element.id)
            inner.field("label", element.label)
            if !element.rotors.isEmpty { inner.strings("rotors", element.rotors) }
            inner.traits(element.traits)
            if let value = element.value { inner.field("value", value) }
            inner.output.append(UInt8(ascii: "}"))
            output = inner.output
        }
    }
}

extension Trait {
    /// The trait's name on the wire, its raw value (`EventEncoderTests` compares the two paths).
    fileprivate var wireName: StaticString {
        switch self {
        case .button: "button"
        case .header: "header"
        case .staticText: "staticText"
        case .textField: "textField"
        case .adjustable: "adjustable"
        case .notEnabled: "notEnabled"
        case .selected: "selected"
        }
    }
}
