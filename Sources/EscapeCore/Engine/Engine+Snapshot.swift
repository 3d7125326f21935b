// SPDX-License-Identifier: Apache-2.0
/// Everything the engine holds, as a value that can be stored and brought back exactly.
///
/// Front ends treat it as opaque: the protocol carries it as a versioned, checksummed blob. The
/// checksum is no signature, so a snapshot is untrusted input: ``Engine/restore(_:takenAt:now:)``
/// checks every field before it takes any.
///
/// It is no `Codable`: the blob spells the key names' gestures as the protocol does, so the wire adapter
/// (EscapeRuntime's snapshot codec) encodes it, field by field.
public struct EngineSnapshot: Sendable, Hashable {
    package var state: Engine.GameState
    package var generation: Int
    package var lastAnnouncement: Announcement?
    package var keyNames: [Gesture: String]
    package var timePressure: Bool

    /// Creates a snapshot from its fields, as the snapshot codec read them.
    package init(
        state: Engine.GameState,
        generation: Int,
        lastAnnouncement: Announcement?,
        keyNames: [Gesture: String],
        timePressure: Bool
    ) {
        self.state = state
        self.generation = generation
        self.lastAnnouncement = lastAnnouncement
        self.keyNames = keyNames
        self.timePressure = timePressure
    }

    /// The state generation when the snapshot was taken.
    public var snapshotGeneration: Int { generation }
}

/// Why a snapshot cannot be restored: the field at fault and what is wrong with it.
public struct SnapshotMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field, as a path in the snapshot's JSON (`state.stack[0].focus`).
    public var field: String
    /// What is wrong with it.
    public var problem: EngineWords.Key

    /// Creates a mismatch.
    public init(field: String, problem: EngineWords.Key) {
        self.field = field
        self.problem = problem
    }

    /// The reason in `words`, the field's path under `prefix` (where the snapshot sits in a larger JSON).
    public func reason(in words: EngineWords, under prefix: String = "") -> String {
        words(.snapshotField, ["field": prefix + field, "problem": words(problem)])
    }

    /// The reason in English.
    public var description: String { reason(in: .english) }
}

extension Engine {
    /// The largest `gen` (and session `seq`) a snapshot may bring back: 2^52, half of what JSON's
    /// integers hold exactly, so counting on from a restored game never reaches 2^53 − 1.
    public static let maximumRestoredCounter = 1 << 52

    /// The whole state, to be restored later with ``restore(_:takenAt:now:)``.
    public var snapshot: EngineSnapshot {
        EngineSnapshot(
            state: state,
            generation: generation,
            lastAnnouncement: lastAnnouncement,
            keyNames: keyNames,
            timePressure: timePressure
        )
    }

    /// Brings back a snapshot taken from an engine playing the same adventure.
    ///
    /// Every field is checked first — positions and puzzle states against the adventure, the screen
    /// stack, focus, hint and torch counters against what the game can reach, numbers and times against
    /// sane ranges — so a snapshot from another adventure, a damaged or a crafted one is refused and
    /// the engine is left as it was. Times are restored relative: what had elapsed at `reference` has
    /// elapsed at `now`.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot.
    ///   - reference: The time the snapshot was taken, on its own clock; `nil` takes its times as they are.
    ///   - now: The time now, on this engine's clock.
    /// - Throws: ``SnapshotMismatch`` naming the first field that does not fit.
    public mutating func restore(
        _ snapshot: EngineSnapshot,
        takenAt reference: Int64?,
        now: Int64
    ) throws(SnapshotMismatch) {
        let reference = reference ?? now
        try check(snapshot, at: reference)
        var restoredState = snapshot.state
        let shift = now.subtracting(saturating: reference)
        for index in restoredState.stack.indices {
            if case .level(let position, var levelState) = restoredState.stack[index].place {
                levelState.enteredAt = levelState.enteredAt.adding(saturating: shift)
                restoredState.stack[index].place = .level(position, levelState)
            }
        }
        restoredState.pausedAt = restoredState.pausedAt?.adding(saturating: shift)
        state = restoredState
        // The state changed, so the generation grows; it takes the snapshot's when that is ahead, so a
        // fresh engine that restores numbers what follows exactly as the original did. It never goes back.
        generation = max(generation.countingOn, snapshot.generation)
        lastAnnouncement = snapshot.lastAnnouncement
        keyNames = snapshot.keyNames
        timePressure = snapshot.timePressure
    }

    /// Whether `progress` is one the game can reach in this adventure: known levels, and a level to
    /// carry on with that is the first or follows a solved one (none only once the last is solved).
    public func reachable(_ progress: Progress) -> Bool {
        let positions = allPositions
        let ids = Set(positions.map { level(at: $0).id })
        guard progress.completed.isSubset(of: ids) else { return false }
        guard let current = progress.current else {
            return positions.last.map { progress.completed.contains(level(at: $0).id) } ?? false
        }
        guard let index = positions.firstIndex(of: current) else { return false }
        return index == 0 || progress.completed.contains(level(at: positions[index - 1]).id)
    }

    private func check(_ snapshot: EngineSnapshot, at reference: Int64) throws(SnapshotMismatch) {
        func require(_ condition: Bool, _ field: String, _ problem: EngineWords.Key) throws(SnapshotMismatch) {
            if !condition { throw SnapshotMismatch(field: field, problem: problem) }
        }
        func valid(_ position: LevelPosition) -> Bool {
            adventure.chapters.indices.contains(position.chapter)
                && adventure.chapters[position.chapter].levels.indices.contains(position.level)
        }
        /// A time within 2^53 − 1 ms of the snapshot's own time, so no sum of times can overflow.
        func sane(_ time: Int64) -> Bool {
            reference.subtracting(saturating: time).magnitude <= UInt64(Int64.safeInteger)
        }
        let safe = 0...Int(Int64.safeInteger)
        let candidate = snapshot.state
        // A generation the game could count on from for ever, not one at the edge of what JSON holds.
        try require((0...Self.maximumRestoredCounter).contains(snapshot.generation), "generation", .snapshotOutOfRange)
        try require(safe.contains(candidate.visits), "state.visits", .snapshotOutOfRange)
        let ids = Set(adventure.chapters.flatMap { $0.levels.map(\.id) })
        try require(candidate.progress.completed.isSubset(of: ids), "state.progress.completed", .snapshotUnknownLevels)
        if let current = candidate.progress.current {
            try require(valid(current), "state.progress.current", .snapshotNoCurrentLevel)
        }
        try require(reachable(candidate.progress), "state.progress.current", .snapshotImpossible)
        if let pausedAt = candidate.pausedAt { try require(sane(pausedAt), "state.pausedAt", .snapshotOutOfRange) }
        try require(!candidate.stack.isEmpty, "state.stack", .snapshotNoScreen)
        try require(candidate.stack.count <= 3, "state.stack", .snapshotImpossible)
        // What the screens would show, built as the restored engine would build them.
        var restored = self
        restored.state = candidate
        restored.keyNames = snapshot.keyNames
        for (index, frame) in candidate.stack.enumerated() {
            let path = "state.stack[\(index)]"
            // The bottom is where the player plays; the menu may cover it, the assistive screen either.
            switch (frame.place, index) {
            case (.intro, 0), (.chapter, 0), (.level, 0), (.end, 0), (.menu, 1), (.assistive, 2):
                break
            case (.assistive, 1):
                try require(index == candidate.stack.count - 1, "\(path).place", .snapshotImpossible)
            case (.menu, 0), (.assistive, 0):
                throw SnapshotMismatch(field: "\(path).place", problem: .snapshotOverlayAtBottom)
            case (.intro, _), (.chapter, _), (.level, _), (.end, _), (.menu, _), (.assistive, _):
                throw SnapshotMismatch(field: "\(path).place", problem: .snapshotImpossible)
            }
            switch frame.place {
            case .intro(let page):
                try require(adventure.intro.indices.contains(page), "\(path).place.intro.page", .snapshotNoIntroPage)
            case .chapter(let chapter):
                try require(
                    adventure.chapters.indices.contains(chapter),
                    "\(path).place.chapter._0",
                    .snapshotNoChapter
                )
                // A chapter's page leads to the level its `begin` enters, which must be open: a page
                // not tied to the progress would skip every level before it.
                var entered = LevelPosition(chapter: chapter, level: 0)
                if let current = candidate.progress.current, current.chapter == chapter { entered = current }
                try require(
                    adventure.chapters[chapter].levels.indices.contains(entered.level) && restored.isUnlocked(entered),
                    "\(path).place.chapter._0",
                    .snapshotLevelLocked
                )
            case .level(let position, let levelState):
                try checkLevel(position, levelState, in: restored, at: "\(path).place.level", reference: reference)
            case .end:
                // The end screen comes once every level is solved: no level is left to carry on with.
                try require(candidate.progress.current == nil, "\(path).place", .snapshotImpossible)
            case .menu, .assistive:
                break
            }
            let count = restored.makeScreen(for: frame).elements.count
            try require((0..<count).contains(frame.focus), "\(path).focus", .snapshotOutOfRange)
        }
    }

    /// Checks a level on the stack: where it is, its puzzle, hint and torch counters and its times.
    private func checkLevel(
        _ position: LevelPosition,
        _ levelState: LevelState,
        in restored: Engine,
        at path: String,
        reference: Int64
    ) throws(SnapshotMismatch) {
        func require(_ condition: Bool, _ field: String, _ problem: EngineWords.Key) throws(SnapshotMismatch) {
            if !condition { throw SnapshotMismatch(field: path + field, problem: problem) }
        }
        try require(
            adventure.chapters.indices.contains(position.chapter)
                && adventure.chapters[position.chapter].levels.indices.contains(position.level),
            "._0",
            .snapshotNoLevel
        )
        try require(restored.isUnlocked(position), "._0", .snapshotLevelLocked)
        let level = level(at: position)
        try require(kindFits(levelState.puzzle, level.puzzle), "._1.puzzle", .snapshotPuzzleMismatch)
        try require((0...level.hints.count).contains(levelState.hintsHeard), "._1.hintsHeard", .snapshotOutOfRange)
        try require(
            (0...level.hints.count).contains(levelState.hintsNoticed),
            "._1.hintsNoticed",
            .snapshotOutOfRange
        )
        try require(
            (0...level.hints.count).contains(levelState.hintsKept ?? 0),
            "._1.hintsKept",
            .snapshotOutOfRange
        )
        try require(
            reference.subtracting(saturating: levelState.enteredAt).magnitude <= UInt64(Int64.safeInteger),
            "._1.enteredAt",
            .snapshotOutOfRange
        )
        guard let limit = level.timeLimit else {
            try require(!levelState.timed, "._1.timed", .snapshotImpossible)
            try require(levelState.timeAnnounced == 0, "._1.timeAnnounced", .snapshotOutOfRange)
            return
        }
        try require(
            Self.timeMark(limit: limit, at: levelState.timeAnnounced) != nil,
            "._1.timeAnnounced",
            .snapshotOutOfRange
        )
        guard levelState.timed else { return }
        // The engine lets time pass before it snapshots: a running torch has time left.
        let paused = restored.state.stack.count > 1
        let at = paused ? restored.state.pausedAt ?? reference : reference
        try require(
            at.subtracting(saturating: levelState.enteredAt) < Int64(limit) * 1000,
            "._1.enteredAt",
            .snapshotTorchOut
        )
    }
}
