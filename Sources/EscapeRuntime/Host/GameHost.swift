// SPDX-License-Identifier: Apache-2.0
public import EscapeProtocol

/// The game an `EventLoop` drives a front end around: a ``SessionHost`` in the same process, or a
/// `RemoteHost` that follows a game `efb serve` shares.
///
/// The loop hands the host what the front end submits and shows the front end what comes back: at once
/// from ``handle(_:)``, or later from ``service(readable:)`` when the host's own descriptors have input
/// (a served game's socket). It is not thread-safe; one owner calls it.
public protocol GameHost: AnyObject {
    /// Whether the opening was handled.
    var hasStarted: Bool { get }
    /// Whether the game is over for this front end; the loop then ends.
    var isFinished: Bool { get }
    /// When the host wants ``SessionInput/time``, on its ``now`` scale; `nil` for never.
    var nextDeadline: Int64? { get }
    /// The host's clock.
    var now: Int64 { get }
    /// Descriptors whose input the host reads in ``service(readable:)``.
    var descriptors: [Int32] { get }
    /// Descriptors the host has output waiting for; ``flush()`` writes what they take.
    var writeDescriptors: [Int32] { get }
    /// Whether the game takes more commands now; while `false` the loop stops reading the front end's
    /// `FrontEnd/commandDescriptors` (back-pressure: a real-clock `wait` keeps what it can hold).
    var acceptsInput: Bool { get }
    /// Handles one input; returns the events it brought at once.
    func handle(_ input: SessionInput) -> [StampedEvent]
    /// Reads what arrived on its ``descriptors``; returns the events it brought.
    func service(readable: Set<Int32>) -> [StampedEvent]
    /// Writes what waits for its ``writeDescriptors``, without blocking.
    func flush()
}

extension GameHost {
    /// No descriptors of its own.
    public var descriptors: [Int32] { [] }
    /// No output of its own.
    public var writeDescriptors: [Int32] { [] }
    /// Always: what it is handed goes on at once.
    public var acceptsInput: Bool { true }
    /// Nothing arrives by itself.
    public func service(readable: Set<Int32>) -> [StampedEvent] { [] }
    /// Nothing to write.
    public func flush() {}
}

/// The game in this process: every event comes back from ``handle(_:)``.
extension SessionHost: GameHost {}
