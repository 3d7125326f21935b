/// Everything the engine holds, as a value that can be stored and brought back exactly.
///
/// Front ends treat it as opaque: the protocol carries it as a versioned, checksummed blob.
public struct EngineSnapshot: Sendable, Hashable, Codable {
    var state: Engine.GameState
    var generation: Int
    var lastAnnouncement: Announcement?
    var keyNames: [String: String]
    var timePressure: Bool

    /// The state generation when the snapshot was taken.
    public var snapshotGeneration: Int { generation }
}

/// Why a snapshot cannot be restored.
public struct SnapshotMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// What does not fit this adventure, in the adventure's language.
    public var description: String
}

extension Engine {
    /// The whole state, to be restored later with ``restore(_:)``.
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
    /// Every position and puzzle state in it is checked against the adventure first, so a snapshot
    /// from another adventure (or a damaged one) is refused and the engine is left as it was.
    public mutating func restore(_ snapshot: EngineSnapshot) throws(SnapshotMismatch) {
        try check(snapshot.state)
        state = snapshot.state
        // The state changed, so the generation grows; it takes the snapshot's when that is ahead, so a
        // fresh engine that restores numbers what follows exactly as the original did. It never goes back.
        generation = max(generation + 1, snapshot.generation)
        lastAnnouncement = snapshot.lastAnnouncement
        keyNames = snapshot.keyNames
        timePressure = snapshot.timePressure
    }

    private func check(_ candidate: GameState) throws(SnapshotMismatch) {
        let words = self.words
        func require(_ condition: Bool, _ problem: EngineWords.Key) throws(SnapshotMismatch) {
            if !condition { throw SnapshotMismatch(description: words(problem)) }
        }
        func valid(_ position: LevelPosition) -> Bool {
            adventure.chapters.indices.contains(position.chapter)
                && adventure.chapters[position.chapter].levels.indices.contains(position.level)
        }
        let ids = Set(adventure.chapters.flatMap { $0.levels.map(\.id) })
        try require(candidate.progress.completed.isSubset(of: ids), .snapshotUnknownLevels)
        if let current = candidate.progress.current { try require(valid(current), .snapshotNoCurrentLevel) }
        try require(!candidate.stack.isEmpty, .snapshotNoScreen)
        for (index, frame) in candidate.stack.enumerated() {
            try require(frame.focus >= 0, .snapshotNegativeFocus)
            switch frame.place {
            case .intro(let page):
                try require(adventure.intro.indices.contains(page), .snapshotNoIntroPage)
            case .chapter(let chapter):
                try require(adventure.chapters.indices.contains(chapter), .snapshotNoChapter)
            case .level(let position, let levelState):
                try require(valid(position), .snapshotNoLevel)
                try require(
                    kindFits(levelState.puzzle, level(at: position).puzzle),
                    .snapshotPuzzleMismatch
                )
            case .menu, .assistive:
                try require(index > 0, .snapshotOverlayAtBottom)
            case .end:
                break
            }
        }
    }
}
