// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Foundation
import Testing

/// `observe`: the game as one plain text, with what was said and heard since the last time asked
/// (Protocol/README.md, section 4.16).
@Suite struct ObserveTests {
    private func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

    /// Every event type `hello`'s `omit` can leave out.
    private static let gameEvents =
        #"["sound","result","announce","screen","focus","elementChanged","rotor","actions","timer","progress","idle"]"#

    private func observation(_ events: [StampedEvent]) -> Observation? {
        for event in events.reversed() {
            if case .observation(let observation) = event.event { return observation }
        }
        return nil
    }

    @Test func theTextShowsTheScreenTheFocusTheProgressAndTheActions() throws {
        let session = Support.session()
        _ = session.start()
        let first = try #require(observation(session.handle(line(#"{"type":"observe","id":1}"#))))
        #expect(first.screen == "intro-1")
        #expect(first.kind == .intro)
        #expect(first.focus == "title")
        #expect(first.completed == 0 && first.total == 25)
        let lines = first.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "screen: Darkness (intro)")
        #expect(lines[1] == "> Darkness [header]")
        #expect(lines[2].hasPrefix("  You wake on cold stone."))  // (static text: no traits shown)
        #expect(lines[3] == "  Continue [button]")
        #expect(
            Array(lines[4...]) == [
                "solved: 0/25", "actions:", "0: Continue", "1: Continue", "2: Skip the introduction",
            ]
        )
        // What the session said before the first observe is heard: the opening screen's texts.
        #expect(first.heard.first == "Darkness")
        #expect(first.heard.contains("Continue"))
        // The focus moves the mark; maxActions cuts the list; nothing was said or heard since.
        let second = try #require(
            observation(
                session.handle(
                    line(#"{"type":"batch","commands":[{"type":"last"},{"type":"observe","maxActions":1}]}"#)
                )
            )
        )
        #expect(second.text.hasSuffix("\n> Continue [button]\nsolved: 0/25\nactions:\n0: Continue"))
        #expect(second.heard.isEmpty)
        #expect(second.focus == "continue")
    }

    @Test func whatWasSaidComesOnceAndErrorsAreSaidToo() throws {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(line(#"{"type":"observe"}"#))
        _ = session.handle(line(#"{"type":"escape"}"#))  // (skips the introduction: a chapter page)
        _ = session.handle(line(#"{"type":"activate","element":"begin"}"#))
        _ = session.handle(line(#"{"type":"activate","element":"moonlight"}"#))
        _ = session.handle(line(#"{"type":"activate","element":"nowhere"}"#))
        let seen = try #require(observation(session.handle(line(#"{"type":"observe"}"#))))
        let said = try #require(
            seen.text.components(separatedBy: "\nsaid:\n").last?.components(separatedBy: "\nactions:").first
        )
        #expect(said.hasPrefix("- No moonlight reaches this deep."))
        #expect(said.contains("\n- error: "))
        #expect(seen.heard.contains("The First Door"))
        #expect(seen.heard.contains("No moonlight reaches this deep. The door stays shut."))
        let again = try #require(observation(session.handle(line(#"{"type":"observe"}"#))))
        #expect(!again.text.contains("said:"))
        #expect(again.heard.isEmpty)
    }

    @Test func theObservationsAreTheSameWhenEveryGameEventIsLeftOut() throws {
        // The example game twice, an observe after every command: once with every event, once with
        // a hello that leaves out every game event. The second sends only the protocol's events and
        // the same observations.
        let text = try String(
            contentsOf: Support.examples.appendingPathComponent("full-game.commands.ndjson"),
            encoding: .utf8
        )
        let commands = text.split(separator: "\n").map(String.init).filter { !$0.contains(#""type":"quit""#) }
        let full = Support.session()
        let lean = Support.session()
        _ = full.start()
        _ = lean.start()
        var fullSeen: [Observation] = []
        var leanSeen: [Observation] = []
        var leanTypes: Set<String> = []
        for command in commands {
            _ = full.handle(line(command))
            let asked = command.replacingOccurrences(
                of: #"{"type":"hello","#,
                with: #"{"type":"hello","omit":\#(Self.gameEvents),"#
            )
            for event in lean.handle(line(asked)) {
                leanTypes.insert(Self.type(of: event.event))
            }
            fullSeen += [observation(full.handle(line(#"{"type":"observe"}"#)))].compactMap { $0 }
            let events = lean.handle(line(#"{"type":"observe"}"#))
            leanSeen += [observation(events)].compactMap { $0 }
        }
        #expect(fullSeen.count == commands.count)
        #expect(leanSeen == fullSeen)
        #expect(fullSeen.last?.kind == .end)
        #expect(fullSeen.last?.completed == 25)
        // Before its hello the lean game sent the opening as usual; after it, no game event.
        #expect(leanTypes.isSubset(of: ["hello", "done", "error", "validActions", "ended", "snapshot"]))
    }

    @Test func aRefusedBatchTakesBackWhatItGatheredAndSaysItsError() throws {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(line(#"{"type":"observe"}"#))
        let refused = session.handle(
            line(#"{"type":"batch","commands":[{"type":"magicTap"},{"type":"activate","element":"nowhere"}]}"#)
        )
        #expect(refused.contains { if case .error = $0.event { true } else { false } })
        let seen = try #require(observation(session.handle(line(#"{"type":"observe"}"#))))
        #expect(seen.screen == "intro-1")
        #expect(seen.heard.isEmpty)  // (the next page's texts were taken back with the batch)
        let said = seen.text.components(separatedBy: "\nsaid:\n").last ?? ""
        #expect(said.hasPrefix("- error: commands[1]: "))
        #expect(said.components(separatedBy: "\n- ").count == 1)
    }

    @Test func whatIsKeptBetweenTwoObservationsIsBounded() throws {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(line(#"{"type":"observe"}"#))
        for _ in 0..<300 { _ = session.handle(line(#"{"type":"activate","element":"nowhere"}"#)) }
        let seen = try #require(observation(session.handle(line(#"{"type":"observe"}"#))))
        let said =
            seen.text.components(separatedBy: "\nsaid:\n").last?.components(separatedBy: "\nactions:").first ?? ""
        #expect(said.components(separatedBy: "\n").count == 256)
        #expect(seen.heard.count <= 256)
    }

    private static func type(of event: Event) -> String {
        switch event {
        case .hello: "hello"
        case .game: "game"
        case .progress: "progress"
        case .error: "error"
        case .done: "done"
        case .bye: "bye"
        case .ended: "ended"
        case .validActions: "validActions"
        case .observation: "observation"
        case .snapshot: "snapshot"
        case .idle: "idle"
        case .role: "role"
        }
    }
}
