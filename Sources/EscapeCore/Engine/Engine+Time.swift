// SPDX-License-Identifier: Apache-2.0
/// The torch's clock on timed levels: the time left is said every minute, every 15 seconds in the
/// last minute and every second in the last ten; at zero the level starts over, never the game.
extension Engine {
    /// The seconds left at which the time is announced, from the first to the last (0: time is up).
    public static func timeMarks(limit: Int) -> [Int] {
        var marks: [Int] = []
        while let mark = timeMark(limit: limit, at: marks.count) { marks.append(mark) }
        return marks
    }

    /// When the next time announcement falls due on a timed level.
    var timeDeadline: Int64? {
        guard case .level(let position, let levelState) = top.place, levelState.timed,
            let limit = adventure.chapters[position.chapter].levels[position.level].timeLimit,
            let mark = Self.timeMark(limit: limit, at: levelState.timeAnnounced)
        else { return nil }
        return levelState.enteredAt.adding(saturating: Int64(limit - mark) * 1000)
    }

    /// `timeMarks(limit: limit)[index]`, or `nil` past the last.
    ///
    /// Asked before every command on a timed level, so it makes no list; the one place the schedule
    /// is written.
    package static func timeMark(limit: Int, at index: Int) -> Int? {
        guard index >= 0 else { return nil }
        var index = index
        // Whole minutes, from the last one before the limit down to 1.
        let minutes = max(0, (limit - 1) / 60)
        if index < minutes { return (minutes - index) * 60 }
        index -= minutes
        // 45, 30 and 15 seconds, those below the limit: the list's last ones.
        let quarters = [45, 30, 15].lazy.filter { $0 < limit }.count
        if index < quarters { return [45, 30, 15][3 - quarters + index] }
        index -= quarters
        // 10 seconds down to 1, those below the limit.
        let seconds = max(0, min(10, limit - 1))
        if index < seconds { return seconds - index }
        return index == seconds ? 0 : nil
    }

    /// Says the time left at the mark that fell due at `time`; at zero, starts the level over.
    ///
    /// When the relit torch would go out again by `now`, it is relit once, at the last time it goes out
    /// by then: the runs between are skipped unsaid.
    mutating func announceTime(at time: Int64, until now: Int64) -> [Effect] {
        guard case .level(let position, var levelState) = top.place, let limit = level(at: position).timeLimit else {
            return []
        }
        // Only called when `timeDeadline` found this mark.
        guard let remaining = Self.timeMark(limit: limit, at: levelState.timeAnnounced) else { return [] }
        let messages = adventure.messages
        levelState.timeAnnounced += 1
        replaceTop(.level(position, levelState))
        var effects: [Effect] = []
        let text: String
        switch remaining {
        case 0:
            // The torch is relit: the same level from its start, as if the player had just arrived.
            let limitMs = Int64(limit) * 1000
            let skipped = max(0, now.subtracting(saturating: time)) / limitMs
            let relit = time.adding(saturating: skipped.multiplied(saturating: limitMs))
            // Hints unlocked before the torch went out stay unlocked, and the ones heard stay heard.
            let kept = max(levelState.hintsNoticed, unlockedHints(levelState, at: position, now: time))
            var relitState = makeLevelState(at: position, now: relit)
            if kept > 0 {
                relitState.hintsKept = kept
                relitState.hintsNoticed = kept
                relitState.hintsHeard = levelState.hintsHeard
            }
            enter(.level(position, relitState))
            generation = generation.countingOn
            let said = Announcement(messages.timeUp ?? "", priority: .assertive, category: .time)
            lastAnnouncement = said
            return [.event(.sound(.torchOut)), .event(.announce(said))] + arrivalEffects() + timerEffects(now: relit)
        case 60:
            effects.append(.event(.sound(.torchLastMinute)))
            text = messages.timeLeftOneMinute ?? ""
        case 11...:
            text = Messages.format(
                remaining >= 120 ? messages.timeLeftMinutes ?? "" : messages.timeLeftSeconds ?? "",
                ["n": "\(remaining >= 120 ? remaining / 60 : remaining)"]
            )
        default:
            if remaining == 10 { effects.append(.event(.sound(.torchCountdown))) }
            text = Messages.format(messages.countdown ?? "", ["n": "\(remaining)"])
        }
        let said = Announcement(text, priority: remaining <= 10 ? .assertive : .polite, category: .time)
        lastAnnouncement = said
        return effects + [.event(.announce(said))]
    }

    /// Turns time pressure on or off for the front end's player.
    ///
    /// Off takes effect at once: the clock of the level being played (or paused under the menu or the
    /// assistive screen) stops for good, and a `timer` saying it stands still tells a client's
    /// countdown to stop. On takes effect from the next level.
    ///
    /// - Parameters:
    ///   - on: Whether levels with a time limit are timed.
    ///   - now: The time, for the clock's last state.
    /// - Returns: The stopped clock, when a timed level's clock stopped.
    public mutating func setTimePressure(_ on: Bool, now: Int64) -> [Effect] {
        timePressure = on
        guard !on, let stopped = timer(now: now),
            case .level(let position, var levelState) = state.stack[0].place
        else { return [] }
        levelState.timed = false
        state.stack[0].place = .level(position, levelState)
        return [.event(.timer(TimerState(limitMs: stopped.limitMs, remainingMs: stopped.remainingMs, paused: true)))]
    }

    /// The torch's clock as it stands at `now`: on a timed level, or on the level a menu or the
    /// assistive screen paused; `nil` elsewhere.
    public func timer(now: Int64) -> TimerState? {
        guard let frame = state.stack.first, case .level(let position, let levelState) = frame.place,
            levelState.timed, let limit = level(at: position).timeLimit
        else { return nil }
        let paused = state.stack.count > 1
        let elapsed = (paused ? state.pausedAt ?? now : now).subtracting(saturating: levelState.enteredAt)
        let limitMs = Int64(limit) * 1000
        let remaining = limitMs.subtracting(saturating: elapsed)
        return TimerState(limitMs: limitMs, remainingMs: max(0, min(limitMs, remaining)), paused: paused)
    }

    /// The clock's state after arriving somewhere: started, paused or going on.
    func timerEffects(now: Int64) -> [Effect] {
        timer(now: now).map { [.event(.timer($0))] } ?? []
    }
}
