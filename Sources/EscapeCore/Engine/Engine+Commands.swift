// SPDX-License-Identifier: Apache-2.0
extension Engine {
    /// Carries out one command on the state; `apply` undoes it if this throws.
    mutating func perform(_ command: GameCommand, now: Int64) throws(CommandRefusal) -> [Effect] {
        if case .assistive = top.place {
            switch command {
            case .next, .previous, .first, .last, .focus, .activate, .assistive, .repeatAnnouncement:
                break
            case .rotor, .rotorItem, .action, .adjust, .input, .magicTap, .escape, .hint, .menu, .goto, .replay:
                throw CommandRefusal(.notNow, .refusalAssistiveFirst)
            }
        }
        switch command {
        case .next:
            return moveFocus(to: top.focus + 1)
        case .previous:
            return moveFocus(to: top.focus - 1)
        case .first:
            setFocus(0)
            return []
        case .last:
            setFocus(screen.elements.count - 1)
            return []
        case .focus(let id):
            try focusElement(id)
            return []
        case .activate(let id):
            if let id { try focusElement(id) }
            return try activateFocused(now: now)
        case .rotor(let direction):
            return try levelGesture(.rotor(direction, element: focus.element.id), now: now)
        case .rotorItem(let direction):
            return try levelGesture(.rotorItem(direction, element: focus.element.id), now: now)
        case .action(let selector):
            return try levelGesture(.action(selector, element: focus.element.id), now: now)
        case .adjust(let direction):
            return try levelGesture(.adjust(direction, element: focus.element.id), now: now)
        case .input(let text, let id):
            if let id { try focusElement(id) }
            return try levelGesture(.input(text: text, element: focus.element.id), now: now)
        case .magicTap:
            guard let gesture = screen.magicTap else { throw CommandRefusal(.notNow, .refusalMagicTap) }
            return try gestureAction(gesture.action, now: now)
        case .escape:
            guard let gesture = screen.escape else { throw CommandRefusal(.notNow, .refusalEscape) }
            return try gestureAction(gesture.action, now: now)
        case .hint:
            return hint(now: now)
        case .menu:
            return try openMenu(now: now)
        case .goto(let chapter, let level):
            return try goto(chapter: chapter, level: level, now: now)
        case .replay:
            return replay()
        case .assistive(let active):
            return assistive(active: active, now: now)
        case .repeatAnnouncement:
            guard let lastAnnouncement else { throw CommandRefusal(.notNow, .refusalNothingAnnounced) }
            return [.event(.announce(lastAnnouncement))]
        }
    }

    private mutating func moveFocus(to index: Int) -> [Effect] {
        guard screen.elements.indices.contains(index) else { return [.event(.sound(.boundary))] }
        setFocus(index)
        return []
    }

    private mutating func focusElement(_ id: String) throws(CommandRefusal) {
        guard let index = screen.elements.firstIndex(where: { $0.id == id }) else {
            throw CommandRefusal(
                .invalidParams,
                .refusalNoElement,
                ["element": id, "screen": screen.id],
                field: "element"
            )
        }
        setFocus(index)
    }

    private mutating func activateFocused(now: Int64) throws(CommandRefusal) -> [Effect] {
        let id = focus.element.id
        switch top.place {
        case .intro(let page):
            guard id == Self.continueID else { return nothingToActivate() }
            return continueIntro(from: page)
        case .chapter(let index):
            guard id == Self.beginID else { return nothingToActivate() }
            return begin(chapter: index, now: now)
        case .level:
            return try levelGesture(.activate(element: id), now: now)
        case .menu:
            if id == Self.backID {
                pop(now: now)
                return []
            }
            guard id.hasPrefix(Self.menuLevelPrefix),
                let position = allPositions.first(where: { Self.menuLevelPrefix + level(at: $0).id == id })
            else { return nothingToActivate() }
            guard isUnlocked(position) else {
                return [
                    .event(.sound(.locked)),
                    .event(.announce(Announcement(adventure.messages.levelLocked, category: .feedback))),
                ]
            }
            enter(.level(position, makeLevelState(at: position, now: now)))
            return []
        case .assistive:
            guard id == Self.resumeID else { return nothingToActivate() }
            return assistive(active: true, now: now)
        case .end:
            guard id == Self.replayID else { return nothingToActivate() }
            return replay()
        }
    }

    private func nothingToActivate() -> [Effect] {
        [.event(.announce(Announcement(adventure.messages.nothingToActivate, category: .feedback)))]
    }

    private mutating func continueIntro(from page: Int) -> [Effect] {
        if page + 1 < adventure.intro.count {
            enter(.intro(page: page + 1))
        } else {
            enter(.chapter(state.progress.current?.chapter ?? 0))
            return [.event(.sound(.chapter))]
        }
        return []
    }

    private mutating func begin(chapter: Int, now: Int64) -> [Effect] {
        var position = LevelPosition(chapter: chapter, level: 0)
        if let current = state.progress.current, current.chapter == chapter { position = current }
        enter(.level(position, makeLevelState(at: position, now: now)))
        return []
    }

    /// Carries out what magic tap or escape means on the screen on show.
    ///
    /// The screen on show offers only actions that fit it; an action on another screen is refused.
    private mutating func gestureAction(
        _ action: ScreenGesture.Action,
        now: Int64
    ) throws(CommandRefusal) -> [Effect] {
        switch (action, top.place) {
        case (.continueIntro, .intro(let page)):
            return continueIntro(from: page)
        case (.skipIntro, .intro):
            return continueIntro(from: adventure.intro.count - 1)
        case (.begin, .chapter(let index)):
            return begin(chapter: index, now: now)
        case (.hint, .level):
            return hint(now: now)
        case (.tryPuzzle, .level):
            return try levelGesture(.magicTap, now: now)
        case (.menu, _):
            return try openMenu(now: now)
        case (.back, .menu):
            pop(now: now)
            return []
        case (.replay, .end):
            return replay()
        case (.continueIntro, _), (.skipIntro, _), (.begin, _), (.hint, _), (.tryPuzzle, _), (.back, _), (.replay, _):
            throw CommandRefusal(.notNow, .refusalGestureOnScreen, ["action": action.rawValue, "screen": screen.id])
        }
    }

    private mutating func openMenu(now: Int64) throws(CommandRefusal) -> [Effect] {
        switch top.place {
        case .menu:
            throw CommandRefusal(.notNow, .refusalMenuOpen)
        case .assistive:
            throw CommandRefusal(.notNow, .refusalAssistiveShowing)
        case .intro, .chapter, .level, .end:
            push(.menu, now: now)
            let playing = playingPosition.map { Self.menuLevelPrefix + level(at: $0).id }
            if let index = screen.elements.firstIndex(where: { $0.id == playing }) { setFocus(index) }
            return []
        }
    }

    private mutating func goto(chapter: Int, level levelNumber: Int, now: Int64) throws(CommandRefusal) -> [Effect] {
        guard adventure.chapters.indices.contains(chapter - 1) else {
            throw CommandRefusal(
                .invalidParams,
                .refusalChapterRange,
                ["count": "\(adventure.chapters.count)"],
                field: "chapter"
            )
        }
        guard adventure.chapters[chapter - 1].levels.indices.contains(levelNumber - 1) else {
            throw CommandRefusal(
                .invalidParams,
                .refusalLevelRange,
                ["count": "\(adventure.chapters[chapter - 1].levels.count)", "chapter": "\(chapter)"],
                field: "level"
            )
        }
        let position = LevelPosition(chapter: chapter - 1, level: levelNumber - 1)
        guard isUnlocked(position) else {
            throw CommandRefusal(.locked, .refusalLevelLocked, ["chapter": "\(chapter)", "level": "\(levelNumber)"])
        }
        enter(.level(position, makeLevelState(at: position, now: now)))
        return []
    }

    private mutating func replay() -> [Effect] {
        state.progress = .fresh
        enter(.intro(page: 0))
        return [
            .save(state.progress),
            .event(.announce(Announcement(adventure.messages.replayed, priority: .assertive, category: .narrative))),
        ]
    }

    private mutating func assistive(active: Bool, now: Int64) -> [Effect] {
        let showing = top.place == .assistive
        if active && showing {
            pop(now: now)
            return [
                .event(.sound(.assistiveBack)),
                .event(.announce(Announcement(adventure.messages.assistiveBack, category: .narrative))),
            ]
        }
        if !active && !showing {
            push(.assistive, now: now)
            return [.event(.sound(.assistiveLost))]
        }
        return []
    }

    private mutating func hint(now: Int64) -> [Effect] {
        let messages = adventure.messages
        guard case .level(let position, var levelState) = top.place, !level(at: position).hints.isEmpty else {
            return [.event(.announce(Announcement(messages.noHints, category: .hint)))]
        }
        let hints = level(at: position).hints
        let unlocked = unlockedHints(levelState, at: position, now: now)
        guard unlocked > 0 else {
            return [.event(.announce(Announcement(messages.noHintYet, category: .hint)))]
        }
        let index = max(0, min(levelState.hintsHeard, unlocked - 1))
        let repeated = levelState.hintsHeard > index
        levelState.hintsHeard = index + 1
        levelState.hintsNoticed = max(levelState.hintsNoticed, unlocked)
        replaceTop(.level(position, levelState))
        var text = Messages.format(
            messages.hint,
            ["n": "\(index + 1)", "count": "\(hints.count)", "text": hints[index]]
        )
        // Asked again before the next hint wakes: the last one again, and when the next wakes.
        if repeated, let wakes = nextHintSentence(now: now) {
            text += " " + wakes
        }
        return [.event(.announce(Announcement(text, category: .hint)))]
    }

    /// When the level's next hint wakes (``hintDeadline``), as the adventure says it (`nextHint…`
    /// messages); `nil` when every hint is awake or the adventure has no such sentence.
    func nextHintSentence(now: Int64) -> String? {
        guard let deadline = hintDeadline else { return nil }
        let messages = adventure.messages
        let remaining = max(0, deadline.subtracting(saturating: now))
        let seconds = remaining / 1000 + (remaining % 1000 == 0 ? 0 : 1)
        if seconds >= 120, let sentence = messages.nextHintMinutes {
            return Messages.format(sentence, ["n": "\(seconds / 60 + (seconds % 60 == 0 ? 0 : 1))"])
        }
        if seconds >= 2, let sentence = messages.nextHintSeconds {
            return Messages.format(sentence, ["n": "\(seconds)"])
        }
        return messages.nextHintSoon
    }

    func unlockedHints(_ levelState: LevelState, at position: LevelPosition, now: Int64) -> Int {
        let count = level(at: position).hints.count
        if options.hintsAtOnce { return count }
        let elapsed = max(0, now.subtracting(saturating: levelState.enteredAt))
        let kept = Int64(levelState.hintsKept ?? 0)
        return Int(min(Int64(count), kept.adding(saturating: elapsed / max(1, options.hintInterval))))
    }
}
