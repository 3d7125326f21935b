// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeContent
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// The console tests' sessions and consoles; running efb is EscapeTestSupport's.
enum Support {
    static let adventure: Adventure = {
        do {
            return try AdventureLoader.bundled(locale: "en")
        } catch {
            fatalError("the shipped adventure must load: \(error)")
        }
    }()

    /// A session as `efb play --seed 1 --clock virtual --memory-save` makes it, on `level` when one is named
    /// (every level before it solved), or at the very start.
    static func session(at level: String? = nil, seed: UInt64 = 1) -> SessionHost {
        var store = InMemorySaveStore()
        if let level {
            let ids = adventure.chapters.flatMap(\.levels).map(\.id)
            let solved = Array(ids.prefix { $0 != level })
            store = InMemorySaveStore(SaveData(adventureID: adventure.id, completed: solved, current: level))
        }
        return SessionHost(
            adventure: adventure,
            options: EngineOptions(hintInterval: 30_000, seed: seed),
            store: store,
            clock: VirtualClock()
        )
    }

    /// A started console on `level` (or at the start), with the lines that brought it there; `save` and
    /// named saves use `savePlace`.
    ///
    /// A save on the very first level starts with the introduction, so that level is reached by skipping
    /// it and beginning the chapter.
    static func console(
        at level: String? = nil,
        savePlace: ConsoleDriver.SavePlace = .nowhere
    ) -> (driver: SteppedConsole, opening: [String]) {
        var driver = SteppedConsole(host: session(at: level), savePlace: savePlace)
        var opening = driver.start().map(\.text)
        if level == adventure.chapters[0].levels[0].id {
            opening = driver.enter("esc").map(\.text) + driver.enter("magic").map(\.text)
        }
        return (driver, opening)
    }
}

/// A console driven a line at a time, without the event loop: what the loop does for each typed line.
struct SteppedConsole {
    let host: SessionHost
    private(set) var driver = ConsoleDriver()

    init(host: SessionHost, savePlace: ConsoleDriver.SavePlace = .nowhere) {
        self.host = host
        driver.savePlace = savePlace
    }

    var context: ShownGame { driver.context }
    var isFinished: Bool { host.isFinished }

    mutating func start() -> [ConsoleLine] {
        let opening = driver.render(host.start())
        return opening + driver.render(host.handle(driver.opening()))
    }
    mutating func enter(_ line: String) -> [ConsoleLine] { driver.enter(line, on: host) }
    /// Carries out `line` as ``enter(_:)`` does and returns the commands it handed to the session.
    mutating func commands(of line: String) -> [Command] {
        guard case .submit(let input) = driver.interpret(line) else { return [] }
        _ = driver.carryOut(input, on: host)
        switch input {
        case .requests(let requests), .keepingSnapshot(_, let requests): return requests.map(\.command)
        default: return []
        }
    }
    mutating func finish() -> [ConsoleLine] { driver.render(host.finish()) }
}
