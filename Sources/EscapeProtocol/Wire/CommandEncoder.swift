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
        var writer = JSONValueWriter()
        command.write(aimedAt: element, to: &writer)
        return writer.value
    }
}

extension GameCommand {
    /// Writes the command's object, keys sorted, with `element` when the command or `element` names one
    /// (the command's own element first).
    func write<Writer: WireWriter & ~Copyable>(aimedAt element: String?, to writer: inout Writer) {
        writer.object { writer in
            func aimed(_ target: String?) {
                if let target = target ?? element { writer.member("element", target) }
            }
            switch self {
            case .next, .previous, .first, .last, .magicTap, .escape, .hint, .menu, .replay, .repeatAnnouncement:
                aimed(nil)
            case .focus(let target):
                writer.member("element", target)
            case .activate(let target):
                aimed(target)
            case .rotor(let direction), .rotorItem(let direction):
                writer.member("direction", direction.rawValue)
                aimed(nil)
            case .action(.name(let name)):
                aimed(nil)
                writer.member("name", name)
            case .action(.index(let index)):
                aimed(nil)
                writer.member("index", index)
            case .adjust(let direction):
                writer.member("direction", direction.rawValue)
                aimed(nil)
            case .input(let text, let target):
                aimed(target)
                writer.member("text", text)
            case .goto(let chapter, let level):
                writer.member("chapter", chapter)
                aimed(nil)
                writer.member("level", level)
            case .assistive(let active):
                writer.member("active", active)
                aimed(nil)
            }
            writer.member("type", wireName)
        }
    }
}
