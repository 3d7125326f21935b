// SPDX-License-Identifier: Apache-2.0
/// Open questions: a question and a text field; activating the field submits what was typed.
extension OpenQuestion: LevelKind {
    /// The text typed into the field.
    public typealias State = String

    /// `openQuestion`.
    public static var kind: String { "openQuestion" }
    /// Moving to the field and activating it (typing goes without saying).
    public static var gestures: [Gesture] { [.next, .activate] }

    /// An empty field.
    public func start(using random: inout SeededGenerator) -> State { "" }

    /// The question and the field with its text.
    public func elements(_ state: State, messages: Messages) -> [Element] {
        [
            Element(id: Engine.questionID, label: question, traits: [.staticText]),
            Element(id: Engine.answerFieldID, label: field, value: state, traits: [.textField]),
        ]
    }

    /// Typing sets the field's text (and is echoed); activating the field judges it, ignoring case,
    /// accents, width, punctuation and surrounding blanks.
    public func respond(
        to gesture: PuzzleGesture,
        state: inout State,
        messages: Messages
    ) throws(CommandRefusal) -> PuzzleResponse {
        switch gesture {
        case .input(let text, Engine.answerFieldID):
            state = text
            return .changed(said: [Announcement(text, category: .echo)])
        case .activate(Engine.answerFieldID):
            let typed = Engine.normalizedAnswer(state)
            guard !typed.isEmpty else { return .malformed(messages.typeFirst) }
            if accepted.contains(where: { Engine.normalizedAnswer($0) == typed }) { return .solved() }
            return .wrong(feedback: wrong)
        case .activate:
            return .nothing
        case .input, .rotor, .rotorItem, .action, .adjust, .magicTap:
            throw gesture.unsupported
        }
    }

    /// At least one accepted answer, each with something to type.
    public func problems() -> [KindProblem] {
        var problems: [KindProblem] = []
        if accepted.isEmpty { problems.append(KindProblem(".accepted", "needs at least one accepted answer")) }
        for (index, answer) in accepted.enumerated() where Engine.normalizedAnswer(answer).isEmpty {
            problems.append(
                KindProblem(".accepted[\(index)]", "has no letters or digits, so no typed answer can match it")
            )
        }
        return problems
    }

    /// The accepted answers.
    public func sizes() -> [KindSize] {
        [KindSize(".accepted", accepted.count, "accepted answers", limit: AdventureLimits.items)]
    }

    /// Any text within the input limit.
    public func fits(_ state: State) -> Bool { state.count <= 1000 }
}
