// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Every level of every shipped adventure (and of the authoring guide's example) is solvable through
/// the protocol with the content's own answers, and everything printed on the way validates.
@Suite struct SolverTests {
    /// The adventures to solve: the shipped ones in every locale, and the guide's example.
    static let files: [String] = {
        let adventures = packageRoot.appendingPathComponent("Sources/EscapeContent/Adventures")
        let shipped = ((try? FileManager.default.contentsOfDirectory(atPath: adventures.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { adventures.appendingPathComponent($0).path }
        return shipped + [packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path]
    }()

    private struct Player {
        let session: SessionHost
        var output: [UInt8] = []
        var sent = 0
        var input: [UInt8] = []

        mutating func send(_ command: JSONValue) {
            var line: [UInt8] = []
            JSONWriter.write(command, into: &line)
            sent += 1
            input += line + [10]
            for event in session.handle(.line(line)) { EventEncoder.encode(event, into: &output) }
        }
    }

    @Test(arguments: files)
    func everyLevelIsSolvableWithTheContentsAnswers(file: String) throws {
        let adventure = try AdventureLoader.load(path: file)
        let session = SessionHost(
            adventure: adventure,
            options: EngineOptions(seed: 7),
            store: InMemorySaveStore(),
            clock: VirtualClock()
        )
        var player = Player(session: session)
        for event in session.start() { EventEncoder.encode(event, into: &player.output) }
        var solved: [String] = []
        var labels: [String] = []
        var steps = 0
        while session.engine.screen.kind != .end && steps < 200 {
            steps += 1
            let screen = session.engine.screen
            switch screen.kind {
            case .intro, .menu, .assistive:
                player.send(["type": "escape"])
            case .chapter:
                player.send(["type": "activate", "element": "begin"])
            case .level:
                let id = String(screen.id.dropFirst("level-".count))
                let level = try #require(adventure.chapters.flatMap(\.levels).first { $0.id == id })
                labels += generatedLabels(session.engine)
                solve(level, &player)
                solved.append(id)
            case .end:
                break
            }
        }
        #expect(session.engine.screen.kind == .end, "stuck on \(session.engine.screen.id)")
        #expect(solved == adventure.chapters.flatMap { $0.levels.map(\.id) })
        // The labels the engine makes up for gestures are in the adventure's language.
        let english = labels.filter { label in
            ["increment", "decrement", ": next", ": previous", "rotor item"].contains { label.contains($0) }
        }
        if adventure.locale == "fr" {
            #expect(english.isEmpty, "\(english)")
            #expect(labels.contains("rotor\u{00A0}: suivant") && labels.contains("élément du rotor\u{00A0}: précédent"))
        } else {
            #expect(labels.contains("rotor: next") && labels.contains("rotor item: previous"))
        }
        player.send(["type": "quit"])
        let events = try Support.events(player.output)
        #expect(events.contains { $0["type"] == "ended" && $0["reason"] == "escaped" })
        #expect(!events.contains { $0["type"] == "error" }, "\(events.filter { $0["type"] == "error" })")
        if adventure.locale == "fr" {
            // Everything the engine wrote, story and its own words alike, is set with French spacing.
            var unspaced: [String] = []
            for event in events { collectUnspaced(.object(event), into: &unspaced) }
            #expect(unspaced.isEmpty, "\(unspaced.prefix(10))")
        }
        let validation = try Support.validate("events", player.output)
        #expect(validation.ok, "\(validation.report)")
        // The same lines through the built efb's pipe give the same bytes.
        let piped = try runEFB(
            ["pipe", "--seed", "7", "--clock", "virtual", "--memory-save", "--adventure", file],
            input: player.input
        )
        #expect(piped.status == 0)
        #expect(piped.stdout == player.output, "the pipe and the session differ")
    }

    private func solve(_ level: Level, _ player: inout Player) {
        switch level.puzzle.content {
        case let question as ClosedQuestion:
            let answer = question.answers.first { $0.correct == true }?.id ?? ""
            player.send(["type": "activate", "element": .string(answer)])
        case let question as OpenQuestion:
            player.send(["type": "input", "element": "answer", "text": .string(question.accepted[0])])
            player.send(["type": "activate", "element": "answer"])
        case let rotor as RotorPuzzle:
            player.send(["type": "focus", "element": "door"])
            for _ in 0..<4 where player.session.engine.rotor?.rotor != rotor.rotor {
                player.send(["type": "rotor", "direction": "next"])
            }
            for _ in 0..<rotor.codes.count where player.session.engine.rotor?.item != rotor.answer {
                player.send(["type": "rotorItem", "direction": "next"])
            }
            player.send(["type": "activate", "element": "door"])
        case let puzzle as CustomActionPuzzle:
            for object in puzzle.objects {
                player.send(["type": "action", "element": .string(object.id), "name": .string(object.correct)])
            }
        case let lock as DialsPuzzle:
            for (dial, target) in zip(lock.dials, lock.combination) {
                for _ in dial.values where value(of: dial.id, player) != target {
                    player.send(["type": "adjust", "element": .string(dial.id), "direction": "increment"])
                }
            }
            player.send(["type": "magicTap"])
        default:
            Issue.record("the solver does not know the kind \(level.puzzle.kind)")
        }
    }

    /// The places in the strings of `value` where French spacing is missing.
    private func collectUnspaced(_ value: JSONValue, into places: inout [String]) {
        switch value {
        case .string(let text): places += FrenchSpacing.plainSpaces(in: text)
        case .array(let items): for item in items { collectUnspaced(item, into: &places) }
        case .object(let fields): for (_, field) in fields { collectUnspaced(field, into: &places) }
        case .null, .bool, .int, .uint, .double: break
        }
    }

    /// The labels of the gestures the engine names itself on the screen on show: adjusting, rotors, actions.
    private func generatedLabels(_ engine: Engine) -> [String] {
        engine.validActions.compactMap { action in
            switch action.command {
            case .adjust, .rotor, .rotorItem, .action:
                action.label
            case .next, .previous, .first, .last, .focus, .activate, .input, .magicTap, .escape, .hint, .menu, .goto,
                .replay, .assistive, .repeatAnnouncement:
                nil
            }
        }
    }

    private func value(of element: String, _ player: Player) -> String? {
        player.session.engine.screen.elements.first { $0.id == element }?.value
    }
}
