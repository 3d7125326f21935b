// SPDX-License-Identifier: Apache-2.0
/// What the player has done on the level being played.
struct LevelState: Hashable, Sendable, Codable {
    /// When the player arrived, for hint timing.
    var enteredAt: Int64
    /// How many hints the player has heard.
    var hintsHeard = 0
    /// How many unlocked hints the player has been told about.
    var hintsNoticed = 0
    /// How many hints were unlocked when the torch went out.
    ///
    /// They stay unlocked once it is relit, and the next ones unlock from there. `nil` (none) is left
    /// out of snapshots, which stay as they were.
    var hintsKept: Int?
    /// How many of the timed level's time announcements have been made.
    var timeAnnounced = 0
    /// Whether the level's clock runs (it has a time limit and time pressure is on).
    var timed = false
    /// The puzzle's own state.
    var puzzle: PuzzleState

    /// The state without the hint and clock bookkeeping: what gestures act on.
    var gestureView: LevelState {
        var view = self
        view.enteredAt = 0
        view.hintsHeard = 0
        view.hintsNoticed = 0
        view.hintsKept = nil
        view.timeAnnounced = 0
        return view
    }
}

extension Engine {
    /// A fresh state for the level at `position`, from its kind: closed answers are shuffled the first
    /// time the level is entered, and keep that order (kept in the progress, so in the save) after.
    mutating func makeLevelState(at position: LevelPosition, now: Int64) -> LevelState {
        let level = level(at: position)
        var levelState = LevelState(enteredAt: now, puzzle: startState(of: level.puzzle.content, level: level.id))
        levelState.timed = timePressure && level.timeLimit != nil
        return levelState
    }

    /// Lets chance decide the layout of the level at `position` now, when it has none yet: for the
    /// first level of the next chapter, so the save written on solving the last one holds it.
    mutating func settleLayout(at position: LevelPosition) {
        let level = level(at: position)
        _ = startState(of: level.puzzle.content, level: level.id)
    }

    private mutating func startState<Kind: LevelKind>(of content: Kind, level id: String) -> PuzzleState {
        if let layout = state.progress.answerOrders[id], let kept = content.start(from: layout) {
            return PuzzleState(kind: Kind.kind, value: kept)
        }
        let fresh = content.start(using: &state.rng)
        state.progress.answerOrders[id] = content.layout(of: fresh)
        return PuzzleState(kind: Kind.kind, value: fresh)
    }

    /// Hands a gesture to the kind of the level on show and turns its response into effects.
    mutating func levelGesture(_ gesture: PuzzleGesture, now: Int64) throws(CommandRefusal) -> [Effect] {
        guard case .level(let position, var levelState) = top.place else { throw gesture.unsupported }
        // The level's parts read where they are, not the level copied out whole for each gesture.
        let levels = adventure.chapters[position.chapter].levels
        let response = try respond(levels[position.level].puzzle.content, to: gesture, levelState: &levelState)
        replaceTop(.level(position, levelState))
        // One array, with room for what settling the command adds (a changed element, the focus):
        // not one per part, joined.
        var effects: [Effect] = []
        effects.reserveCapacity(8)
        switch response {
        case .solved(let said):
            for announcement in said { effects.append(.event(.announce(announcement))) }
            effects += solve(at: position, now: now)
        case .wrong(let feedback, let said):
            for announcement in said { effects.append(.event(.announce(announcement))) }
            effects += wrong(levels[position.level].id, feedback: feedback)
        case .malformed(let message):
            effects.append(.event(.result(AnswerResult(outcome: .malformed, level: levels[position.level].id))))
            effects.append(.event(.announce(Announcement(message, category: .feedback))))
        case .changed(let sounds, let said):
            for sound in sounds { effects.append(.event(.sound(sound))) }
            switch gesture {
            case .rotor, .rotorItem:
                if let rotor { effects.append(.event(.rotor(rotor))) }
            case .activate, .input, .action, .adjust, .magicTap:
                break
            }
            for announcement in said { effects.append(.event(.announce(announcement))) }
        case .nothing:
            effects.append(
                .event(.announce(Announcement(adventure.messages.nothingToActivate, category: .feedback)))
            )
        }
        return effects
    }

    private func respond<Kind: LevelKind>(
        _ content: Kind,
        to gesture: PuzzleGesture,
        levelState: inout LevelState
    ) throws(CommandRefusal) -> PuzzleResponse {
        guard var kindState = levelState.puzzle.value as? Kind.State else {
            preconditionFailure("a level's state always matches its kind")
        }
        let response = try content.respond(to: gesture, state: &kindState, messages: adventure.messages)
        levelState.puzzle = PuzzleState(kind: Kind.kind, value: kindState)
        return response
    }

    /// The elements a level's kind puts on screen after the title and the story.
    func kindElements(_ puzzle: Puzzle, _ puzzleState: PuzzleState) -> [Element] {
        elements(of: puzzle.content, puzzleState)
    }

    private func elements<Kind: LevelKind>(of content: Kind, _ puzzleState: PuzzleState) -> [Element] {
        guard let kindState = puzzleState.value as? Kind.State else {
            preconditionFailure("a level's state always matches its kind")
        }
        return content.elements(kindState, messages: adventure.messages)
    }

    /// The rotor of `element` on the level on show, from its kind.
    func kindRotor(element: String) -> RotorState? {
        guard case .level(let position, let levelState) = top.place else { return nil }
        return rotor(of: level(at: position).puzzle.content, levelState.puzzle, element: element)
    }

    private func rotor<Kind: LevelKind>(of content: Kind, _ puzzleState: PuzzleState, element: String) -> RotorState? {
        (puzzleState.value as? Kind.State).flatMap { content.rotor($0, element: element) }
    }

    /// Whether a restored state fits a level's kind.
    func kindFits(_ puzzleState: PuzzleState, _ puzzle: Puzzle) -> Bool {
        fits(puzzle.content, puzzleState)
    }

    private func fits<Kind: LevelKind>(_ content: Kind, _ puzzleState: PuzzleState) -> Bool {
        guard puzzleState.kind == Kind.kind, let kindState = puzzleState.value as? Kind.State else { return false }
        return content.fits(kindState)
    }

    private func wrong(_ level: String, feedback: String) -> [Effect] {
        [
            .event(.result(AnswerResult(outcome: .wrong, level: level))),
            .event(.sound(.wrong)),
            .event(.announce(Announcement(feedback, priority: .assertive, category: .feedback))),
        ]
    }

    /// Marks the level solved, saves, and moves on to the next level, chapter or the end.
    private mutating func solve(at position: LevelPosition, now: Int64) -> [Effect] {
        let level = level(at: position)
        state.progress.completed.insert(level.id)
        let next = self.position(after: position)
        state.progress.current = next
        var opensChapter = false
        if let next {
            if next.chapter != position.chapter {
                settleLayout(at: next)
                enter(.chapter(next.chapter))
                opensChapter = true
            } else {
                enter(.level(next, makeLevelState(at: next, now: now)))
            }
        } else {
            enter(.end)
        }
        // Saved once the next level's layout is settled, so a resume shows it as it is now.
        var effects: [Effect] = [
            .event(.result(AnswerResult(outcome: .correct, level: level.id))),
            .event(.sound(.solved)),
            .event(.announce(Announcement(level.solved, priority: .assertive, category: .feedback))),
            .save(state.progress),
        ]
        if opensChapter { effects.append(.event(.sound(.chapter))) }
        return effects
    }
}
