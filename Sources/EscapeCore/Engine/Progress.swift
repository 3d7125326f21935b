// SPDX-License-Identifier: Apache-2.0
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
    /// The order chance gave each level that has one (a closed question's answers), by level id.
    ///
    /// A level shows its answers as it first did, also after a resume. Not something earned: see
    /// ``hasSameEarnings(as:)``.
    public var answerOrders: [String: [String]]

    /// Creates progress.
    public init(completed: Set<String>, current: LevelPosition?, answerOrders: [String: [String]] = [:]) {
        self.completed = completed
        self.current = current
        self.answerOrders = answerOrders
    }

    /// Whether `other` holds the same solved levels and place to carry on: what the player earned,
    /// whatever the answers' orders.
    public func hasSameEarnings(as other: Progress) -> Bool {
        completed == other.completed && current == other.current
    }

    /// A new game.
    public static let fresh = Progress(completed: [], current: LevelPosition(chapter: 0, level: 0))
}

extension Progress {
    private enum CodingKeys: String, CodingKey {
        case completed, current, answerOrders
    }

    /// Decodes progress; `completed` is a list.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        completed = Set(try container.decode([String].self, forKey: .completed))
        current = try container.decodeIfPresent(LevelPosition.self, forKey: .current)
        answerOrders = try container.decodeIfPresent([String: [String]].self, forKey: .answerOrders) ?? [:]
    }

    /// Encodes progress with `completed` sorted, so the same progress always gives the same bytes;
    /// no orders, no `answerOrders` key (the form snapshots had before there were any).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(completed.sorted(), forKey: .completed)
        try container.encodeIfPresent(current, forKey: .current)
        if !answerOrders.isEmpty { try container.encode(answerOrders, forKey: .answerOrders) }
    }
}
