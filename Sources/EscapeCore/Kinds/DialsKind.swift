// SPDX-License-Identifier: Apache-2.0
/// Dials locks: adjustable wheels, each turned up or down to its value; magic tap or the lock's
/// button tries the combination.
extension DialsPuzzle: LevelKind {
    /// Each dial's current value, as an index into its values.
    public typealias State = [Int]

    /// `dials`.
    public static var kind: String { "dials" }
    /// Moving to a dial, adjusting it, trying with magic tap.
    public static var gestures: [Gesture] { [.next, .adjust, .magicTap] }
    /// Magic tap tries the combination.
    public static var magicTapTries: Bool { true }

    /// Every dial at its start.
    public func start(using random: inout SeededGenerator) -> State {
        dials.map { dial in dial.values.firstIndex(of: dial.start) ?? 0 }
    }

    /// The prompt, the dials with their values, the button that tries.
    public func elements(_ state: State, messages: Messages) -> [Element] {
        // Made in place: the screen is made anew after each turn of a dial.
        var elements: [Element] = []
        elements.reserveCapacity(dials.count + 2)
        elements.append(Element(id: Engine.promptID, label: prompt, traits: [.staticText]))
        for (dial, value) in zip(dials, state) {
            elements.append(
                Element(
                    id: dial.id,
                    label: dial.label,
                    value: dial.values[value],
                    traits: [.adjustable],
                    range: ElementRange(position: value + 1, count: dial.values.count)
                )
            )
        }
        elements.append(Element(id: Engine.tryID, label: tryButton, traits: [.button]))
        return elements
    }

    /// Adjusting a dial turns it one step, wrapping, or to its first or last value, and says its value;
    /// trying judges the combination.
    public func respond(
        to gesture: PuzzleGesture,
        state: inout State,
        messages: Messages
    ) throws(CommandRefusal) -> PuzzleResponse {
        switch gesture {
        case .adjust(let direction, let id):
            guard let index = dials.firstIndex(where: { $0.id == id }) else { throw gesture.unsupported }
            let count = dials[index].values.count
            switch direction {
            case .increment: state[index] = (state[index] + 1) % count
            case .decrement: state[index] = (state[index] + count - 1) % count
            case .first: state[index] = 0
            case .last: state[index] = count - 1
            }
            return .changed(
                sounds: [.dial],
                said: [Announcement(dials[index].values[state[index]], category: .feedback)]
            )
        case .activate(Engine.tryID), .magicTap:
            let chosen = zip(dials, state).map { dial, value in dial.values[value] }
            return chosen == combination ? .solved() : .wrong(feedback: wrong)
        case .activate:
            return .nothing
        case .input, .rotor, .rotorItem, .action:
            throw gesture.unsupported
        }
    }

    /// Dials with distinct values, a start and a combination among them, not open already.
    public func problems() -> [KindProblem] {
        var problems: [KindProblem] = []
        if dials.isEmpty { problems.append(KindProblem(".dials", "needs at least one dial")) }
        problems += LevelKinds.idProblems(dials.map(\.id), at: ".dials")
        if combination.count != dials.count {
            problems.append(
                KindProblem(".combination", "has \(combination.count) values for \(dials.count) dials")
            )
        }
        for (index, dial) in dials.enumerated() {
            if dial.values.count < 2 {
                problems.append(KindProblem(".dials[\(index)].values", "needs at least two values"))
            }
            if Set(dial.values).count != dial.values.count {
                problems.append(KindProblem(".dials[\(index)].values", "values must be different"))
            }
            if !dial.values.contains(dial.start) {
                problems.append(KindProblem(".dials[\(index)].start", "\"\(dial.start)\" is not one of the values"))
            }
            if index < combination.count && !dial.values.contains(combination[index]) {
                problems.append(
                    KindProblem(
                        ".combination[\(index)]",
                        "\"\(combination[index])\" is not one of dial \(dial.id)'s values"
                    )
                )
            }
        }
        if dials.map(\.start) == combination {
            problems.append(
                KindProblem(".combination", "the dials start at the combination, so the lock opens untouched")
            )
        }
        return problems
    }

    /// The dials on screen, the values of each.
    public func sizes() -> [KindSize] {
        [KindSize(".dials", dials.count, "dials", limit: AdventureLimits.dials)]
            + dials.indices.map { index in
                KindSize(".dials[\(index)].values", dials[index].values.count, "values", limit: AdventureLimits.items)
            }
    }

    /// One value per dial, within its values.
    public func fits(_ state: State) -> Bool {
        state.count == dials.count
            && zip(state, dials).allSatisfy { value, dial in dial.values.indices.contains(value) }
    }
}
