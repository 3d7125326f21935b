// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import Foundation
import Testing

/// Every event a real session sends decodes back to itself: what a client of `efb serve` relies on.
struct EventRoundTripTests {
    @Test(arguments: [
        "full-game-1.1.commands.ndjson", "full-game.commands.ndjson", "bot-features.commands.ndjson",
        "chapters-1.2.commands.ndjson", "dials-1.3.commands.ndjson",
    ])
    func everyEventOfAPlayedGameDecodesBackToItself(commands: String) throws {
        let input = try Array(Data(contentsOf: Support.examples.appendingPathComponent(commands)))
        let host = Support.session()
        var events = host.start()
        var framer = LineFramer()
        var frames = framer.feed(input)
        if let last = framer.finish() { frames.append(last) }
        for frame in frames where !host.isFinished { events += host.handle(frame) }
        events += host.finish()
        #expect(events.contains { $0.event == .bye })
        for stamped in events {
            var line: [UInt8] = []
            EventEncoder.encode(stamped, into: &line)
            let decoded = try EventDecoder.decode(line.dropLast(), protocolMinor: stamped.protocolMinor)
            var again: [UInt8] = []
            EventEncoder.encode(decoded, into: &again)
            #expect(again == line)
            #expect(decoded.event == Self.onTheWire(stamped))
            #expect(decoded.seq == stamped.seq && decoded.replyTo == stamped.replyTo)
            #expect(decoded.protocolMinor == stamped.protocolMinor)
            if stamped.protocolMinor >= 1 {
                var said = stamped
                said.event = Self.onTheWire(stamped)
                #expect(decoded == said)
            }
        }
    }

    /// The event as its line says it: protocol 1.0 leaves out the level on screen, and versions before 1.3
    /// an adjustable element's range.
    private static func onTheWire(_ stamped: StampedEvent) -> Event {
        func withoutRange(_ element: Element) -> Element {
            var element = element
            element.range = nil
            return element
        }
        switch stamped.event {
        case .progress(var summary, let saved) where stamped.protocolMinor == 0:
            summary.onScreen = nil
            return .progress(summary, saved: saved)
        case .game(.screen(var screen)) where stamped.protocolMinor < 3:
            screen.elements = screen.elements.map(withoutRange)
            return .game(.screen(screen))
        case .game(.focus(var focus)) where stamped.protocolMinor < 3:
            focus.element = withoutRange(focus.element)
            return .game(.focus(focus))
        case .game(.elementChanged(let element)) where stamped.protocolMinor < 3:
            return .game(.elementChanged(withoutRange(element)))
        default:
            return stamped.event
        }
    }
}
