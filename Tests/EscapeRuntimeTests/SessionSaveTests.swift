// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

struct SessionSaveTests {
    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "efb-session-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func errors(_ events: [StampedEvent]) -> [ProtocolError] {
        events.compactMap {
            if case .error(let error) = $0.event { return error }
            return nil
        }
    }

    @Test func progressIsSavedAfterASolvedLevelAndRestoredAtStart() throws {
        let path = try directory() + "/progress.json"
        do {
            // The first game ends (and lets go of the save's lock) before the second starts.
            let session = Support.session(store: FileSaveStore(path: path))
            _ = session.start()
            for command in [GameCommand.escape, .activate(element: "begin"), .activate(element: "senses")] {
                _ = session.handle(Request(command: .game(command)))
            }
        }
        let saved = try FileSaveStore(path: path).load()?[adventure: "escape-from-blindness"]
        #expect(saved?.completed == ["cellar-door"])
        #expect(saved?.current == "cellar-water")
        // The orders the answers were shown in, the next level's among them (issue 23, item 11).
        #expect(saved.map { Set($0.answerOrders.keys) } == ["cellar-door", "cellar-water"])

        // A process spawned meanwhile by a parallel test holds a copy of the first game's lock descriptor
        // from its fork to its exec, so the kernel may let go of the lock a moment after the game ends.
        try waitUntil("the first game's lock to be released") { (try? FileSaveStore(path: path).acquire()) != nil }
        let restored = Support.session(store: FileSaveStore(path: path))
        let opening = restored.start()
        #expect(restored.engine.screen.id == "level-cellar-water")
        guard case .progress(let summary, let isSaved) = opening.last?.event else {
            Issue.record("the opening ends with progress")
            return
        }
        #expect(summary.completed == ["cellar-door"])
        #expect(isSaved)
    }

    @Test func aDamagedSaveIsKeptAsideAndTheGameStartsFresh() throws {
        let folder = try directory()
        let path = folder + "/progress.json"
        try Data("{ not a save".utf8).write(to: URL(fileURLWithPath: path))
        let session = Support.session(store: FileSaveStore(path: path))
        let opening = session.start()
        let problems = errors(opening)
        #expect(problems.map(\.code) == [.saveUnreadable])
        #expect(problems.first?.message.contains("progress.json.unreadable-1") == true)
        #expect(session.engine.screen.id == "intro-1")
        #expect(try String(contentsOfFile: path + ".unreadable-1", encoding: .utf8) == "{ not a save")
    }

    @Test func aNewerSaveIsNeverOverwritten() throws {
        let path = try directory() + "/progress.json"
        let newer = #"{"format":9,"adventure":"escape-from-blindness"}"#
        try Data(newer.utf8).write(to: URL(fileURLWithPath: path))
        let session = Support.session(store: FileSaveStore(path: path))
        #expect(errors(session.start()).map(\.code) == [.saveUnreadable])
        for command in [GameCommand.escape, .activate(element: "begin"), .activate(element: "senses")] {
            _ = session.handle(Request(command: .game(command)))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == newer)
    }

    @Test func aSaveThatCannotBeReadIsNeverOverwritten() throws {
        let folder = try directory()
        try Data("file".utf8).write(to: URL(fileURLWithPath: folder + "/blocker"))
        let session = Support.session(store: FileSaveStore(path: folder + "/blocker/progress.json"))
        #expect(errors(session.start()).map(\.code) == [.saveUnreadable])
        _ = session.handle(Request(command: .game(.escape)))
        _ = session.handle(Request(command: .game(.activate(element: "begin"))))
        let events = session.handle(Request(command: .game(.activate(element: "senses"))))
        #expect(errors(events).isEmpty)
        #expect(events.contains { if case .progress(_, saved: false) = $0.event { true } else { false } })
    }

    @Test func aFailedSaveIsReportedAndTheGameGoesOn() throws {
        let folder = try directory()
        let path = folder + "/progress.json"
        let session = Support.session(store: FileSaveStore(path: path))
        _ = session.start()
        _ = session.handle(Request(command: .game(.escape)))
        _ = session.handle(Request(command: .game(.activate(element: "begin"))))
        // A directory where the temporary file must go makes the write fail.
        try FileManager.default.createDirectory(atPath: "\(path).tmp-\(getpid())", withIntermediateDirectories: false)
        let events = session.handle(Request(command: .game(.activate(element: "senses"))))
        #expect(errors(events).map(\.code) == [.saveFailed])
        #expect(events.contains { if case .progress(_, saved: false) = $0.event { true } else { false } })
        #expect(session.engine.screen.id == "level-cellar-water")
        try FileManager.default.removeItem(atPath: "\(path).tmp-\(getpid())")
        let next = session.handle(Request(command: .game(.activate(element: "water"))))
        #expect(errors(next).isEmpty)
        #expect(
            try FileSaveStore(path: path).load()?[adventure: "escape-from-blindness"]?.completed == [
                "cellar-door", "cellar-water",
            ]
        )
    }

    @Test func quitSaysEndedDoneAndBye() {
        let session = Support.session()
        _ = session.start()
        let events = session.handle(Request(id: .string("q"), command: .quit))
        #expect(events.map(\.event) == [.ended(reason: .quit, cutShort: true), .done, .bye])
        #expect(session.isFinished)
        #expect(session.handle(Request(command: .ping)).isEmpty)
    }
}
