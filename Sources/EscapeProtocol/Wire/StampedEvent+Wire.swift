// SPDX-License-Identifier: Apache-2.0
import EscapeCore

// How each event is written: its members, the envelope's among them, each once and in sorted key order
// (the order ``JSONWriter`` sorts them in, which `EventEncoderTests` checks for every event), against a
// ``WireWriter``. The wire's bytes and ``EventEncoder/json(_:)`` both come from here.

extension StampedEvent {
    /// Writes the event's object, envelope included, to `writer`.
    @inline(__always)
    func write<Writer: WireWriter & ~Copyable>(to writer: inout Writer) {
        writer.object { writer in writeMembers(to: &writer) }
    }

    /// Writes the event's members, in sorted key order.
    private func writeMembers<Writer: WireWriter & ~Copyable>(to writer: inout Writer) {
        let type = event.type
        switch event {
        case .hello(let hello):
            writer.key("adventure")
            writer.object { writer in
                writer.member("id", hello.adventureID)
                writer.member("title", hello.adventureTitle)
            }
            writer.member("capabilities", strings: hello.capabilities)
            writer.member("engine", hello.engineVersion)
            if let game { writer.member("game", game) }
            if let games = hello.games { writer.member("games", games) }
            writer.member("gen", generation)
            writer.member("locale", hello.locale)
            if let omit = hello.grantedOmit, !omit.isEmpty { writer.member("omit", strings: omit) }
            writer.member("protocol", hello.protocolVersion)
            writeReplyTo(to: &writer)
            writer.member("seq", seq)
            writer.member("type", word: type.staticWireName)
            writer.key("version")
            Self.write(hello.version, to: &writer)
            writer.key("versions")
            writer.array(hello.versions) { writer, version in Self.write(version, to: &writer) }
            if let want = hello.grantedWant { writer.member("want", strings: want) }
        case .done, .idle, .bye:
            writeEnvelope(of: type, to: &writer)
        case .error(let error):
            writer.member("code", error.code.rawValue)
            if let field = error.field { writer.member("field", field) }
            writeGeneration(of: type, to: &writer)
            writer.member("message", error.message)
            writeReplyTo(to: &writer)
            writer.member("seq", seq)
            writer.member("type", word: type.staticWireName)
        case .progress(let summary, let saved):
            writer.nullable("chapter", summary.chapter)
            if protocolMinor >= 2 {
                writer.nullable("chapterId", summary.chapterID)
                writer.key("chapters")
                writer.array(summary.chapters) { writer, chapter in
                    writer.object { writer in
                        writer.member("completed", chapter.completed)
                        writer.member("id", chapter.id)
                        writer.member("total", chapter.total)
                    }
                }
            }
            writer.member("completed", strings: summary.completed)
            writeGeneration(of: type, to: &writer)
            writer.nullable("level", summary.level)
            if protocolMinor >= 1 {
                writer.key("onScreen")
                if let place = summary.onScreen {
                    writer.object { writer in
                        writer.member("chapter", place.chapter)
                        writer.member("level", place.level)
                    }
                } else {
                    writer.null()
                }
            }
            writeReplyTo(to: &writer)
            writer.member("saved", saved)
            writer.member("seq", seq)
            writer.member("total", summary.total)
            writer.member("type", word: type.staticWireName)
        case .ended(let reason, let cutShort):
            writeEnded(reason: reason, cutShort: cutShort, to: &writer)
        case .validActions(let screen, let actions):
            writer.key("actions")
            writer.array(actions) { writer, action in
                writer.object { writer in
                    writer.key("command")
                    action.command.write(aimedAt: action.element, to: &writer)
                    writer.nullable("element", action.element)
                    writer.member("label", action.label)
                    writer.member("needsText", action.needsText)
                }
            }
            writeGeneration(of: type, to: &writer)
            writeReplyTo(to: &writer)
            writer.member("screen", screen)
            writer.member("seq", seq)
            writer.member("type", word: type.staticWireName)
        case .observation(let observation):
            writer.member("completed", observation.completed)
            writer.member("focus", observation.focus)
            writeGeneration(of: type, to: &writer)
            if !observation.heard.isEmpty { writer.member("heard", strings: observation.heard) }
            writer.member("kind", observation.kind.rawValue)
            writeReplyTo(to: &writer)
            writer.member("screen", observation.screen)
            writer.member("seq", seq)
            writer.member("text", observation.text)
            writer.member("total", observation.total)
            writer.member("type", word: type.staticWireName)
        case .snapshot(let blob):
            writer.member("blob", blob)
            writeEnvelope(of: type, to: &writer)
        case .role(let role, let controlFree):
            writer.member("controlFree", controlFree)
            writeGeneration(of: type, to: &writer)
            writeReplyTo(to: &writer)
            writer.member("role", role.rawValue)
            writer.member("seq", seq)
            writer.member("type", word: type.staticWireName)
        case .game(let event):
            writeMembers(of: event, type: type, to: &writer)
        }
    }

    /// Writes a game event's members, in sorted key order.
    private func writeMembers<Writer: WireWriter & ~Copyable>(
        of event: GameEvent,
        type: EventType,
        to writer: inout Writer
    ) {
        switch event {
        case .screen(let screen):
            if let chapterID = screen.chapterID { writer.member("chapterId", chapterID) }
            writer.key("elements")
            writer.array(screen.elements) { writer, element in write(element, to: &writer) }
            Self.write(screen.escape, named: "escape", to: &writer)
            writeGeneration(of: type, to: &writer)
            if let hints = screen.hints {
                writer.key("hints")
                writer.object { writer in
                    writer.member("total", hints.total)
                    writer.member("unlocked", hints.unlocked)
                }
            }
            writer.member("kind", screen.kind.rawValue)
            Self.write(screen.magicTap, named: "magicTap", to: &writer)
            writeReplyTo(to: &writer)
            writer.member("screen", screen.id)
            writer.member("seq", seq)
            writer.member("title", screen.title)
            writer.member("type", word: type.staticWireName)
        case .focus(let focus):
            writer.member("count", focus.count)
            writer.key("element")
            write(focus.element, to: &writer)
            writeGeneration(of: type, to: &writer)
            writer.member("index", focus.index)
            writeReplyTo(to: &writer)
            writer.member("screen", focus.screen)
            writer.member("seq", seq)
            writer.member("type", word: type.staticWireName)
        case .announce(let announcement):
            writer.member("category", announcement.category.rawValue)
            writeGeneration(of: type, to: &writer)
            writer.member("priority", announcement.priority.rawValue)
            writeReplyTo(to: &writer)
            writer.member("seq", seq)
            writer.member("text", announcement.text)
            writer.member("type", word: type.staticWireName)
        case .rotor(let rotor):
            writer.member("element", rotor.element)
            writeGeneration(of: type, to: &writer)
            writer.nullable("item", rotor.item)
            writer.member("itemCount", rotor.itemCount)
            writer.nullable("itemIndex", rotor.itemIndex)
            writeReplyTo(to: &writer)
            writer.member("rotor", rotor.rotor)
            writer.member("rotorCount", rotor.rotorCount)
            writer.member("rotorIndex", rotor.rotorIndex)
            writer.member("seq", seq)
            writer.member("type", word: type.staticWireName)
        case .actions(let list):
            writer.key("actions")
            writer.array(list.actions.enumerated()) { writer, action in
                writer.object { writer in
                    writer.member("index", action.offset + 1)
                    writer.member("name", action.element)
                }
            }
            writer.member("element", list.element)
            writeEnvelope(of: type, to: &writer)
        case .result(let result):
            writeGeneration(of: type, to: &writer)
            writer.member("level", result.level)
            writer.member("outcome", result.outcome.rawValue)
            writeEnvelope(after: type, to: &writer)
        case .sound(let cue):
            writeGeneration(of: type, to: &writer)
            writer.member("name", cue.rawValue)
            writeEnvelope(after: type, to: &writer)
        case .ambient(let ambience):
            writeGeneration(of: type, to: &writer)
            writer.member("loop", ambience.name)
            writer.member("name", word: "ambient")
            writeEnvelope(after: type, to: &writer)
        case .ended(let reason):
            writeEnded(reason: reason, cutShort: reason != .escaped, to: &writer)
        case .elementChanged(let element):
            writer.key("element")
            write(element, to: &writer)
            writeEnvelope(of: type, to: &writer)
        case .timer(let timer):
            writeGeneration(of: type, to: &writer)
            writer.member("limitMs", Int(timer.limitMs))
            writer.member("paused", timer.paused)
            writer.member("remainingMs", Int(timer.remainingMs))
            writeEnvelope(after: type, to: &writer)
        }
    }

    /// Writes an `ended`'s members, the engine's or the session's.
    private func writeEnded<Writer: WireWriter & ~Copyable>(
        reason: EndReason,
        cutShort: Bool,
        to writer: inout Writer
    ) {
        writer.member("cutShort", cutShort)
        writeGeneration(of: .ended, to: &writer)
        writer.member("reason", reason.rawValue)
        writeEnvelope(after: .ended, to: &writer)
    }

    // MARK: - The envelope

    /// Writes `game`, in an engine that hosts many, then `gen`: in every event from protocol 1.1, and in
    /// the events of `type` in 1.0 too when they carry it in every version. (No key of an event but
    /// `hello`'s `games` sorts between the two.)
    @inline(__always)
    private func writeGeneration<Writer: WireWriter & ~Copyable>(of type: EventType, to writer: inout Writer) {
        if let game { writer.member("game", game) }
        if protocolMinor >= 1 || type.carriesGenerationInEveryVersion { writer.member("gen", generation) }
    }

    /// Writes `replyTo`, when the event answers a request that had an id.
    @inline(__always)
    private func writeReplyTo<Writer: WireWriter & ~Copyable>(to writer: inout Writer) {
        guard let replyTo else { return }
        writer.key("replyTo")
        switch replyTo {
        case .int(let number): writer.int(number)
        case .string(let text): writer.string(text)
        }
    }

    /// Writes `replyTo`, `seq` and `type`, which end most events.
    @inline(__always)
    private func writeEnvelope<Writer: WireWriter & ~Copyable>(after type: EventType, to writer: inout Writer) {
        writeReplyTo(to: &writer)
        writer.member("seq", seq)
        writer.member("type", word: type.staticWireName)
    }

    /// Writes the whole envelope, `game` and `gen` included, which ends the events that have no member
    /// sorting after `element`.
    @inline(__always)
    private func writeEnvelope<Writer: WireWriter & ~Copyable>(of type: EventType, to writer: inout Writer) {
        writeGeneration(of: type, to: &writer)
        writeEnvelope(after: type, to: &writer)
    }

    // MARK: - The values inside events

    /// Writes an element; an adjustable one's `range` from protocol 1.3.
    private func write<Writer: WireWriter & ~Copyable>(_ element: Element, to writer: inout Writer) {
        writer.object { writer in
            if !element.actions.isEmpty { writer.member("actions", strings: element.actions) }
            if let hint = element.hint { writer.member("hint", hint) }
            writer.member("id", element.id)
            writer.member("label", element.label)
            if protocolMinor >= 3, let range = element.range {
                writer.key("range")
                writer.object { writer in
                    writer.member("count", range.count)
                    writer.member("position", range.position)
                }
            }
            if !element.rotors.isEmpty { writer.member("rotors", strings: element.rotors) }
            writer.key("traits")
            writer.array(element.traits) { writer, trait in writer.word(trait.wireName) }
            if let value = element.value { writer.member("value", value) }
        }
    }

    /// Writes a screen's `magicTap` or `escape`: its action and label, or `null`.
    private static func write<Writer: WireWriter & ~Copyable>(
        _ gesture: ScreenGesture?,
        named name: StaticString,
        to writer: inout Writer
    ) {
        writer.key(name)
        guard let gesture else { return writer.null() }
        writer.object { writer in
            writer.member("action", gesture.action.rawValue)
            writer.member("label", gesture.label)
        }
    }

    /// Writes a protocol version as `[major, minor]`.
    private static func write<Writer: WireWriter & ~Copyable>(_ version: ProtocolVersion, to writer: inout Writer) {
        writer.array([version.major, version.minor]) { writer, number in writer.int(number) }
    }
}

extension Trait {
    /// The trait's name on the wire, its raw value, as the writer copies it (`EventDecoderTests` reads
    /// every trait back).
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
