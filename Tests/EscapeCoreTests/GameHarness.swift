// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Testing

/// Drives an engine the way a front end would, with a virtual time, and keeps what it said.
struct GameHarness {
    var engine: Engine
    var now: Int64 = 0
    var saves: [Progress] = []

    static let adventure: Adventure = {
        do {
            return try AdventureLoader.bundled(locale: "en")
        } catch {
            fatalError("the shipped adventure must load: \(error)")
        }
    }()

    init(
        adventure: Adventure = Self.adventure,
        options: EngineOptions = EngineOptions(seed: 1),
        progress: Progress = .fresh
    ) {
        engine = Engine(adventure: adventure, options: options, progress: progress, now: 0)
    }

    /// Applies a command that must be accepted and returns its events.
    @discardableResult
    mutating func send(_ command: GameCommand, sourceLocation: SourceLocation = #_sourceLocation) throws -> [GameEvent]
    {
        let effects = try engine.apply(command, now: now)
        return record(effects)
    }

    /// Applies a command that must be refused and returns the refusal.
    mutating func refuse(_ command: GameCommand) -> CommandRefusal? {
        do {
            _ = try engine.apply(command, now: now)
            return nil
        } catch {
            return error
        }
    }

    mutating func wait(_ milliseconds: Int64) -> [GameEvent] {
        now += milliseconds
        return record(engine.advanceTime(to: now))
    }

    private mutating func record(_ effects: [Effect]) -> [GameEvent] {
        var events: [GameEvent] = []
        for effect in effects {
            switch effect {
            case .event(let event): events.append(event)
            case .save(let progress): saves.append(progress)
            }
        }
        return events
    }

    /// Goes from a fresh game to the first level of chapter `chapter` (1-based) by unlocking it.
    mutating func jump(toChapter chapter: Int) throws {
        var completed: Set<String> = []
        for index in 0..<(chapter - 1) {
            completed.formUnion(Self.adventure.chapters[index].levels.map(\.id))
        }
        self = GameHarness(
            progress: Progress(completed: completed, current: LevelPosition(chapter: chapter - 1, level: 0))
        )
        if chapter == 1 {
            // A fresh game opens on the intro: skip it and begin, as a player would.
            try send(.escape)
            try send(.activate(element: "begin"))
        }
    }

    var screen: Screen { engine.screen }
    var focusID: String { engine.focus.element.id }
}

extension [GameEvent] {
    var announcements: [String] {
        compactMap {
            if case .announce(let announcement) = $0 { return announcement.text }
            return nil
        }
    }

    var outcomes: [Outcome] {
        compactMap {
            if case .result(let result) = $0 { return result.outcome }
            return nil
        }
    }

    var screenIDs: [String] {
        compactMap {
            if case .screen(let screen) = $0 { return screen.id }
            return nil
        }
    }
}
