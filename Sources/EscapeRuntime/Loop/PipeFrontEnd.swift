// SPDX-License-Identifier: Apache-2.0
package import EscapeProtocol

/// The plain pipe: protocol lines in on one file descriptor, protocol lines out on another.
///
/// It frames what it reads into lines and hands them to the session; the events of the lines one read
/// brought are encoded as they come and written before the next read, so what was answered is out
/// before more is read. With ``writesEachAnswer`` each line's answer is written as soon as it is
/// made, before the next line of the same read is handled: a client that sent many games' lines
/// at once (`--games`) works on the first answers while the engine makes the others. Output is written as the descriptor takes it: on a non-blocking output nobody
/// reads, what is left waits for the loop to find it writable (never retried in a busy loop), and
/// while more than ``maximumPendingBytes`` wait, no input is read (back-pressure).
package final class PipeFrontEnd: FrontEnd {
    /// The most encoded output kept unwritten before input stops being read.
    package static let maximumPendingBytes = 1 << 20

    private var input: LineInput
    private let output: FileOutput
    private var pending: [UInt8] = []
    /// How much of `pending` was written.
    private var written = 0
    /// Whether the output went away.
    package private(set) var isClosed = false
    /// Whether each line's answer is written before the next line is handled.
    package let writesEachAnswer: Bool

    /// Creates a front end.
    ///
    /// - Parameters:
    ///   - input: Where commands come from (standard input by default).
    ///   - output: Where events go (standard output by default).
    ///   - writesEachAnswer: Whether to write each line's answer before the next line is handled,
    ///     rather than the answers of all the lines of one read together.
    package init(input: Int32 = 0, output: Int32 = 1, writesEachAnswer: Bool = false) {
        self.input = LineInput(descriptor: input)
        self.output = FileOutput(descriptor: output)
        self.writesEachAnswer = writesEachAnswer
    }

    /// Standard input, until it ends; nothing while too much output waits for its reader.
    package var descriptors: [Int32] {
        pending.count - written > Self.maximumPendingBytes ? [] : input.descriptors
    }

    /// The output, while some of what was encoded waits for it.
    package var writeDescriptors: [Int32] {
        written < pending.count && !isClosed ? [output.descriptor] : []
    }

    /// Reads what is there and submits its lines; at the end of input, the last unterminated line
    /// and then the end.
    ///
    /// The lines' answers are written before it returns, as far as the output takes them.
    package func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        guard !input.isEnded, readable.contains(input.descriptor) else { return }
        for frame in input.read(readable: readable) {
            submit(.frame(frame))
            if writesEachAnswer { flush(now: now) }
        }
        if input.isEnded { submit(.endOfInput) }
        flush(now: now)
    }

    /// Encodes the events, to be written at the next flush.
    package func show(_ events: [StampedEvent], now: Int64) {
        EventEncoder.encode(events, into: &pending)
    }

    /// Writes what was encoded, as far as the output takes it now.
    package func flush(now: Int64) {
        guard written < pending.count, !isClosed else { return }
        guard let offset = output.writeAvailable(pending, from: written) else {
            isClosed = true
            return
        }
        written = offset
        if written == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
            written = 0
        } else if written >= 1 << 16, written * 2 >= pending.count {
            pending.removeSubrange(..<written)
            written = 0
        }
    }
}
