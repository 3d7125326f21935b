// SPDX-License-Identifier: Apache-2.0
/// Closed questions: a question and answer buttons, shuffled; activating the right one solves it.
extension ClosedQuestion: LevelKind {
    /// The answers' order on screen, as indices into ``answers``.
    public typealias State = [Int]

    /// `closedQuestion`.
    public static var kind: String { "closedQuestion" }
    /// Moving through the answers and activating one.
    public static var gestures: [Gesture] { [.next, .previous, .activate] }

    /// Shuffles the answers with the game's generator.
    public func start(using random: inout SeededGenerator) -> State {
        var order = Array(answers.indices)
        // Fisher-Yates written out, so the order never depends on the standard library's algorithm.
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            let other = Int(random.next() % UInt64(index + 1))
            order.swapAt(index, other)
        }
        return order
    }

    /// The answers' ids in their shuffled order.
    public func layout(of state: State) -> [String]? {
        state.map { answers[$0].id }
    }

    /// The order `layout` names, when it names every answer once.
    public func start(from layout: [String]) -> State? {
        let order = layout.compactMap { id in answers.firstIndex { $0.id == id } }
        guard order.count == answers.count, Set(order).count == answers.count else { return nil }
        return order
    }

    /// The question, then the answers in their shuffled order.
    public func elements(_ state: State, messages: Messages) -> [Element] {
        [Element(id: Engine.questionID, label: question, traits: [.staticText])]
            + state.map { index in Element(id: answers[index].id, label: answers[index].label, traits: [.button]) }
    }

    /// Activating an answer judges it.
    public func respond(
        to gesture: PuzzleGesture,
        state: inout State,
        messages: Messages
    ) throws(CommandRefusal) -> PuzzleResponse {
        guard case .activate(let id) = gesture else { throw gesture.unsupported }
        guard let answer = answers.first(where: { $0.id == id }) else { return .nothing }
        return answer.correct == true ? .solved() : .wrong(feedback: answer.feedback ?? wrong)
    }

    /// At least two answers, exactly one right, ids usable as element ids.
    public func problems() -> [KindProblem] {
        var problems: [KindProblem] = []
        if answers.count < 2 { problems.append(KindProblem(".answers", "needs at least two answers")) }
        if answers.filter({ $0.correct == true }).count != 1 {
            problems.append(KindProblem(".answers", "exactly one answer must have \"correct\": true"))
        }
        return problems + LevelKinds.idProblems(answers.map(\.id), at: ".answers")
    }

    /// The answers, all on one screen.
    public func sizes() -> [KindSize] {
        [KindSize(".answers", answers.count, "answers", limit: AdventureLimits.choices)]
    }

    /// A permutation of the answers.
    public func fits(_ state: State) -> Bool { state.sorted() == Array(answers.indices) }
}

extension PuzzleGesture {
    /// The refusal for a gesture a kind does not take.
    public var unsupported: CommandRefusal {
        switch self {
        case .activate: CommandRefusal(.notNow, .refusalNothingToActivate)
        case .input: CommandRefusal(.notNow, .refusalNotTextField)
        case .rotor, .rotorItem: CommandRefusal(.notNow, .refusalNoRotor)
        case .action: CommandRefusal(.notNow, .refusalNoActions)
        case .adjust: CommandRefusal(.notNow, .refusalNotAdjustable)
        case .magicTap: CommandRefusal(.notNow, .refusalMagicTap)
        }
    }
}
