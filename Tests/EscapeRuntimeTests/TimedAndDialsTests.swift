// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// The dials lock and the torch's clock, on the authoring guide's example (its last level is both).
@Suite struct TimedAndDialsTests {
    static let adventure: Adventure = {
        do {
            return try AdventureLoader.load(
                path: packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path
            )
        } catch {
            fatalError("the example adventure must load: \(error)")
        }
    }()

    /// A session on the example's last level, the timed lock of two wheels.
    private func atTheWheels(timePressure: Bool = true) -> (SessionHost, [StampedEvent]) {
        let save = SaveData(
            adventureID: Self.adventure.id,
            completed: ["room-latch", "room-word", "room-dial", "room-shelf"],
            current: "room-wheels"
        )
        let session = SessionHost(
            adventure: Self.adventure,
            options: EngineOptions(hintInterval: 30_000, seed: 1, timePressure: timePressure),
            store: InMemorySaveStore(save),
            clock: VirtualClock()
        )
        return (session, session.start())
    }

    private func send(_ session: SessionHost, _ text: String) -> [StampedEvent] {
        session.handle(.line(Array(text.utf8)))
    }

    private func said(_ events: [StampedEvent]) -> [String] {
        events.compactMap {
            if case .game(.announce(let said)) = $0.event, said.category == .feedback { said.text } else { nil }
        }
    }

    private func sounds(_ events: [StampedEvent]) -> [SoundCue] {
        events.compactMap { if case .game(.sound(let cue)) = $0.event { cue } else { nil } }
    }

    /// The mark asked before every command is the list's, for every limit and place (and none past it).
    @Test func eachTimeMarkIsTheListsMark() {
        for limit in -5...400 {
            let marks = Engine.timeMarks(limit: limit)
            for index in -1...(marks.count + 1) {
                let expected = marks.indices.contains(index) ? marks[index] : nil
                #expect(Engine.timeMark(limit: limit, at: index) == expected, "limit \(limit), index \(index)")
            }
        }
    }

    @Test func theTimeLeftIsSaidAtTheDocumentedMoments() {
        #expect(Engine.timeMarks(limit: 75) == [60, 45, 30, 15, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
        #expect(Engine.timeMarks(limit: 180) == [120, 60, 45, 30, 15, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
        let (session, _) = atTheWheels()
        var timeline: [(Int, [String], [SoundCue])] = []
        for second in 1...74 {
            let events = send(session, #"{"type":"wait","ms":1000}"#)
            let words = said(events)
            if !words.isEmpty { timeline.append((second, words, sounds(events).filter { $0 != .hint })) }
        }
        #expect(timeline.map(\.0) == [15, 30, 45, 60, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74])
        #expect(timeline.first?.1 == ["One minute of torchlight left."])
        #expect(timeline.first?.2 == [.torchLastMinute])
        #expect(timeline[1].1 == ["45 seconds of torchlight left."])
        #expect(timeline[4].1 == ["10"] && timeline[4].2 == [.torchCountdown])
        #expect(timeline.last?.1 == ["1"])
    }

    @Test func runningOutOfTimeStartsTheLevelOverNotTheGame() {
        let (session, _) = atTheWheels()
        _ = send(session, #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#)
        let events = send(session, #"{"type":"wait","ms":75000}"#)
        #expect(sounds(events).contains(.torchOut))
        #expect(said(events).contains { $0.hasPrefix("The torch gutters out.") })
        #expect(
            events.contains {
                if case .game(.screen(let screen)) = $0.event { screen.id == "level-room-wheels" } else { false }
            }
        )
        // The wheel is back at its start, the progress is untouched.
        #expect(session.engine.screen.elements.first { $0.id == "left-wheel" }?.value == "0")
        #expect(session.engine.progress.completed.count == 4)
        // And the clock starts again: one minute left, fifteen seconds into the new try.
        #expect(said(send(session, #"{"type":"wait","ms":15000}"#)) == ["One minute of torchlight left."])
    }

    @Test func hintsUnlockedBeforeTheTorchWentOutStayUnlocked() {
        let (session, _) = atTheWheels()
        // Two hints unlock, at 30 s and 60 s, and the torch goes out at 75 s.
        let events = send(session, #"{"type":"wait","ms":75000}"#)
        #expect(sounds(events).contains(.torchOut))
        func hints(_ events: [StampedEvent]) -> [String] {
            events.compactMap {
                if case .game(.announce(let said)) = $0.event, said.category == .hint { said.text } else { nil }
            }
        }
        let first = hints(send(session, #"{"type":"hint"}"#))
        #expect(first.count == 1 && first[0].hasPrefix("Hint 1 of "), "\(first)")
        let second = hints(send(session, #"{"type":"hint"}"#))
        #expect(second.count == 1 && second[0].hasPrefix("Hint 2 of "), "\(second)")
        // The next one unlocks one interval after the relight: no news of the two kept.
        #expect(hints(send(session, #"{"type":"wait","ms":15000}"#)).isEmpty)
    }

    @Test func withoutTimePressureTheTorchNeverGoesOut() {
        for (session, hello) in [
            (atTheWheels(timePressure: false).0, nil),
            (atTheWheels().0, #"{"type":"hello","protocol":1,"timePressure":false}"#),
        ] {
            if let hello { _ = send(session, hello) }
            let events = send(session, #"{"type":"wait","ms":600000}"#)
            #expect(said(events).isEmpty)
            #expect(!sounds(events).contains(.torchOut))
            #expect(session.engine.nextDeadline == nil)
        }
    }

    /// Before: turning time pressure off on a timed level sent no `timer`, so a client's countdown of
    /// the torch kept running though the torch would never go out.
    ///
    /// Now a `timer` saying the clock stands still is part of the hello's reply, in 1.1 (1.0 has no
    /// timer), whether the level is on show or paused under the menu.
    @Test(arguments: [false, true])
    func turningTimePressureOffStopsTheClientsCountdown(underTheMenu: Bool) {
        let (session, _) = atTheWheels()
        _ = send(session, #"{"type":"hello","protocol":[1,1]}"#)
        _ = send(session, #"{"type":"wait","ms":10000}"#)
        if underTheMenu { _ = send(session, #"{"type":"menu"}"#) }
        let reply = send(session, #"{"type":"hello","id":"off","protocol":[1,1],"timePressure":false}"#)
        let timers = reply.compactMap { if case .game(.timer(let timer)) = $0.event { timer } else { nil } }
        #expect(timers == [TimerState(limitMs: 75_000, remainingMs: 65_000, paused: true)])
        #expect(reply.allSatisfy { $0.replyTo == .string("off") })
        if underTheMenu { _ = send(session, #"{"type":"escape"}"#) }
        let later = send(session, #"{"type":"wait","ms":600000}"#)
        #expect(said(later).isEmpty)
        #expect(!sounds(later).contains(.torchOut))
        // Said once: a later state has no clock to report.
        let state = send(session, #"{"type":"state"}"#)
        #expect(!state.contains { if case .game(.timer) = $0.event { true } else { false } })
        // Protocol 1.0 has no timer to send.
        let (old, _) = atTheWheels()
        let oldReply = send(old, #"{"type":"hello","protocol":1,"timePressure":false}"#)
        #expect(!oldReply.contains { if case .game(.timer) = $0.event { true } else { false } })
    }

    @Test func theMenuPausesTheClock() {
        let (session, _) = atTheWheels()
        _ = send(session, #"{"type":"wait","ms":10000}"#)
        _ = send(session, #"{"type":"menu"}"#)
        #expect(said(send(session, #"{"type":"wait","ms":300000}"#)).isEmpty)
        _ = send(session, #"{"type":"escape"}"#)
        #expect(said(send(session, #"{"type":"wait","ms":4000}"#)).isEmpty)
        #expect(said(send(session, #"{"type":"wait","ms":1000}"#)) == ["One minute of torchlight left."])
    }

    @Test func dialsTurnBothWaysAndMagicTapTriesTheCombination() {
        let (session, opening) = atTheWheels(timePressure: false)
        let screen = opening.compactMap { if case .game(.screen(let screen)) = $0.event { screen } else { nil } }.last
        #expect(screen?.magicTap?.action == .tryPuzzle)
        #expect(screen?.elements.map(\.id) == ["title", "story", "prompt", "left-wheel", "right-wheel", "try"])
        #expect(screen?.elements.first { $0.id == "left-wheel" }?.traits == [.adjustable])
        var events = send(session, #"{"type":"adjust","element":"left-wheel","direction":"decrement"}"#)
        #expect(said(events) == ["9"])
        #expect(sounds(events) == [.dial])
        #expect(
            events.contains {
                if case .game(.focus(let focus)) = $0.event { focus.element.value == "9" } else { false }
            }
        )
        events = send(session, #"{"type":"magicTap"}"#)
        #expect(said(events) == ["The padlock stays shut."])
        for _ in 0..<5 { _ = send(session, #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#) }
        for _ in 0..<2 { _ = send(session, #"{"type":"adjust","element":"right-wheel","direction":"increment"}"#) }
        events = send(session, #"{"type":"activate","element":"try"}"#)
        #expect(said(events).first == "The padlock falls open in your hand.")
        #expect(session.engine.screen.kind == .end)
    }

    @Test func adjustingWhatIsNotADialIsRefused() {
        let (session, _) = atTheWheels()
        let events = send(session, #"{"type":"adjust","direction":"increment"}"#)
        #expect(events.contains { if case .error(let error) = $0.event { error.code == .notNow } else { false } })
    }

    @Test func aChapterWithAnAmbienceAnnouncesItOnce() throws {
        let session = SessionHost(
            adventure: Self.adventure,
            options: EngineOptions(seed: 1),
            store: InMemorySaveStore(),
            clock: VirtualClock()
        )
        _ = session.start()
        let quietRoom = try #require(Ambience("quiet-room"))
        let chapter = send(session, #"{"type":"escape"}"#)
        #expect(chapter.contains { $0.event == .game(.ambient(quietRoom)) })
        let level = send(session, #"{"type":"activate","element":"begin"}"#)
        #expect(!level.contains { $0.event == .game(.ambient(quietRoom)) })
        var bytes: [UInt8] = []
        if let ambient = chapter.first(where: { $0.event == .game(.ambient(quietRoom)) }) {
            EventEncoder.encode(ambient, into: &bytes)
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""loop":"quiet-room","name":"ambient""#))
    }
}
