// SPDX-License-Identifier: Apache-2.0
import EscapeCore
public import EscapeJSON

/// Why a line is not an event this client understands.
public struct EventDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending field (`elements[2].traits`, say), when one is to blame.
    public var field: String?
    /// What is wrong.
    public var problem: String

    /// Creates an error.
    public init(field: String?, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    /// The problem, with the field it is about.
    public var description: String {
        guard let field else { return problem }
        return "\(field): \(problem)"
    }
}

/// Reads events in their wire form: the exact inverse of ``EventEncoder``, for clients of the protocol.
///
/// A line the encoder wrote decodes to an event the encoder writes back byte for byte. The protocol's
/// minor version is read from the line: in 1.1 every event carries `gen`, and `progress` its `onScreen`.
/// Events that carry `gen` in 1.0 too cannot say which version wrote them; they take `protocolMinor`.
/// A 1.0 event without `gen` gets generation 0: its line does not say.
public enum EventDecoder {
    /// Decodes one line (without its terminator).
    ///
    /// - Parameters:
    ///   - line: The line's bytes.
    ///   - protocolMinor: The minor version for events whose line does not tell (`hello`, `screen`,
    ///     `done`...): the version the connection speaks.
    /// - Returns: The event and its envelope.
    /// - Throws: An ``EventDecodingError`` naming what is missing, mistyped or unknown.
    public static func decode(
        _ line: some Collection<UInt8>,
        protocolMinor: Int = 0
    ) throws(EventDecodingError)
        -> StampedEvent
    {
        let value: JSONValue
        do {
            value = try JSONReader.read(line)
        } catch {
            throw EventDecodingError(field: nil, "not JSON: \(error)")
        }
        return try decode(value, protocolMinor: protocolMinor)
    }

    /// Decodes one event already read as JSON.
    ///
    /// - Parameters:
    ///   - value: The event's object.
    ///   - protocolMinor: The minor version for events whose line does not tell.
    /// - Returns: The event and its envelope.
    /// - Throws: An ``EventDecodingError`` naming what is missing, mistyped or unknown.
    public static func decode(_ value: JSONValue, protocolMinor: Int = 0) throws(EventDecodingError) -> StampedEvent {
        guard case .object(let members) = value else {
            throw EventDecodingError(field: nil, "an event is an object, not \(value.typeName)")
        }
        let object = Members(members, path: "")
        let type = try object.string("type")
        let seq = try object.int("seq")
        let replyTo: RequestID? =
            switch members["replyTo"] {
            case nil: nil
            case .int(let id): .int(id)
            case .string(let id): .string(id)
            case .some(let other):
                throw EventDecodingError(field: "replyTo", "must be a string or an integer, not \(other.typeName)")
            }
        let generation = try object.optionalInt("gen")
        let eventType = EventType(wireName: type)
        var minor = protocolMinor
        // A line with gen is 1.1 or later: which one, only the caller knows (1.2 adds no such event).
        if eventType?.carriesGenerationInEveryVersion != true { minor = generation == nil ? 0 : max(1, protocolMinor) }
        if eventType == .progress {
            // 1.3 adds nothing to progress: a line with chapters is 1.2 or later.
            minor = members["chapters"] != nil ? max(2, protocolMinor) : members["onScreen"] == nil ? 0 : 1
        }
        guard let eventType else { throw EventDecodingError(field: "type", "\"\(type)\" names no event") }
        let event = try event(eventType, object)
        // An element with a range is 1.3's.
        if minor < 3, Self.carriesRange(event) { minor = 3 }
        var stamped = StampedEvent(
            seq: seq,
            replyTo: replyTo,
            generation: generation ?? 0,
            event: event,
            protocolMinor: minor
        )
        stamped.game = try object.optionalInt("game")
        return stamped
    }

    /// Whether an element of `event` has a `range`, which only protocol 1.3 writes.
    private static func carriesRange(_ event: Event) -> Bool {
        switch event {
        case .game(.screen(let screen)): screen.elements.contains { $0.range != nil }
        case .game(.focus(let focus)): focus.element.range != nil
        case .game(.elementChanged(let element)): element.range != nil
        default: false
        }
    }

    private static func event(_ type: EventType, _ object: Members) throws(EventDecodingError) -> Event {
        switch type {
        case .hello:
            let adventure = try object.object("adventure")
            return .hello(
                ServerHello(
                    protocolVersion: try object.int("protocol"),
                    version: try version(object.value("version"), field: "version"),
                    versions: try object.array("versions").enumerated().map {
                        (index, item) throws(EventDecodingError) in
                        try version(item, field: "versions[\(index)]")
                    },
                    grantedWant: try object.optionalStrings("want"),
                    grantedOmit: try object.optionalStrings("omit"),
                    engineVersion: try object.string("engine"),
                    locale: try object.string("locale"),
                    adventureID: try adventure.string("id"),
                    adventureTitle: try adventure.string("title"),
                    capabilities: try object.strings("capabilities"),
                    games: try object.optionalInt("games")
                )
            )
        case .screen:
            let hints = try object.optionalObject("hints")
            return .game(
                .screen(
                    Screen(
                        id: try object.string("screen"),
                        kind: try object.enumeration("kind", ScreenKind.self),
                        title: try object.string("title"),
                        elements: try object.objects("elements").map(element),
                        magicTap: try gesture(object, "magicTap"),
                        escape: try gesture(object, "escape"),
                        hints: try hints.map { (hints) throws(EventDecodingError) in
                            HintCount(total: try hints.int("total"), unlocked: try hints.int("unlocked"))
                        },
                        chapterID: try object.optionalString("chapterId")
                    )
                )
            )
        case .focus:
            return .game(
                .focus(
                    FocusState(
                        screen: try object.string("screen"),
                        element: try element(object.object("element")),
                        index: try object.int("index"),
                        count: try object.int("count")
                    )
                )
            )
        case .announce:
            return .game(
                .announce(
                    Announcement(
                        try object.string("text"),
                        priority: try object.enumeration("priority", Priority.self),
                        category: try object.enumeration("category", AnnouncementCategory.self)
                    )
                )
            )
        case .rotor:
            return .game(
                .rotor(
                    RotorState(
                        element: try object.string("element"),
                        rotor: try object.string("rotor"),
                        rotorIndex: try object.int("rotorIndex"),
                        rotorCount: try object.int("rotorCount"),
                        item: try object.nullableString("item"),
                        itemIndex: try object.nullableInt("itemIndex"),
                        itemCount: try object.int("itemCount")
                    )
                )
            )
        case .actions:
            let names = try object.objects("actions").map { (action) throws(EventDecodingError) in
                try action.string("name")
            }
            return .game(.actions(ActionList(element: try object.string("element"), actions: names)))
        case .result:
            return .game(
                .result(
                    AnswerResult(
                        outcome: try object.enumeration("outcome", Outcome.self),
                        level: try object.string("level")
                    )
                )
            )
        case .progress:
            let onScreen = object.members["onScreen"] == nil ? nil : try object.nullableObject("onScreen")
            let summary = ProgressSummary(
                chapter: try object.nullableInt("chapter"),
                level: try object.nullableInt("level"),
                completed: try object.strings("completed"),
                total: try object.int("total"),
                onScreen: try onScreen.map { (number) throws(EventDecodingError) in
                    LevelNumber(chapter: try number.int("chapter"), level: try number.int("level"))
                },
                chapterID: object.members["chapterId"] == nil ? nil : try object.nullableString("chapterId"),
                chapters: object.members["chapters"] == nil
                    ? []
                    : try object.objects("chapters").map { (chapter) throws(EventDecodingError) in
                        ChapterProgress(
                            id: try chapter.string("id"),
                            completed: try chapter.int("completed"),
                            total: try chapter.int("total")
                        )
                    }
            )
            return .progress(summary, saved: try object.bool("saved"))
        case .sound:
            let name = try object.string("name")
            if name == "ambient" {
                let loop = try object.string("loop")
                guard let ambience = Ambience(loop) else {
                    throw EventDecodingError(field: "loop", "\"\(loop)\" is not an ambience's name")
                }
                return .game(.ambient(ambience))
            }
            return .game(.sound(try object.enumeration("name", SoundCue.self)))
        case .ended:
            return .ended(
                reason: try object.enumeration("reason", EndReason.self),
                cutShort: try object.bool("cutShort")
            )
        case .elementChanged:
            return .game(.elementChanged(try element(object.object("element"))))
        case .timer:
            return .game(
                .timer(
                    TimerState(
                        limitMs: Int64(try object.int("limitMs")),
                        remainingMs: Int64(try object.int("remainingMs")),
                        paused: try object.bool("paused")
                    )
                )
            )
        case .error:
            return .error(
                ProtocolError(
                    try object.enumeration("code", ErrorCode.self),
                    try object.string("message"),
                    field: try object.optionalString("field")
                )
            )
        case .done: return .done
        case .bye: return .bye
        case .idle: return .idle
        case .snapshot: return .snapshot(blob: try object.string("blob"))
        case .role:
            return .role(try object.enumeration("role", ClientRole.self), controlFree: try object.bool("controlFree"))
        case .validActions:
            let actions = try object.objects("actions").map(validAction)
            return .validActions(screen: try object.string("screen"), actions: actions)
        case .observation:
            return .observation(
                Observation(
                    screen: try object.string("screen"),
                    kind: try object.enumeration("kind", ScreenKind.self),
                    focus: try object.string("focus"),
                    text: try object.string("text"),
                    heard: try object.optionalStrings("heard") ?? [],
                    completed: try object.int("completed"),
                    total: try object.int("total")
                )
            )
        }
    }

    private static func element(_ object: Members) throws(EventDecodingError) -> Element {
        var range: ElementRange?
        if let members = try object.optionalObject("range") {
            range = ElementRange(position: try members.int("position"), count: try members.int("count"))
        }
        return Element(
            id: try object.string("id"),
            label: try object.string("label"),
            hint: try object.optionalString("hint"),
            value: try object.optionalString("value"),
            traits: try object.strings("traits").enumerated().map { (index, raw) throws(EventDecodingError) in
                guard let trait = Trait(rawValue: raw) else {
                    throw EventDecodingError(field: object.path + "traits[\(index)]", "\"\(raw)\" names no trait")
                }
                return trait
            },
            rotors: try object.optionalStrings("rotors") ?? [],
            actions: try object.optionalStrings("actions") ?? [],
            range: range
        )
    }

    private static func gesture(_ object: Members, _ name: String) throws(EventDecodingError) -> ScreenGesture? {
        guard let gesture = try object.nullableObject(name) else { return nil }
        return ScreenGesture(
            action: try gesture.enumeration("action", ScreenGesture.Action.self),
            label: try gesture.string("label")
        )
    }

    private static func validAction(_ object: Members) throws(EventDecodingError) -> ValidAction {
        let element = try object.nullableString("element")
        let commandObject = try object.object("command")
        let command: Command
        do {
            command = try CommandDecoder.command(from: commandObject.members)
        } catch {
            let field = commandObject.path.dropLast() + (error.field.map { "." + $0 } ?? "")
            throw EventDecodingError(field: String(field), "not a command (\(error.code.rawValue))")
        }
        let gesture: GameCommand
        switch command {
        case .game(let game), .onElement(_, let game):
            gesture = game
        case .hello, .state, .ping, .wait, .quit, .validActions, .observe, .snapshot, .restore, .batch, .cancel:
            throw EventDecodingError(field: String(commandObject.path.dropLast()), "not a gesture")
        }
        return ValidAction(
            element: element,
            command: gesture,
            label: try object.string("label"),
            needsText: try object.bool("needsText")
        )
    }

    private static func version(_ value: JSONValue, field: String) throws(EventDecodingError) -> ProtocolVersion {
        guard case .array(let parts) = value, parts.count == 2, case .int(let major) = parts[0],
            case .int(let minor) = parts[1]
        else {
            throw EventDecodingError(field: field, "must be a version, [major, minor]")
        }
        return ProtocolVersion(major: major, minor: minor)
    }
}

/// An object's members, read by name; every error names the member with its path.
private struct Members {
    let members: [String: JSONValue]
    /// The object's own path, ending with a dot (`elements[2].`), or empty at the top.
    let path: String

    init(_ members: [String: JSONValue], path: String) {
        self.members = members
        self.path = path
    }

    private func mismatch(_ name: String, _ expected: String, _ found: JSONValue) -> EventDecodingError {
        EventDecodingError(field: path + name, "must be \(expected), not \(found.typeName)")
    }

    func value(_ name: String) throws(EventDecodingError) -> JSONValue {
        guard let value = members[name] else { throw EventDecodingError(field: path + name, "is missing") }
        return value
    }

    func string(_ name: String) throws(EventDecodingError) -> String {
        guard let text = try optionalString(name) else { throw EventDecodingError(field: path + name, "is missing") }
        return text
    }

    func optionalString(_ name: String) throws(EventDecodingError) -> String? {
        switch members[name] {
        case nil: return nil
        case .string(let text): return text
        case .some(let other): throw mismatch(name, "a string", other)
        }
    }

    /// A member that must be there and may be `null`.
    func nullableString(_ name: String) throws(EventDecodingError) -> String? {
        if case .null = try value(name) { return nil }
        return try optionalString(name)
    }

    func int(_ name: String) throws(EventDecodingError) -> Int {
        guard let number = try optionalInt(name) else { throw EventDecodingError(field: path + name, "is missing") }
        return number
    }

    func optionalInt(_ name: String) throws(EventDecodingError) -> Int? {
        switch members[name] {
        case nil: return nil
        case .int(let number): return number
        case .some(let other): throw mismatch(name, "an integer", other)
        }
    }

    func nullableInt(_ name: String) throws(EventDecodingError) -> Int? {
        if case .null = try value(name) { return nil }
        return try optionalInt(name)
    }

    func bool(_ name: String) throws(EventDecodingError) -> Bool {
        switch try value(name) {
        case .bool(let flag): return flag
        case let other: throw mismatch(name, "a boolean", other)
        }
    }

    func array(_ name: String) throws(EventDecodingError) -> [JSONValue] {
        switch try value(name) {
        case .array(let items): return items
        case let other: throw mismatch(name, "an array", other)
        }
    }

    func strings(_ name: String) throws(EventDecodingError) -> [String] {
        var strings: [String] = []
        for (index, item) in try array(name).enumerated() {
            guard case .string(let text) = item else {
                throw EventDecodingError(field: path + "\(name)[\(index)]", "must be a string, not \(item.typeName)")
            }
            strings.append(text)
        }
        return strings
    }

    func optionalStrings(_ name: String) throws(EventDecodingError) -> [String]? {
        members[name] == nil ? nil : try strings(name)
    }

    func object(_ name: String) throws(EventDecodingError) -> Members {
        switch try value(name) {
        case .object(let members): return Members(members, path: path + name + ".")
        case let other: throw mismatch(name, "an object", other)
        }
    }

    func optionalObject(_ name: String) throws(EventDecodingError) -> Members? {
        members[name] == nil ? nil : try object(name)
    }

    func nullableObject(_ name: String) throws(EventDecodingError) -> Members? {
        if case .null = try value(name) { return nil }
        return try object(name)
    }

    func objects(_ name: String) throws(EventDecodingError) -> [Members] {
        var objects: [Members] = []
        for (index, item) in try array(name).enumerated() {
            guard case .object(let members) = item else {
                throw EventDecodingError(field: path + "\(name)[\(index)]", "must be an object, not \(item.typeName)")
            }
            objects.append(Members(members, path: path + "\(name)[\(index)]."))
        }
        return objects
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(
        _ name: String,
        _ type: Value.Type
    ) throws(EventDecodingError) -> Value where Value.RawValue == String {
        let raw = try string(name)
        guard let value = Value(rawValue: raw) else {
            let choices = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw EventDecodingError(field: path + name, "\"\(raw)\" is not one of \(choices)")
        }
        return value
    }
}
