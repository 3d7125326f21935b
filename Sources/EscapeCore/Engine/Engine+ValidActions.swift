// SPDX-License-Identifier: Apache-2.0
/// One thing a player can do now: the command, the element it acts on, and what it is in words.
public struct ValidAction: Sendable, Hashable {
    /// The element the command acts on (it is focused first), or `nil` for a screen-wide gesture.
    public var element: String?
    /// The command.
    public var command: GameCommand
    /// What it does, in the screen's words.
    public var label: String
    /// Whether the command needs text from the player (`input`: its `text` is to be filled in).
    public var needsText: Bool

    /// Creates an action.
    public init(element: String?, command: GameCommand, label: String, needsText: Bool = false) {
        self.element = element
        self.command = command
        self.label = label
        self.needsText = needsText
    }
}

extension Engine {
    /// Everything a player can do on the screen on show: the same gestures a screen-reader or Braille
    /// player has, each aimed at its element, so a bot explores the paths people use.
    ///
    /// The labels of generated gestures (adjusting, rotors, custom actions) are in ``words``.
    public var validActions: [ValidAction] {
        let screen = screen
        let words = self.words
        var actions: [ValidAction] = []
        for element in screen.elements where !element.traits.contains(.notEnabled) {
            let id = element.id
            if element.traits.contains(.textField) {
                actions.append(
                    ValidAction(
                        element: id,
                        command: .input(text: "", element: id),
                        label: element.label,
                        needsText: true
                    )
                )
                actions.append(ValidAction(element: id, command: .activate(element: id), label: element.label))
            } else if element.traits.contains(.button) {
                actions.append(ValidAction(element: id, command: .activate(element: id), label: element.label))
            }
            if element.traits.contains(.adjustable) {
                // One step each way: the action space every protocol version's bots know.
                for direction in AdjustDirection.steps {
                    let key: EngineWords.Key = direction == .increment ? .labelIncrement : .labelDecrement
                    actions.append(
                        ValidAction(
                            element: id,
                            command: .adjust(direction),
                            label: words(key, ["element": element.label])
                        )
                    )
                }
            }
            if !element.rotors.isEmpty {
                for direction in Direction.allCases {
                    let (rotor, item): (EngineWords.Key, EngineWords.Key) =
                        switch direction {
                        case .next: (.labelRotorNext, .labelRotorItemNext)
                        case .previous: (.labelRotorPrevious, .labelRotorItemPrevious)
                        }
                    actions.append(ValidAction(element: id, command: .rotor(direction), label: words(rotor)))
                    actions.append(ValidAction(element: id, command: .rotorItem(direction), label: words(item)))
                }
            }
            for name in element.actions {
                actions.append(
                    ValidAction(
                        element: id,
                        command: .action(.name(name)),
                        label: words(.labelAction, ["element": element.label, "action": name])
                    )
                )
            }
        }
        if let magicTap = screen.magicTap {
            actions.append(ValidAction(element: nil, command: .magicTap, label: magicTap.label))
        }
        if let escape = screen.escape {
            actions.append(ValidAction(element: nil, command: .escape, label: escape.label))
        }
        if screen.kind == .level {
            actions.append(ValidAction(element: nil, command: .hint, label: adventure.messages.hintGesture))
        }
        return actions
    }
}
