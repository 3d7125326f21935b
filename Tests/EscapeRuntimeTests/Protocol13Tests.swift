// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Protocol 1.3: an adjustable element's `range`, and `adjust` to its first or last value; neither is
/// seen by a client of an older version.
@Suite struct Protocol13Tests {
    /// A session on the authoring guide's last level: two wheels of digits, 0 to 9, both at 0.
    private func atTheWheels(hello: String?) -> SessionHost {
        let save = SaveData(
            adventureID: TimedAndDialsTests.adventure.id,
            completed: ["room-latch", "room-word", "room-dial", "room-shelf"],
            current: "room-wheels"
        )
        let session = SessionHost(
            adventure: TimedAndDialsTests.adventure,
            options: EngineOptions(hintInterval: 30_000, seed: 1, timePressure: false),
            store: InMemorySaveStore(save),
            clock: VirtualClock()
        )
        _ = session.start()
        if let hello { _ = send(session, hello) }
        return session
    }

    private static let hello13 = #"{"type":"hello","protocol":[1,3]}"#

    @discardableResult
    private func send(_ session: SessionHost, _ text: String) -> [StampedEvent] {
        session.handle(.line(Array(text.utf8)))
    }

    /// The lines the events are written as.
    private func lines(_ events: [StampedEvent]) -> [String] {
        var bytes: [UInt8] = []
        EventEncoder.encode(events, into: &bytes)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The left wheel as the engine has it now.
    private func leftWheel(_ session: SessionHost) -> Element? {
        session.engine.screen.elements.first { $0.id == "left-wheel" }
    }

    /// The left wheel as the last `elementChanged` of `events` says it.
    private func changed(_ events: [StampedEvent]) -> Element? {
        events.compactMap { if case .game(.elementChanged(let element)) = $0.event { element } else { nil } }.last
    }

    private func errors(_ events: [StampedEvent]) -> [ProtocolError] {
        events.compactMap { if case .error(let error) = $0.event { error } else { nil } }
    }

    private func said(_ events: [StampedEvent]) -> [String] {
        events.compactMap {
            if case .game(.announce(let said)) = $0.event, said.category == .feedback { said.text } else { nil }
        }
    }

    @Test func theRangeSaysThePlaceAmongTheValuesAtBothEndsAndWraps() {
        let session = atTheWheels(hello: Self.hello13)
        #expect(leftWheel(session)?.range == ElementRange(position: 1, count: 10))
        var events = send(session, #"{"type":"adjust","element":"left-wheel","direction":"decrement"}"#)
        #expect(changed(events)?.value == "9")
        #expect(changed(events)?.range == ElementRange(position: 10, count: 10))
        #expect(lines(events).contains { $0.contains(#""range":{"count":10,"position":10}"#) })
        events = send(session, #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#)
        #expect(changed(events)?.value == "0")
        #expect(changed(events)?.range == ElementRange(position: 1, count: 10))
        events = send(session, #"{"type":"adjust","direction":"increment"}"#)
        #expect(changed(events)?.range == ElementRange(position: 2, count: 10))
    }

    @Test func firstAndLastGoToTheEndsAndSayTheValue() {
        let session = atTheWheels(hello: Self.hello13)
        var events = send(session, #"{"type":"adjust","element":"left-wheel","direction":"last","id":1}"#)
        #expect(errors(events).isEmpty)
        #expect(said(events) == ["9"])
        #expect(events.contains { if case .game(.sound(.dial)) = $0.event { true } else { false } })
        #expect(changed(events)?.value == "9")
        #expect(changed(events)?.range == ElementRange(position: 10, count: 10))
        // Already at the last value: it says it again, and stays.
        events = send(session, #"{"type":"adjust","direction":"last"}"#)
        #expect(said(events) == ["9"])
        events = send(session, #"{"type":"adjust","direction":"first"}"#)
        #expect(said(events) == ["0"])
        #expect(leftWheel(session)?.value == "0")
        #expect(leftWheel(session)?.range == ElementRange(position: 1, count: 10))
        // In a batch too, and the lock opens at 4 and 2.
        events = send(
            session,
            #"{"type":"batch","commands":[{"type":"adjust","element":"right-wheel","direction":"last"},"#
                + #"{"type":"adjust","direction":"decrement"},{"type":"adjust","direction":"decrement"},"#
                + #"{"type":"adjust","direction":"decrement"},{"type":"adjust","direction":"decrement"},"#
                + #"{"type":"adjust","direction":"decrement"},{"type":"adjust","direction":"decrement"},"#
                + #"{"type":"adjust","direction":"decrement"},"#
                + #"{"type":"adjust","element":"left-wheel","direction":"first"},"#
                + #"{"type":"adjust","direction":"increment"},{"type":"adjust","direction":"increment"},"#
                + #"{"type":"adjust","direction":"increment"},{"type":"adjust","direction":"increment"}]}"#
        )
        #expect(errors(events).isEmpty)
        #expect(session.engine.screen.elements.compactMap(\.value) == ["4", "2"])
        send(session, #"{"type":"magicTap"}"#)
        #expect(session.engine.screen.kind == .end)
    }

    @Test(arguments: [
        nil, #"{"type":"hello","protocol":1}"#, #"{"type":"hello","protocol":[1,1]}"#,
        #"{"type":"hello","protocol":[1,2]}"#,
    ])
    func beforeThirteenFirstAndLastAreABadDirection(hello: String?) {
        let session = atTheWheels(hello: hello)
        for (line, field, message) in [
            (
                #"{"type":"adjust","element":"left-wheel","direction":"first","id":5}"#, "direction",
                "direction must be increment or decrement"
            ),
            (#"{"type":"adjust","direction":"last","id":5}"#, "direction", "direction must be increment or decrement"),
            (#"{"type":"adjust","direction":"up","id":5}"#, "direction", "direction must be increment or decrement"),
            (
                #"{"type":"batch","id":5,"commands":[{"type":"next"},{"type":"adjust","direction":"last"}]}"#,
                "commands[1].direction", "commands[1]: direction must be increment or decrement"
            ),
        ] {
            let generation = session.engine.generation
            let events = send(session, line)
            #expect(errors(events).map(\.code) == [.invalidParams], "\(line)")
            #expect(errors(events).map(\.field) == [field], "\(line)")
            #expect(errors(events).map(\.message) == [message], "\(line)")
            #expect(events.allSatisfy { $0.replyTo == .int(5) }, "\(line)")
            #expect(session.engine.generation == generation, "nothing happened: \(line)")
        }
        #expect(leftWheel(session)?.value == "0")
    }

    @Test func in13ABadDirectionNamesTheFour() {
        let session = atTheWheels(hello: Self.hello13)
        let events = send(session, #"{"type":"adjust","direction":"up"}"#)
        #expect(errors(events).map(\.message) == ["direction must be increment or decrement or first or last"])
        #expect(errors(events).map(\.field) == ["direction"])
    }

    @Test(arguments: [
        nil, #"{"type":"hello","protocol":1}"#, #"{"type":"hello","protocol":[1,1]}"#,
        #"{"type":"hello","protocol":[1,2]}"#,
    ])
    func beforeThirteenNoEventCarriesARange(hello: String?) {
        let session = atTheWheels(hello: hello)
        var all = send(session, #"{"type":"state"}"#)
        all += send(session, #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#)
        all += send(session, #"{"type":"next"}"#)
        all += send(session, #"{"type":"validActions"}"#)
        let text = lines(all)
        #expect(text.contains { $0.contains(#""id":"left-wheel""#) })
        #expect(!text.contains { $0.contains("range") }, "\(text)")
        // Valid actions step, in every version: bots keep the action space they know.
        #expect(!text.contains { $0.contains(#""direction":"first""#) || $0.contains(#""direction":"last""#) })
    }

    @Test func everyEventThatCarriesADialCarriesItsRangeIn13() {
        let session = atTheWheels(hello: Self.hello13)
        let all = send(session, #"{"type":"state"}"#)
        let wheels = lines(all).filter { $0.contains(#""id":"left-wheel""#) }
        #expect(!wheels.isEmpty)
        #expect(
            wheels.allSatisfy {
                $0.contains(
                    #""id":"left-wheel","label":"Left wheel","range":{"count":10,"position":1},"traits":["adjustable"],"value":"0"}"#
                )
            }
        )
        let focused = send(session, #"{"type":"focus","element":"right-wheel"}"#)
        #expect(
            lines(focused).contains {
                $0.contains(#""type":"focus""#) && $0.contains(#""range":{"count":10,"position":1}"#)
            }
        )
        // The hello says so.
        let hello = send(session, Self.hello13)
        #expect(lines(hello).contains { $0.contains(#""ranges""#) && $0.contains(#""version":[1,3]"#) })
        let older = send(session, #"{"type":"hello","protocol":[1,2]}"#)
        #expect(!lines(older).contains { $0.contains(#""ranges""#) })
        #expect(lines(older).contains { $0.contains(#""versions":[[1,0],[1,1],[1,2],[1,3]]"#) })
    }
}
