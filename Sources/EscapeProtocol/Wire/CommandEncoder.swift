// SPDX-License-Identifier: Apache-2.0
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
        var object: [String: JSONValue] = ["type": .string(command.wireName)]
        switch command {
        case .next, .previous, .first, .last, .magicTap, .escape, .hint, .menu, .replay, .repeatAnnouncement: break
        case .focus(let target): object["element"] = .string(target)
        case .activate(let target): if let target { object["element"] = .string(target) }
        case .rotor(let direction), .rotorItem(let direction): object["direction"] = .string(direction.rawValue)
        case .action(.name(let name)): object["name"] = .string(name)
        case .action(.index(let index)): object["index"] = .int(index)
        case .adjust(let direction): object["direction"] = .string(direction.rawValue)
        case .input(let text, let target):
            object["text"] = .string(text)
            if let target { object["element"] = .string(target) }
        case .goto(let chapter, let level):
            object["chapter"] = .int(chapter)
            object["level"] = .int(level)
        case .assistive(let active): object["active"] = .bool(active)
        }
        if let element, object["element"] == nil { object["element"] = .string(element) }
        return .object(object)
    }
}
