// SPDX-License-Identifier: Apache-2.0
package import EscapeProtocol

/// A way of playing that the ``EventLoop`` drives: it reads what the player does and shows the game.
///
/// A front end is a thin adapter: bytes or keys in, rendering out. It never blocks and never sleeps;
/// the loop waits for it on its ``descriptors`` and its ``deadline``, and hands what it submits to
/// the session. It does not cross threads.
package protocol FrontEnd: AnyObject {
    /// The file descriptors whose input wakes the loop (standard input, a display's socket).
    var descriptors: [Int32] { get }
    /// The descriptors whose input becomes commands for the game (by default all of ``descriptors``):
    /// the loop stops reading them while the game can take no more (``GameHost/acceptsInput``), so a
    /// flood of lines during a real-clock `wait` waits in the kernel, not in memory.
    var commandDescriptors: [Int32] { get }
    /// The file descriptors it has output waiting for: the loop wakes when one can take more, and
    /// ``flush(now:)`` writes what it can.
    var writeDescriptors: [Int32] { get }
    /// When the front end next wants ``service(readable:now:submit:)`` with nothing to read, on the
    /// loop's clock (a message timing out, a reconnection); `nil` for never.
    var deadline: Int64? { get }
    /// Whether the game may start: the loop starts the session once it is (a Braille display is
    /// connected).
    var isReady: Bool { get }
    /// Whether the output went away (a closed pipe): the loop then ends.
    var isClosed: Bool { get }
    /// Whether the front end still has something to show once the game finished (a display saying
    /// that the shared game ended, until a key or its time is up): the loop goes on waiting on its
    /// ``descriptors`` and ``deadline`` and servicing it, submitting nothing, until this is `false`
    /// or a stop signal comes.
    var lingers: Bool { get }
    /// The most time, in milliseconds, its last output (`bye`) may take to reach outputs that take it
    /// slowly once the game finished; what is still unwritten then is dropped.
    var finishingMilliseconds: Int64 { get }
    /// What the front end says right after the session's opening (its `hello`, say).
    func opening() -> [SessionInput]
    /// Reads what is ready and does what is due, submitting what the player did.
    ///
    /// `submit` hands one input to the session at once: its events reach ``show(_:now:)`` before
    /// `submit` returns, so the next key is read against what the player now has.
    ///
    /// - Parameters:
    ///   - readable: Which of the ``descriptors`` have input (or hung up).
    ///   - now: The loop's clock.
    ///   - submit: Hands an input to the session.
    func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void)
    /// Told that held command descriptors (not read while the game took no more input) will end: a pipe
    /// or socket that hung up, or a regular file. A pending real-clock `wait` sent on them then ends,
    /// as at the end of the input; by default all of the front end's input is taken to end
    /// (``SessionInput/inputEnds(from:)`` for every client).
    ///
    /// - Parameters:
    ///   - descriptors: The held ``commandDescriptors`` whose input will end.
    ///   - now: The loop's clock.
    ///   - submit: Hands an input to the session.
    func heldInputEnds(_ descriptors: Set<Int32>, now: Int64, submit: (SessionInput) -> Void)
    /// Takes the session's events: renders or queues them. Nothing needs to reach the output before
    /// ``flush(now:)``.
    func show(_ events: [StampedEvent], now: Int64)
    /// Takes a snapshot the session in this process took as a value for `request`
    /// (``SessionInput/keepingSnapshot(for:then:)``), as the session takes it.
    func keep(_ snapshot: KeptSnapshot, for request: RequestID?)
    /// Writes out everything shown since the last flush; the loop calls it before it waits.
    func flush(now: Int64)
    /// Tells the player, in one line, of a problem of its own that does not stop the game (a sound
    /// player that failed): shown like the game's lines, so it never lands on a half-typed line.
    func tell(_ problem: String)
}

extension FrontEnd {
    /// Keeps no snapshot: the front end asks for none.
    package func keep(_ snapshot: KeptSnapshot, for request: RequestID?) {}
    /// All of its input descriptors.
    package var commandDescriptors: [Int32] { descriptors }
    /// Writes everything at once: nothing waits for an output.
    package var writeDescriptors: [Int32] { [] }
    /// No deadline of its own.
    package var deadline: Int64? { nil }
    /// Ready from the start.
    package var isReady: Bool { true }
    /// Done when the game is.
    package var lingers: Bool { false }
    /// Five seconds for the last output.
    package var finishingMilliseconds: Int64 { 5000 }
    /// All of its input ends: a pending `wait` is cut short, and reading goes on to the end.
    package func heldInputEnds(_ descriptors: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        submit(.inputEnds())
    }
    /// Says nothing of its own after the opening.
    package func opening() -> [SessionInput] { [] }
    /// On standard error, a line of its own.
    package func tell(_ problem: String) {
        _ = FileOutput(descriptor: 2).write(Array((problem + "\n").utf8))
    }
}
