// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON

/// The most frequent events written straight to bytes, without building a ``JSONValue`` first.
///
/// `done`, `idle`, `focus`, `announce`, `sound`, `result`, `screen`, `rotor`, `actions`, `timer`,
/// `ended`, `progress`, `elementChanged`, `validActions` and `observation` are nearly all of a
/// command's output; their keys are written
/// in the order ``JSONWriter`` sorts them, at a fraction of the cost. `EventEncoderTests` checks each
/// against the general path, byte for byte.
///
/// The bytes go to a ``ByteScratch`` first, where a byte costs a store, and reach the caller's array
/// in one copy at ``flush(into:)``: appending to an array byte by byte (a uniqueness and a capacity
/// check each time) was most of what writing an event cost.
struct DirectLine: ~Copyable {
    private var bytes = ByteScratch()
    /// Whether the object being written has no member yet.
    private var first = true
    /// The envelope of the event being written.
    private var stamped = Envelope()

    /// Writes the event's line without its terminator; `false` (and nothing written) for other events.
    mutating func write(_ event: StampedEvent) -> Bool {
        stamped = Envelope(event)
        first = true
        switch event.event {
        case .done:
            open()
            generation(always: true)
            envelope(type: "done")
        case .idle:
            open()
            generation(always: true)
            envelope(type: "idle")
        case .progress(let summary, let saved):
            open()
            optional("chapter", summary.chapter)
            if stamped.protocolMinor >= 2 {
                optional("chapterId", summary.chapterID)
                key("chapters")
                bytes.append(UInt8(ascii: "["))
                for (offset, chapter) in summary.chapters.enumerated() {
                    if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                    object { line in
                        line.field("completed", chapter.completed)
                        line.field("id", chapter.id)
                        line.field("total", chapter.total)
                    }
                }
                bytes.append(UInt8(ascii: "]"))
            }
            strings("completed", summary.completed)
            generation()
            optional("level", summary.level)
            if stamped.protocolMinor >= 1 {
                key("onScreen")
                if let place = summary.onScreen {
                    bytes.append(#"{"chapter":"#)
                    decimal(place.chapter)
                    bytes.append(#","level":"#)
                    decimal(place.level)
                    bytes.append(UInt8(ascii: "}"))
                } else {
                    bytes.append("null")
                }
            }
            replyTo()
            flag("saved", saved)
            seq()
            field("total", summary.total)
            type("progress")
        case .game(.screen(let screen)):
            open()
            if let chapterID = screen.chapterID { field("chapterId", chapterID) }
            key("elements")
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in screen.elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                self.element(element)
            }
            bytes.append(UInt8(ascii: "]"))
            gesture("escape", screen.escape)
            generation(always: true)
            if let hints = screen.hints {
                key("hints")
                bytes.append(#"{"total":"#)
                decimal(hints.total)
                bytes.append(#","unlocked":"#)
                decimal(hints.unlocked)
                bytes.append(UInt8(ascii: "}"))
            }
            field("kind", screen.kind.rawValue)
            gesture("magicTap", screen.magicTap)
            replyTo()
            field("screen", screen.id)
            seq()
            field("title", screen.title)
            type("screen")
        case .game(.rotor(let rotor)):
            open()
            field("element", rotor.element)
            generation()
            optional("item", rotor.item)
            field("itemCount", rotor.itemCount)
            optional("itemIndex", rotor.itemIndex)
            replyTo()
            field("rotor", rotor.rotor)
            field("rotorCount", rotor.rotorCount)
            field("rotorIndex", rotor.rotorIndex)
            seq()
            type("rotor")
        case .game(.elementChanged(let element)):
            open()
            key("element")
            self.element(element)
            generation(always: true)
            envelope(type: "elementChanged")
        case .game(.announce(let announcement)):
            open()
            field("category", announcement.category.rawValue)
            generation()
            field("priority", announcement.priority.rawValue)
            replyTo()
            seq()
            field("text", announcement.text)
            type("announce")
        case .game(.actions(let list)):
            open()
            key("actions")
            bytes.append(UInt8(ascii: "["))
            for (offset, name) in list.actions.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                object { line in
                    line.field("index", offset + 1)
                    line.field("name", name)
                }
            }
            bytes.append(UInt8(ascii: "]"))
            field("element", list.element)
            generation()
            envelope(type: "actions")
        case .ended(let reason, let cutShort):
            open()
            flag("cutShort", cutShort)
            generation()
            field("reason", reason.rawValue)
            envelope(type: "ended")
        case .game(.timer(let timer)):
            open()
            generation()
            field("limitMs", Int(timer.limitMs))
            flag("paused", timer.paused)
            field("remainingMs", Int(timer.remainingMs))
            envelope(type: "timer")
        case .game(.ambient(let ambience)):
            open()
            generation()
            field("loop", ambience.name)
            key("name")
            bytes.append(#""ambient""#)
            envelope(type: "sound")
        case .game(.sound(let cue)):
            open()
            generation()
            field("name", cue.rawValue)
            envelope(type: "sound")
        case .game(.result(let result)):
            open()
            generation()
            field("level", result.level)
            field("outcome", result.outcome.rawValue)
            envelope(type: "result")
        case .game(.focus(let focus)):
            open()
            field("count", focus.count)
            key("element")
            element(focus.element)
            generation(always: true)
            field("index", focus.index)
            replyTo()
            field("screen", focus.screen)
            seq()
            type("focus")
        case .validActions(let screen, let actions):
            open()
            key("actions")
            bytes.append(UInt8(ascii: "["))
            for (offset, action) in actions.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                validAction(action)
            }
            bytes.append(UInt8(ascii: "]"))
            generation(always: true)
            replyTo()
            field("screen", screen)
            seq()
            type("validActions")
        case .observation(let observation):
            open()
            field("completed", observation.completed)
            field("focus", observation.focus)
            generation(always: true)
            if !observation.heard.isEmpty { strings("heard", observation.heard) }
            field("kind", observation.kind.rawValue)
            replyTo()
            field("screen", observation.screen)
            seq()
            field("text", observation.text)
            field("total", observation.total)
            type("observation")
        default:
            return false
        }
        close()
        return true
    }

    /// Ends a line.
    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    /// Appends what was written to `output` and starts again from nothing.
    mutating func flush(into output: inout [UInt8]) {
        bytes.move(into: &output)
    }

    // MARK: - Members

    private mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    private mutating func close() { bytes.append(UInt8(ascii: "}")) }

    /// `"name":`, after a comma unless it is the object's first member.
    private mutating func key(_ name: StaticString) {
        bytes.appendQuoted(name, comma: !first, suffix: UInt8(ascii: ":"))
        first = false
    }

    /// Writes `number` in decimal digits, as `String(number)` spells it, without making the string.
    private mutating func decimal(_ number: Int) {
        // The digits from the right, into a word-sized scratch on the stack: an Int's magnitude has 20
        // digits at most, and a sign.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = number.magnitude
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if number < 0 {
                start -= 1
                scratch[start] = UInt8(ascii: "-")
            }
            guard let base = scratch.baseAddress else { return }
            let written = UnsafeRawBufferPointer(start: base + start, count: scratch.count - start)
            written.withMemoryRebound(to: UInt8.self) { bytes.append($0) }
        }
    }

    private mutating func string(_ text: String) {
        bytes.appendJSONString(text)
    }

    private mutating func field(_ name: StaticString, _ text: String) {
        key(name)
        string(text)
    }

    private mutating func field(_ name: StaticString, _ number: Int) {
        key(name)
        decimal(number)
    }

    /// `game`, in an engine that hosts many, then `gen`: in every event of protocol 1.1, and in the
    /// few that carry it in 1.0 too. (No key sorts between the two.)
    private mutating func generation(always: Bool = false) {
        if let game = stamped.game { field("game", game) }
        if always || stamped.protocolMinor >= 1 { field("gen", stamped.generation) }
    }

    private mutating func replyTo() {
        guard let replyTo = stamped.replyTo else { return }
        key("replyTo")
        switch replyTo {
        case .int(let number): decimal(number)
        case .string(let text): string(text)
        }
    }

    private mutating func seq() { field("seq", stamped.seq) }

    private mutating func optional(_ name: StaticString, _ number: Int?) {
        key(name)
        guard let number else { return bytes.append("null") }
        decimal(number)
    }

    private mutating func optional(_ name: StaticString, _ text: String?) {
        key(name)
        guard let text else { return bytes.append("null") }
        string(text)
    }

    private mutating func flag(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(value ? "true" : "false")
    }

    /// A screen's `magicTap` or `escape`: its action and label, or `null`.
    private mutating func gesture(_ name: StaticString, _ gesture: ScreenGesture?) {
        key(name)
        guard let gesture else { return bytes.append("null") }
        bytes.append(#"{"action":"#)
        string(gesture.action.rawValue)
        bytes.append(#","label":"#)
        string(gesture.label)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func type(_ name: StaticString) {
        key("type")
        bytes.appendQuoted(name, comma: false, suffix: 0)
    }

    /// `replyTo`, `seq` and `type`, which end most events.
    private mutating func envelope(type name: StaticString) {
        replyTo()
        seq()
        type(name)
    }

    private mutating func strings(_ name: StaticString, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An element's `traits`, their names written as they are (no name needs an escape).
    private mutating func traits(_ traits: [Trait]) {
        key("traits")
        bytes.append(UInt8(ascii: "["))
        for (offset, trait) in traits.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            let name = trait.wireName
            bytes.reserve(name.utf8CodeUnitCount + 2)
            bytes.appendReserved(UInt8(ascii: "\""))
            bytes.appendReserved(name)
            bytes.appendReserved(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object inside the one being written: `body` writes its members.
    private mutating func object(_ body: (inout DirectLine) -> Void) {
        let outer = first
        open()
        body(&self)
        close()
        first = outer
    }

    /// One of `validActions`' actions: its command as ``CommandEncoder`` writes it, aimed at its element.
    private mutating func validAction(_ action: ValidAction) {
        object { line in
            line.key("command")
            line.command(action.command, element: action.element)
            line.optional("element", action.element)
            line.field("label", action.label)
            line.flag("needsText", action.needsText)
        }
    }

    /// A command object, keys sorted, with `element` when the command or `element` names one.
    private mutating func command(_ command: GameCommand, element: String?) {
        object { line in
            func aimed(_ target: String?) {
                if let target = target ?? element { line.field("element", target) }
            }
            switch command {
            case .next, .previous, .first, .last, .magicTap, .escape, .hint, .menu, .replay, .repeatAnnouncement:
                aimed(nil)
            case .focus(let target):
                line.field("element", target)
            case .activate(let target):
                aimed(target)
            case .rotor(let direction), .rotorItem(let direction):
                line.field("direction", direction.rawValue)
                aimed(nil)
            case .action(.name(let name)):
                aimed(nil)
                line.field("name", name)
            case .action(.index(let index)):
                aimed(nil)
                line.field("index", index)
            case .adjust(let direction):
                line.field("direction", direction.rawValue)
                aimed(nil)
            case .input(let text, let target):
                aimed(target)
                line.field("text", text)
            case .goto(let chapter, let level):
                line.field("chapter", chapter)
                aimed(nil)
                line.field("level", level)
            case .assistive(let active):
                line.flag("active", active)
                aimed(nil)
            }
            line.field("type", command.wireName)
        }
    }

    private mutating func element(_ element: Element) {
        object { line in
            if !element.actions.isEmpty { line.strings("actions", element.actions) }
            if let hint = element.hint { line.field("hint", hint) }
            line.field("id", element.id)
            line.field("label", element.label)
            if line.stamped.protocolMinor >= 3, let range = element.range {
                line.key("range")
                line.object { line in
                    line.field("count", range.count)
                    line.field("position", range.position)
                }
            }
            if !element.rotors.isEmpty { line.strings("rotors", element.rotors) }
            line.traits(element.traits)
            if let value = element.value { line.field("value", value) }
        }
    }
}

/// What a line says of every event besides the event itself: copied out of the stamped event once,
/// rather than the event (whose payload is mostly references) for each object written.
private struct Envelope {
    var seq = 0
    var replyTo: RequestID?
    var generation = 0
    var game: Int?
    var protocolMinor = 0

    init() {}

    init(_ stamped: StampedEvent) {
        seq = stamped.seq
        replyTo = stamped.replyTo
        generation = stamped.generation
        game = stamped.game
        protocolMinor = stamped.protocolMinor
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
