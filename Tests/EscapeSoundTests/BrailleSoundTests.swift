// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import EscapeSound
import Testing

/// The Braille front end wrapped for sound, in process: a display of our own, the player's processes faked.
struct BrailleSoundTests {
    /// A display that hands out scripted keys and shows nothing anyone reads.
    final class ScriptedDisplay: BrailleDisplay, BrailleConnector {
        var keys: [BrailleKey]
        let size = DisplaySize(columns: 40)
        var fileDescriptor: Int32? { nil }

        init(keys: [BrailleKey]) {
            self.keys = keys
        }

        func connect() throws(BrailleError) -> any BrailleDisplay { self }
        func write(_ frame: BrailleFrame) throws(BrailleError) {}
        func readKey() throws(BrailleError) -> BrailleKey? { keys.isEmpty ? nil : keys.removeFirst() }
        func refreshSize() throws(BrailleError) -> DisplaySize { size }
    }

    /// A clock that moves one millisecond each time it is read.
    final class SteppingClock: GameClock {
        private var time: Int64 = 0
        var isVirtual: Bool { true }

        func now() -> Int64 {
            time += 1
            return time
        }
    }

    @Test func theBrailleFrontEndPlaysTheGamesSounds() throws {
        let host = SessionHost(
            adventure: try AdventureLoader.bundled(locale: "en"),
            options: EngineOptions(seed: 1),
            store: InMemorySaveStore(),
            clock: VirtualClock()
        )
        // LNUP at the first element bumps; BACK (escape) skips the introduction to the first chapter.
        let display = ScriptedDisplay(keys: [.command(.lineUp), .command(.back)])
        let clock = SteppingClock()
        let processes = FakeProcesses()
        let player = SoundPlayer(
            command: PlayerCommand(arguments: ["/usr/bin/player"], name: "player"),
            pack: SoundPackTests.pack,
            processes: processes,
            report: { _ in }
        )
        let braille = BrailleFrontEnd(
            connector: display,
            clock: clock,
            options: BrailleFrontEnd.Options(reconnectInitial: 1, reconnectMaximum: 2, sizeCheckInterval: 3),
            log: { _ in }
        )
        var turns = 0
        let outcome = EventLoop(host: host, frontEnd: SoundFrontEnd(braille, player: player), clock: clock) {
            turns += 1
            return processes.started.count >= 3 || turns > 2000
        }.run()
        #expect(outcome == .paused)
        let pack = SoundPackTests.pack
        #expect(
            processes.files == [
                pack.file(for: .boundary), pack.file(for: .chapter), pack.file(for: SoundPlayerTests.water),
            ]
        )
        player.stop()
        #expect(processes.running.isEmpty)
    }
}
