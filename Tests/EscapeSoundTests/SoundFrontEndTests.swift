// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSound
import Testing

/// The wrapper: sounds to the player, everything to the wrapped front end, the nearer deadline.
struct SoundFrontEndTests {
    /// A front end that keeps what it is given.
    final class RecordingFrontEnd: FrontEnd {
        var shown: [StampedEvent] = []
        var serviced: [Set<Int32>] = []
        var flushes = 0
        var deadline: Int64? = 10_000
        var descriptors: [Int32] { [7] }
        var isReady: Bool { false }
        var isClosed: Bool { true }

        func opening() -> [SessionInput] { [.endOfInput] }
        func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) { serviced.append(readable) }
        func show(_ events: [StampedEvent], now: Int64) { shown += events }
        func flush(now: Int64) { flushes += 1 }
    }

    @Test func soundsGoToThePlayerAndEverythingToTheWrappedFrontEnd() throws {
        let processes = FakeProcesses()
        let player = SoundPlayer(
            command: PlayerCommand(arguments: ["/usr/bin/player"], name: "player"),
            pack: SoundPackTests.pack,
            processes: processes,
            report: { _ in }
        )
        let wrapped = RecordingFrontEnd()
        let frontEnd = SoundFrontEnd(wrapped, player: player)
        #expect(frontEnd.descriptors == [7])
        #expect(!frontEnd.isReady)
        #expect(frontEnd.isClosed)
        #expect(frontEnd.opening() == [.endOfInput])
        #expect(frontEnd.deadline == 10_000)

        let events: [StampedEvent] = [
            StampedEvent(seq: 1, replyTo: nil, generation: 1, event: .game(.ambient(SoundPlayerTests.water))),
            StampedEvent(seq: 2, replyTo: nil, generation: 1, event: .game(.sound(.chapter))),
            StampedEvent(seq: 3, replyTo: nil, generation: 1, event: .done),
        ]
        frontEnd.show(events, now: 0)
        #expect(wrapped.shown == events)
        #expect(
            processes.files == [
                SoundPackTests.pack.file(for: SoundPlayerTests.water), SoundPackTests.pack.file(for: .chapter),
            ]
        )
        // The chapter cue ends within a second, before the wrapped front end's deadline.
        let deadline = try #require(frontEnd.deadline)
        #expect(deadline > 0 && deadline < 1000)
        processes.end(102)
        frontEnd.service(readable: [7], now: deadline, submit: { _ in })
        #expect(wrapped.serviced == [[7]])
        #expect(player.playingCues == 0)
        frontEnd.flush(now: deadline)
        #expect(wrapped.flushes == 1)

        frontEnd.show([StampedEvent(seq: 4, replyTo: nil, generation: 1, event: .bye)], now: deadline)
        #expect(processes.stopped == [101])
        #expect(player.currentAmbience == nil)
        #expect(frontEnd.deadline == 10_000)
    }
}
