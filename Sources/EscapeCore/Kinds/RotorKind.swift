// SPDX-License-Identifier: Apache-2.0
/// Rotor levels: clues, and a door whose rotors offer codes and read the clues; activating the door
/// tries the code chosen on the codes rotor.
extension RotorPuzzle: LevelKind {
    /// The current rotor (0 codes, 1 clues) and each rotor's current item.
    public struct State: Sendable, Hashable, Codable {
        var current: Int
        var items: [Int?]
    }

    /// `rotor`.
    public static var kind: String { "rotor" }
    /// Turning the rotor, stepping through its items, activating the door.
    public static var gestures: [Gesture] { [.rotor, .rotorItem, .activate] }

    /// The codes rotor, nothing chosen.
    public func start(using random: inout SeededGenerator) -> State { State(current: 0, items: [nil, nil]) }

    /// The clues, then the door with the chosen code as its value.
    public func elements(_ state: State, messages: Messages) -> [Element] {
        // Made in place: the screen is made anew after each turn of the rotor.
        var elements: [Element] = []
        elements.reserveCapacity(clues.count + 1)
        for (index, clue) in clues.enumerated() {
            elements.append(Element(id: "clue-\(index + 1)", label: clue, traits: [.staticText]))
        }
        elements.append(
            Element(
                id: Engine.doorID,
                label: door,
                value: state.items[0].map { codes[$0] },
                traits: [.button],
                rotors: [rotor, clueRotor]
            )
        )
        return elements
    }

    private func entries(_ rotorIndex: Int) -> [String] { rotorIndex == 0 ? codes : clues }

    /// The door's rotors turn and step; activating it tries the chosen code.
    public func respond(
        to gesture: PuzzleGesture,
        state: inout State,
        messages: Messages
    ) throws(CommandRefusal) -> PuzzleResponse {
        switch gesture {
        case .rotor(let direction, Engine.doorID):
            state.current = (state.current + (direction == .next ? 1 : -1) + 2) % 2
            let name = [rotor, clueRotor][state.current]
            return .changed(said: [Announcement(name, priority: .assertive, category: .feedback)])
        case .rotorItem(let direction, Engine.doorID):
            let list = entries(state.current)
            let step = direction == .next ? 1 : -1
            let item =
                state.items[state.current].map { ($0 + step + list.count) % list.count }
                ?? (direction == .next ? 0 : list.count - 1)
            state.items[state.current] = item
            return .changed(said: [Announcement(list[item], priority: .assertive, category: .feedback)])
        case .activate(Engine.doorID):
            guard let chosen = state.items[0] else { return .malformed(messages.chooseCodeFirst) }
            return codes[chosen] == answer ? .solved() : .wrong(feedback: wrong)
        case .activate:
            return .nothing
        case .rotor, .rotorItem, .input, .action, .adjust, .magicTap:
            throw gesture.unsupported
        }
    }

    /// The door's rotor: which one is current and which item it points at.
    public func rotor(_ state: State, element: String) -> RotorState? {
        guard element == Engine.doorID else { return nil }
        let list = entries(state.current)
        let item = state.items[state.current]
        return RotorState(
            element: Engine.doorID,
            rotor: [rotor, clueRotor][state.current],
            rotorIndex: state.current + 1,
            rotorCount: 2,
            item: item.map { list[$0] },
            itemIndex: item.map { $0 + 1 },
            itemCount: list.count
        )
    }

    /// Clues to read, distinct codes, the answer among them.
    public func problems() -> [KindProblem] {
        var problems: [KindProblem] = []
        if clues.isEmpty { problems.append(KindProblem(".clues", "needs at least one clue")) }
        if codes.count < 2 { problems.append(KindProblem(".codes", "needs at least two codes")) }
        if Set(codes).count != codes.count { problems.append(KindProblem(".codes", "codes must be different")) }
        if !codes.contains(answer) { problems.append(KindProblem(".answer", "\"\(answer)\" is not one of the codes")) }
        return problems
    }

    /// The clues on screen, the codes on the rotor.
    public func sizes() -> [KindSize] {
        [
            KindSize(".clues", clues.count, "clues", limit: AdventureLimits.choices),
            KindSize(".codes", codes.count, "codes", limit: AdventureLimits.items),
        ]
    }

    /// Two rotors, items within their lists.
    public func fits(_ state: State) -> Bool {
        (0..<2).contains(state.current) && state.items.count == 2
            && zip(state.items, [codes.count, clues.count]).allSatisfy { item, size in
                item.map { (0..<size).contains($0) } ?? true
            }
    }
}
