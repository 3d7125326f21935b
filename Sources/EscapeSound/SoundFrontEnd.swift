// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

/// A front end that also plays the game's sounds: it hands every `sound` event to a ``SoundPlayer``
/// and passes everything on to the front end it wraps.
///
/// The console and the Braille display are wrapped in one when the player asks for sound; neither
/// knows. The player's ``SoundPlayer/deadline`` joins the wrapped front end's, so the ``EventLoop``
/// wakes to reap a finished sound or to start an ambience again, and never waits for one. The owner
/// calls ``SoundPlayer/stop()`` once the loop has ended.
package final class SoundFrontEnd: FrontEnd {
    private let wrapped: any FrontEnd
    /// The player.
    package let player: SoundPlayer

    /// Wraps `frontEnd`.
    ///
    /// - Parameters:
    ///   - frontEnd: The front end that reads the player and shows the game.
    ///   - player: Plays the sounds; it must use the loop's clock.
    package init(_ frontEnd: any FrontEnd, player: SoundPlayer) {
        self.wrapped = frontEnd
        self.player = player
        // The player's failure is told by the front end, as its own lines are.
        player.report = { [wrapped] problem in wrapped.tell(problem) }
    }

    /// The wrapped front end's.
    package var descriptors: [Int32] { wrapped.descriptors }

    /// The wrapped front end's.
    package var writeDescriptors: [Int32] { wrapped.writeDescriptors }

    /// The nearer of the wrapped front end's and the player's.
    package var deadline: Int64? {
        [wrapped.deadline, player.deadline].compactMap { $0 }.min()
    }

    /// The wrapped front end's.
    package var isReady: Bool { wrapped.isReady }

    /// The wrapped front end's.
    package var isClosed: Bool { wrapped.isClosed }

    /// The wrapped front end's.
    package func opening() -> [SessionInput] { wrapped.opening() }

    /// Lets the player do what is due, then the wrapped front end.
    package func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        player.service(now: now)
        wrapped.service(readable: readable, now: now, submit: submit)
    }

    /// Plays the sounds among `events`, then hands them all to the wrapped front end.
    ///
    /// `bye` stops the ambience.
    package func show(_ events: [StampedEvent], now: Int64) {
        for stamped in events {
            if case .game(.sound(let cue)) = stamped.event {
                player.play(cue, now: now)
            } else if case .game(.ambient(let ambience)) = stamped.event {
                player.loop(ambience, now: now)
            } else if stamped.event == .bye {
                player.stopAmbience()
            }
        }
        wrapped.show(events, now: now)
    }

    /// The wrapped front end's.
    package func flush(now: Int64) {
        wrapped.flush(now: now)
    }

    /// The wrapped front end's.
    package func tell(_ problem: String) {
        wrapped.tell(problem)
    }
}
