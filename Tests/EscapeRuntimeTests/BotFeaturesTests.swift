// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import Foundation
import Testing

/// What bots rely on: valid actions, commands aimed at elements, batches, snapshots, how a game ended.
@Suite struct BotFeaturesTests {
    private func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    private func encoded(_ events: [StampedEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events { EventEncoder.encode(event, into: &bytes) }
        return bytes
    }

    /// The example game's commands, one line each.
    private var exampleCommands: [String] {
        get throws {
            let text = try String(
                contentsOf: Support.examples.appendingPathComponent("full-game.commands.ndjson"),
                encoding: .utf8
            )
            return text.split(separator: "\n").map(String.init)
        }
    }

    private func validActions(_ events: [StampedEvent]) -> [ValidAction]? {
        for event in events.reversed() {
            if case .validActions(_, let actions) = event.event { return actions }
        }
        return nil
    }

    @Test func validActionsFollowEveryFocusWhenAskedFor() {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(line(#"{"type":"hello","protocol":1,"want":["validActions"]}"#))
        let events = session.handle(line(#"{"type":"escape","id":1}"#))
        let actions = validActions(events)
        #expect(actions?.contains { $0.command == .activate(element: "begin") } == true)
        #expect(actions?.contains { $0.command == .magicTap } == true)
        // Every listed command goes through the decoder as the engine wrote it.
        for action in actions ?? [] {
            var bytes: [UInt8] = []
            JSONWriter.write(CommandEncoder.json(action.command, element: action.element), into: &bytes)
            guard case .request = CommandDecoder.decode(bytes) else {
                Issue.record("\(action.label) does not decode")
                continue
            }
        }
        #expect(events.last?.event == .done)
    }

    @Test func validActionsWithIfChangedSendTheListOnlyWhenItChanged() {
        let session = Support.session()
        _ = session.start()
        let ask = line(#"{"type":"validActions","id":"v","ifChanged":true}"#)
        #expect(validActions(session.handle(ask)) != nil)  // never sent yet
        let again = session.handle(ask)
        #expect(validActions(again) == nil)
        #expect(again.map(\.event) == [.done])
        _ = session.handle(line(#"{"type":"next","id":1}"#))
        #expect(validActions(session.handle(ask)) == nil)  // a move of the focus changes no gesture
        _ = session.handle(line(#"{"type":"escape","id":2}"#))
        let changed = validActions(session.handle(ask))
        #expect(changed?.contains { $0.command == .activate(element: "begin") } == true)
        // Without the field the list always comes; and whatever sent it last is what is compared.
        #expect(validActions(session.handle(line(#"{"type":"validActions","id":"w"}"#))) != nil)
        #expect(validActions(session.handle(ask)) == nil)
        _ = session.handle(line(#"{"type":"hello","protocol":1,"want":["validActions"]}"#))
        let moved = session.handle(line(#"{"type":"activate","id":3,"element":"begin"}"#))
        #expect(validActions(moved) != nil)  // (sent by want, after the new screen's focus)
        #expect(validActions(session.handle(ask)) == nil)
    }

    @Test func omittedEventsAreNeverSentAndSpendNoSeq() throws {
        // The example game twice: as it is, and with its hello asking to do without the cues, the
        // verdicts and (refused) the dones. The second is the first without those events, numbered
        // on without gaps.
        let commands = try exampleCommands
        let full = Support.session()
        let lean = Support.session()
        var heard = full.start()
        var leanHeard = lean.start()
        for command in commands {
            heard += full.handle(line(command))
            let asked = command.replacingOccurrences(
                of: #"{"type":"hello","#,
                with: #"{"type":"hello","omit":["sound","result","done","nonsense"],"#
            )
            leanHeard += lean.handle(line(asked))
        }
        func withoutHelloOmit(_ event: Event) -> Event {
            guard case .hello(var hello) = event else { return event }
            #expect(hello.grantedOmit == nil || hello.grantedOmit == ["sound", "result"])
            hello.grantedOmit = nil
            return .hello(hello)
        }
        let expected = heard.map(\.event).filter {
            switch $0 {
            case .game(.sound), .game(.ambient), .game(.result): false
            default: true
            }
        }
        #expect(heard.count > expected.count + 100)  // (the example has cues and verdicts to leave out)
        #expect(leanHeard.map(\.event).map(withoutHelloOmit) == expected)
        #expect(leanHeard.map(\.seq) == Array(1...leanHeard.count))
        // The reply says what was granted; a hello without omit brings every event back.
        let granted = leanHeard.compactMap { if case .hello(let hello) = $0.event { hello.grantedOmit } else { nil } }
        #expect(granted == [["sound", "result"]])
        let session = Support.session()
        _ = session.start()
        func sounds(_ events: [StampedEvent]) -> Int {
            events.filter { if case .game(.sound) = $0.event { true } else { false } }.count
        }
        _ = session.handle(line(#"{"type":"hello","protocol":1,"omit":["sound"]}"#))
        #expect(sounds(session.handle(line(#"{"type":"previous"}"#))) == 0)  // (the boundary's cue)
        _ = session.handle(line(#"{"type":"hello","protocol":1}"#))
        #expect(sounds(session.handle(line(#"{"type":"previous"}"#))) == 1)
    }

    @Test func aRefusedBatchTakesBackTheListItWouldHaveSent() {
        // Before the session kept its last list outside its checkpoint, a refused batch would have
        // recorded a list the client never received, and the next ifChanged would say nothing.
        let session = Support.session()
        _ = session.start()
        let refused = session.handle(
            line(
                #"{"type":"batch","id":"b","commands":[{"type":"validActions","ifChanged":true},{"type":"focus","element":"nowhere"}]}"#
            )
        )
        #expect(validActions(refused) == nil)
        #expect(refused.contains { if case .error = $0.event { true } else { false } })
        let asked = session.handle(line(#"{"type":"validActions","id":"v","ifChanged":true}"#))
        #expect(validActions(asked) != nil)
    }

    @Test func validActionsCoverRotorsCustomActionsAndTextFields() {
        let session = Support.session()
        _ = session.start()
        let ids = ["stones-memory", "vault-iron", "workshop-forge"]
        let chapters = [2, 3, 4]
        for (chapter, id) in zip(chapters, ids) {
            let store = InMemorySaveStore(
                SaveData(
                    adventureID: Support.adventure.id,
                    completed: Support.adventure.chapters.prefix(chapter - 1).flatMap { $0.levels.map(\.id) },
                    current: id
                )
            )
            let game = Support.session(store: store)
            _ = game.start()
            let actions = validActions(game.handle(line(#"{"type":"validActions"}"#))) ?? []
            switch chapter {
            case 2:
                #expect(actions.contains { $0.needsText && $0.element == "answer" })
            case 3:
                #expect(actions.contains { $0.command == .rotorItem(.next) && $0.element == "door" })
            default:
                #expect(actions.contains { $0.command == .action(.name("Pump")) && $0.element == "bellows" })
            }
        }
    }

    @Test func aGestureAimedAtAnElementFocusesItFirstAndIsAllOrNothing() throws {
        let save = SaveData(
            adventureID: Support.adventure.id,
            completed: Support.adventure.chapters.prefix(3).flatMap { $0.levels.map(\.id) },
            current: "workshop-forge"
        )
        let session = Support.session(store: InMemorySaveStore(save))
        _ = session.start()
        let refused = session.handle(line(#"{"type":"action","name":"Juggle","element":"bellows","id":1}"#))
        #expect(refused.contains { if case .error = $0.event { true } else { false } })
        #expect(session.engine.focus.element.id == "title")
        let done = session.handle(line(#"{"type":"action","name":"Pump","element":"bellows","id":2}"#))
        #expect(session.engine.focus.element.id == "bellows")
        #expect(
            done.contains {
                if case .game(.announce(let said)) = $0.event {
                    said.text == "Air rushes into the forge."
                } else {
                    false
                }
            }
        )
    }

    @Test func aBatchRunsInOrderAndIsSettledByOneDone() {
        let session = Support.session()
        _ = session.start()
        let events = session.handle(
            line(#"{"type":"batch","id":"b","commands":[{"type":"next"},{"type":"fly"},{"type":"next"}]}"#)
        )
        // An unknown command inside is refused as the whole line is: nothing runs.
        #expect(events.count == 2)
        #expect(
            events.first.map { if case .error(let error) = $0.event { error.code == .unknownCommand } else { false } }
                == true
        )
        #expect(events.last?.event == .done)
        let good = session.handle(
            line(
                #"{"type":"batch","id":"b","commands":[{"type":"next"},{"type":"focus","element":"nowhere"},{"type":"last"}]}"#
            )
        )
        #expect(good.filter { $0.event == .done }.count == 1)
        #expect(good.allSatisfy { $0.replyTo == .string("b") })
        #expect(
            good.contains {
                if case .error(let error) = $0.event {
                    error.code == .notNow || error.code == .invalidParams
                } else {
                    false
                }
            }
        )
        // All or nothing: the focus did not move.
        #expect(session.engine.focus.element.id == "title")
        #expect(good.map(\.event).count == 2)
        let quit = session.handle(line(#"{"type":"batch","id":"q","commands":[{"type":"quit"},{"type":"next"}]}"#))
        #expect(quit.map(\.event).suffix(2) == [.done, .bye])
        #expect(session.isFinished)
    }

    @Test func aRestoredSnapshotGivesByteIdenticalEvents() throws {
        let commands = try exampleCommands
        for split in [10, 30, 45] {
            let original = Support.session()
            _ = original.start()
            for command in commands.prefix(split) { _ = original.handle(line(command)) }
            let snapshot = original.handle(line(#"{"type":"snapshot","id":"s"}"#))
            guard case .snapshot(let blob) = snapshot.first?.event else {
                Issue.record("no snapshot event")
                return
            }
            var expected: [StampedEvent] = []
            for command in commands.dropFirst(split) { expected += original.handle(line(command)) }
            expected += original.finish()

            let restored = Support.session()
            _ = restored.start()
            let answer = restored.handle(line(#"{"type":"restore","id":"s","blob":"\#(blob)"}"#))
            #expect(answer.map(\.event) == [.done])
            #expect(answer.last?.seq == snapshot.last?.seq)
            var replayed: [StampedEvent] = []
            for command in commands.dropFirst(split) { replayed += restored.handle(line(command)) }
            replayed += restored.finish()
            #expect(encoded(replayed) == encoded(expected), "split at \(split)")
        }
    }

    @Test func anAlteredOrForeignSnapshotIsRefusedAndChangesNothing() throws {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(line(#"{"type":"next"}"#))
        guard case .snapshot(let blob) = session.handle(line(#"{"type":"snapshot"}"#)).first?.event else {
            Issue.record("no snapshot event")
            return
        }
        let other = Support.session()
        _ = other.start()
        let generation = other.engine.generation
        var altered = Array(blob)
        let index = altered.index(altered.startIndex, offsetBy: 40)
        altered[index] = altered[index] == "A" ? "B" : "A"
        for bad in [
            String(altered), blob.replacingOccurrences(of: "efb-snapshot-1.", with: "efb-snapshot-9."), "nonsense",
        ] {
            let events = other.handle(line(#"{"type":"restore","blob":"\#(bad)"}"#))
            guard case .error(let error) = events.first?.event else {
                Issue.record("\(bad.prefix(20)) was accepted")
                continue
            }
            #expect(error.code == .badSnapshot)
            #expect(other.engine.generation == generation)
        }
    }

    @Test func endedSaysHowAndWhetherTheGameWasCutShort() {
        let session = Support.session()
        _ = session.start()
        #expect(session.finish().first?.event == .ended(reason: .eof, cutShort: true))
    }
}
