// SPDX-License-Identifier: Apache-2.0
/// Custom-action levels: objects with actions; solved when every object has its right action, in any
/// order; a complete wrong set resets them.
extension CustomActionPuzzle: LevelKind {
    /// The action chosen on each object so far.
    public typealias State = [Int?]

    /// `customActions`.
    public static var kind: String { "customActions" }
    /// Moving to an object, choosing one of its actions.
    public static var gestures: [Gesture] { [.next, .action, .activate] }

    /// Nothing chosen.
    public func start(using random: inout SeededGenerator) -> State { Array(repeating: nil, count: objects.count) }

    /// The objects, each with its actions and the one chosen as its value.
    public func elements(_ state: State, messages: Messages) -> [Element] {
        objects.indices.map { index in
            let object = objects[index]
            return Element(
                id: object.id,
                label: object.label,
                value: state[index].map { object.actions[$0].name } ?? Self.untouched(object, messages),
                traits: [.button],
                actions: object.actions.map(\.name)
            )
        }
    }

    /// The value of an object no action was chosen for, agreeing with its gender.
    private static func untouched(_ object: Object, _ messages: Messages) -> String {
        switch object.gender {
        case .feminine: messages.noActionYetFeminine ?? messages.noActionYet
        case .masculine, nil: messages.noActionYet
        }
    }

    /// An action on an object is said; the last object's action judges the whole set.
    ///
    /// Activating an object lists its actions.
    public func respond(
        to gesture: PuzzleGesture,
        state: inout State,
        messages: Messages
    ) throws(CommandRefusal) -> PuzzleResponse {
        switch gesture {
        case .activate(let id):
            guard let object = objects.first(where: { $0.id == id }) else { return .nothing }
            let list = object.actions.map(\.name).joined(separator: ", ")
            return .changed(
                said: [Announcement(Messages.format(messages.actionsAvailable, ["list": list]), category: .feedback)]
            )
        case .action(let selector, let id):
            guard let objectIndex = objects.firstIndex(where: { $0.id == id }) else { throw gesture.unsupported }
            let object = objects[objectIndex]
            let actionIndex: Int
            switch selector {
            case .index(let index):
                guard object.actions.indices.contains(index - 1) else {
                    throw CommandRefusal(
                        .invalidParams,
                        .refusalActionIndex,
                        ["count": "\(object.actions.count)"],
                        field: "index"
                    )
                }
                actionIndex = index - 1
            case .name(let name):
                guard let index = object.actions.firstIndex(where: { $0.name == name }) else {
                    throw CommandRefusal(
                        .invalidParams,
                        .refusalNoSuchAction,
                        ["element": id, "name": name],
                        field: "name"
                    )
                }
                actionIndex = index
            }
            state[objectIndex] = actionIndex
            let said = [Announcement(object.actions[actionIndex].result, category: .feedback)]
            guard state.allSatisfy({ $0 != nil }) else { return .changed(said: said) }
            let allRight = objects.indices.allSatisfy { index in
                state[index].map { objects[index].actions[$0].name } == objects[index].correct
            }
            if allRight { return .solved(said: said) }
            state = Array(repeating: nil, count: objects.count)
            return .wrong(feedback: wrong, said: said)
        case .input, .rotor, .rotorItem, .adjust, .magicTap:
            throw gesture.unsupported
        }
    }

    /// Objects with ids, at least two distinct actions each, the right one among them.
    public func problems() -> [KindProblem] {
        var problems: [KindProblem] = []
        if objects.isEmpty { problems.append(KindProblem(".objects", "needs at least one object")) }
        problems += LevelKinds.idProblems(objects.map(\.id), at: ".objects")
        for (index, object) in objects.enumerated() {
            let names = object.actions.map(\.name)
            if names.count < 2 {
                problems.append(KindProblem(".objects[\(index)].actions", "needs at least two actions"))
            }
            if Set(names).count != names.count {
                problems.append(KindProblem(".objects[\(index)].actions", "action names must be different"))
            }
            if !names.contains(object.correct) {
                problems.append(
                    KindProblem(
                        ".objects[\(index)].correct",
                        "\"\(object.correct)\" is not one of the object's actions"
                    )
                )
            }
        }
        return problems
    }

    /// The objects on screen, the actions of each.
    public func sizes() -> [KindSize] {
        [KindSize(".objects", objects.count, "objects", limit: AdventureLimits.choices)]
            + objects.indices.map { index in
                KindSize(
                    ".objects[\(index)].actions",
                    objects[index].actions.count,
                    "actions",
                    limit: AdventureLimits.items
                )
            }
    }

    /// One choice per object, each an action of it.
    public func fits(_ state: State) -> Bool {
        state.count == objects.count
            && zip(state, objects).allSatisfy { choice, object in
                choice.map { object.actions.indices.contains($0) } ?? true
            }
    }
}
