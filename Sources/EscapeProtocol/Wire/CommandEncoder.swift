public import EscapeCore
public import EscapeJSON

/// Writes game commands in their wire form, as a client would send them (used for valid actions).
public enum CommandEncoder {
    /// The command as a JSON object, aimed at `element` when one is given.
    ///
    /// - Parameters:
    ///   - command: The gesture.
    ///   - element: The element it acts on; it is focused first.
    /// - Returns: An object a client can send as it is (after filling in `text` for `input`).
    public static func json(_ command: GameCommand, element: String? = nil) -> JSONValue {
        var object: [String: JSONValue]
        switch command {
        case .next: object = ["type": "next"]
        case .previous: object = ["type": "previous"]
        case .first: object = ["type": "first"]
        case .last: object = ["type": "last"]
        case .focus(let target): object = ["type": "focus", "element": .string(target)]
        case .activate(let target):
            object = ["type": "activate"]
            if let target { object["element"] = .string(target) }
        case .rotor(let direction): object = ["type": "rotor", "direction": .string(direction.rawValue)]
        case .rotorItem(let direction): object = ["type": "rotorItem", "direction": .string(direction.rawValue)]
        case .action(.name(let name)): object = ["type": "action", "name": .string(name)]
        case .action(.index(let index)): object = ["type": "action", "index": .int(index)]
        case .adjust(let direction): object = ["type": "adjust", "direction": .string(direction.rawValue)]
        case .input(let text, let target):
            object = ["type": "input", "text": .string(text)]
            if let target { object["element"] = .string(target) }
        case .magicTap: object = ["type": "magicTap"]
        case .escape: object = ["type": "escape"]
        case .hint: object = ["type": "hint"]
        case .menu: object = ["type": "menu"]
        case .goto(let chapter, let level): object = ["type": "goto", "chapter": .int(chapter), "level": .int(level)]
        case .replay: object = ["type": "replay"]
        case .assistive(let active): object = ["type": "assistive", "active": .bool(active)]
        case .repeatAnnouncement: object = ["type": "repeat"]
        }
        if let element, object["element"] == nil { object["element"] = .string(element) }
        return .object(object)
    }
}
