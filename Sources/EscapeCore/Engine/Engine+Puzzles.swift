/// What the player has done on the level being played.
struct LevelState: Hashable, Sendable, Codable {
    /// When the player arrived, for hint timing.
    var enteredAt: Int64
    /// How many hints the player has heard.
    var hintsHeard = 0
    /// How many unlocked hints the player has been told about.
    var hintsNoticed = 0
    /// How many of the timed level's time announcements have been made.
    var timeAnnounced = 0
    /// Whether the level's clock runs (it has a time limit and time pressure is on).
    var timed = false
    /// The puzzle's own state.
    var puzzle: PuzzleState
}

/// The state of each kind of puzzle.
enum PuzzleState: Hashable, Sendable, Codable {
    /// The answers' order on screen, as indices into the content's answers.
    case closed(order: [Int])
    /// The text typed into the field.
    case open(text: String)
    /// The current rotor (0 codes, 1 clues) and each rotor's current item.
    case rotor(current: Int, items: [Int?])
    /// The action chosen on each object so far.
    case custom(choices: [Int?])
    /// Each dial's current value, as an index into its values.
    case dials(values: [Int])
}

extension Engine {
    /// A fresh state for the level at `position`; closed answers are shuffled here.
    mutating func makeLevelState(at position: LevelPosition, now: Int64) -> LevelState {
        let puzzle: PuzzleState
        switch level(at: position).puzzle {
        case .closedQuestion(let question):
            var order = Array(question.answers.indices)
            // Fisher-Yates written out, so the order never depends on the standard library's algorithm.
            for index in stride(from: order.count - 1, to: 0, by: -1) {
                let other = Int(state.rng.next() % UInt64(index + 1))
                order.swapAt(index, other)
            }
            puzzle = .closed(order: order)
        case .openQuestion:
            puzzle = .open(text: "")
        case .rotor:
            puzzle = .rotor(current: 0, items: [nil, nil])
        case .customActions(let actionPuzzle):
            puzzle = .custom(choices: Array(repeating: nil, count: actionPuzzle.objects.count))
        case .dials(let lock):
            puzzle = .dials(values: lock.dials.map { dial in dial.values.firstIndex(of: dial.start) ?? 0 })
        }
        var levelState = LevelState(enteredAt: now, puzzle: puzzle)
        levelState.timed = timePressure && level(at: position).timeLimit != nil
        return levelState
    }

    var currentRotorPuzzle: RotorPuzzle? {
        guard case .level(let position, _) = top.place, case .rotor(let puzzle) = level(at: position).puzzle else {
            return nil
        }
        return puzzle
    }

    mutating func activateInLevel(
        _ id: String,
        position: LevelPosition,
        levelState: LevelState,
        now: Int64
    ) -> [Effect] {
        let level = level(at: position)
        switch (level.puzzle, levelState.puzzle) {
        case (.closedQuestion(let question), .closed):
            guard let answer = question.answers.first(where: { $0.id == id }) else { break }
            if answer.correct == true { return solve(at: position, now: now) }
            return wrong(level, feedback: answer.feedback ?? question.wrong)
        case (.openQuestion(let question), .open(let text)):
            guard id == Self.answerFieldID else { break }
            let typed = Self.normalizedAnswer(text)
            guard !typed.isEmpty else {
                return [
                    .event(.result(AnswerResult(outcome: .malformed, level: level.id))),
                    .event(.announce(Announcement(adventure.messages.typeFirst, category: .feedback))),
                ]
            }
            if question.accepted.contains(where: { Self.normalizedAnswer($0) == typed }) {
                return solve(at: position, now: now)
            }
            return wrong(level, feedback: question.wrong)
        case (.rotor(let puzzle), .rotor(_, let items)):
            guard id == Self.doorID else { break }
            guard let chosen = items[0] else {
                return [
                    .event(.result(AnswerResult(outcome: .malformed, level: level.id))),
                    .event(.announce(Announcement(adventure.messages.chooseCodeFirst, category: .feedback))),
                ]
            }
            if puzzle.codes[chosen] == puzzle.answer { return solve(at: position, now: now) }
            return wrong(level, feedback: puzzle.wrong)
        case (.customActions(let puzzle), .custom):
            guard let object = puzzle.objects.first(where: { $0.id == id }) else { break }
            let list = object.actions.map(\.name).joined(separator: ", ")
            return [
                .event(
                    .announce(
                        Announcement(
                            Messages.format(adventure.messages.actionsAvailable, ["list": list]),
                            category: .feedback
                        )
                    )
                )
            ]
        case (.dials, .dials):
            guard id == Self.tryID else { break }
            return tryCombination(now: now)
        case (.closedQuestion, _), (.openQuestion, _), (.rotor, _), (.customActions, _), (.dials, _):
            preconditionFailure("a level's state always matches its puzzle")
        }
        return [.event(.announce(Announcement(adventure.messages.nothingToActivate, category: .feedback)))]
    }

    mutating func input(_ text: String) throws(CommandRefusal) -> [Effect] {
        guard focus.element.traits.contains(.textField), case .level(let position, var levelState) = top.place else {
            throw CommandRefusal(.notNow, "the focused element is not a text field")
        }
        levelState.puzzle = .open(text: text)
        replaceTop(.level(position, levelState))
        return [.event(.announce(Announcement(text, category: .echo)))]
    }

    mutating func turnRotor(_ direction: Direction) throws(CommandRefusal) -> [Effect] {
        guard case .level(let position, var levelState) = top.place,
            case .rotor(let current, let items) = levelState.puzzle,
            let puzzle = currentRotorPuzzle, focus.element.id == Self.doorID
        else { throw CommandRefusal(.notNow, "the focused element has no rotor") }
        let next = (current + (direction == .next ? 1 : -1) + items.count) % items.count
        levelState.puzzle = .rotor(current: next, items: items)
        replaceTop(.level(position, levelState))
        let name = [puzzle.rotor, puzzle.clueRotor][next]
        return rotorEffects(announcing: name)
    }

    mutating func stepRotorItem(_ direction: Direction) throws(CommandRefusal) -> [Effect] {
        guard case .level(let position, var levelState) = top.place,
            case .rotor(let current, var items) = levelState.puzzle,
            let puzzle = currentRotorPuzzle, focus.element.id == Self.doorID
        else { throw CommandRefusal(.notNow, "the focused element has no rotor") }
        let entries = current == 0 ? puzzle.codes : puzzle.clues
        let step = direction == .next ? 1 : -1
        let item =
            items[current].map { ($0 + step + entries.count) % entries.count }
            ?? (direction == .next ? 0 : entries.count - 1)
        items[current] = item
        levelState.puzzle = .rotor(current: current, items: items)
        replaceTop(.level(position, levelState))
        return rotorEffects(announcing: entries[item])
    }

    private func rotorEffects(announcing text: String) -> [Effect] {
        var effects: [Effect] = []
        if let rotor { effects.append(.event(.rotor(rotor))) }
        effects.append(.event(.announce(Announcement(text, priority: .assertive, category: .feedback))))
        return effects
    }

    mutating func performAction(_ selector: ActionSelector, now: Int64) throws(CommandRefusal) -> [Effect] {
        let element = focus.element
        guard !element.actions.isEmpty, case .level(let position, var levelState) = top.place,
            case .customActions(let puzzle) = level(at: position).puzzle,
            case .custom(var choices) = levelState.puzzle,
            let objectIndex = puzzle.objects.firstIndex(where: { $0.id == element.id })
        else { throw CommandRefusal(.notNow, "the focused element has no custom actions") }
        let object = puzzle.objects[objectIndex]
        let actionIndex: Int
        switch selector {
        case .index(let index):
            guard object.actions.indices.contains(index - 1) else {
                throw CommandRefusal(
                    .invalidParams,
                    "index must be between 1 and \(object.actions.count)",
                    field: "index"
                )
            }
            actionIndex = index - 1
        case .name(let name):
            guard let index = object.actions.firstIndex(where: { $0.name == name }) else {
                throw CommandRefusal(.invalidParams, "\(element.id) has no action \"\(name)\"", field: "name")
            }
            actionIndex = index
        }
        choices[objectIndex] = actionIndex
        var effects: [Effect] = [
            .event(.announce(Announcement(object.actions[actionIndex].result, category: .feedback)))
        ]
        guard choices.allSatisfy({ $0 != nil }) else {
            levelState.puzzle = .custom(choices: choices)
            replaceTop(.level(position, levelState))
            return effects
        }
        let allRight = puzzle.objects.indices.allSatisfy { index in
            choices[index].map { puzzle.objects[index].actions[$0].name } == puzzle.objects[index].correct
        }
        if allRight {
            return effects + solve(at: position, now: now)
        }
        levelState.puzzle = .custom(choices: Array(repeating: nil, count: choices.count))
        replaceTop(.level(position, levelState))
        effects += wrong(level(at: position), feedback: puzzle.wrong)
        return effects
    }

    private func wrong(_ level: Level, feedback: String) -> [Effect] {
        [
            .event(.result(AnswerResult(outcome: .wrong, level: level.id))),
            .event(.sound("wrong")),
            .event(.announce(Announcement(feedback, priority: .assertive, category: .feedback))),
        ]
    }

    /// Marks the level solved, saves, and moves on to the next level, chapter or the end.
    private mutating func solve(at position: LevelPosition, now: Int64) -> [Effect] {
        let level = level(at: position)
        state.progress.completed.insert(level.id)
        let next = self.position(after: position)
        state.progress.current = next
        var effects: [Effect] = [
            .event(.result(AnswerResult(outcome: .correct, level: level.id))),
            .event(.sound("solved")),
            .event(.announce(Announcement(level.solved, priority: .assertive, category: .feedback))),
            .save(state.progress),
        ]
        if let next {
            if next.chapter != position.chapter {
                enter(.chapter(next.chapter))
                effects.append(.event(.sound("chapter")))
            } else {
                enter(.level(next, makeLevelState(at: next, now: now)))
            }
        } else {
            enter(.end)
        }
        return effects
    }
}

// MARK: - Dials

extension Engine {
    /// Turns the focused dial one step up or down, wrapping around, and says its new value.
    mutating func adjust(_ direction: AdjustDirection) throws(CommandRefusal) -> [Effect] {
        guard case .level(let position, var levelState) = top.place, case .dials(let lock) = level(at: position).puzzle,
            case .dials(var values) = levelState.puzzle,
            let index = lock.dials.firstIndex(where: { $0.id == focus.element.id })
        else { throw CommandRefusal(.notNow, "the focused element is not adjustable") }
        let count = lock.dials[index].values.count
        values[index] = (values[index] + (direction == .increment ? 1 : count - 1)) % count
        levelState.puzzle = .dials(values: values)
        replaceTop(.level(position, levelState))
        let value = lock.dials[index].values[values[index]]
        return [.event(.sound("dial")), .event(.announce(Announcement(value, category: .feedback)))]
    }

    /// Tries the dials' combination: the level is solved, or the lock says no and stays as it is.
    mutating func tryCombination(now: Int64) -> [Effect] {
        guard case .level(let position, let levelState) = top.place, case .dials(let lock) = level(at: position).puzzle,
            case .dials(let values) = levelState.puzzle
        else { return [] }
        let chosen = zip(lock.dials, values).map { dial, value in dial.values[value] }
        if chosen == lock.combination { return solve(at: position, now: now) }
        return wrong(level(at: position), feedback: lock.wrong)
    }
}
