/// A position in the adventure: 0-based chapter and level indices.
public struct LevelPosition: Sendable, Hashable, Comparable, Codable {
    /// 0-based chapter index.
    public var chapter: Int
    /// 0-based level index within the chapter.
    public var level: Int

    /// Creates a position.
    public init(chapter: Int, level: Int) {
        self.chapter = chapter
        self.level = level
    }

    /// Orders positions in playing order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.chapter, lhs.level) < (rhs.chapter, rhs.level)
    }
}

/// What the player has earned: the levels solved and where to carry on.
///
/// This is what a save holds.
public struct Progress: Sendable, Hashable, Codable {
    /// Ids of the solved levels.
    public var completed: Set<String>
    /// Where to carry on, or `nil` when the game was finished.
    public var current: LevelPosition?

    /// Creates progress.
    public init(completed: Set<String>, current: LevelPosition?) {
        self.completed = completed
        self.current = current
    }

    /// A new game.
    public static let fresh = Progress(completed: [], current: LevelPosition(chapter: 0, level: 0))
}

extension Progress {
    private enum CodingKeys: String, CodingKey {
        case completed, current
    }

    /// Decodes progress; `completed` is a list.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        completed = Set(try container.decode([String].self, forKey: .completed))
        current = try container.decodeIfPresent(LevelPosition.self, forKey: .current)
    }

    /// Encodes progress with `completed` sorted, so the same progress always gives the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(completed.sorted(), forKey: .completed)
        try container.encodeIfPresent(current, forKey: .current)
    }
}
