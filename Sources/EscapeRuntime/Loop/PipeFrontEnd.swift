public import EscapeProtocol

/// The plain pipe: protocol lines in on one file descriptor, protocol lines out on another.
///
/// It frames what it reads into lines and hands them to the session; the events of a whole burst of
/// input are encoded as they come and written in one go before the loop waits again.
public final class PipeFrontEnd: FrontEnd {
    private var input: LineInput
    private let output: FileOutput
    private var pending: [UInt8] = []
    /// Whether the output went away.
    public private(set) var isClosed = false

    /// Creates a front end.
    ///
    /// - Parameters:
    ///   - input: Where commands come from (standard input by default).
    ///   - output: Where events go (standard output by default).
    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = LineInput(descriptor: input)
        self.output = FileOutput(descriptor: output)
    }

    /// Standard input, until it ends.
    public var descriptors: [Int32] { input.descriptors }

    /// Reads what is there and submits its lines; at the end of input, the last unterminated line
    /// and then the end.
    public func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        guard !input.isEnded else { return }
        for frame in input.read(readable: readable) { submit(.frame(frame)) }
        if input.isEnded { submit(.endOfInput) }
    }

    /// Encodes the events, to be written at the next flush.
    public func show(_ events: [StampedEvent], now: Int64) {
        for event in events { EventEncoder.encode(event, into: &pending) }
    }

    /// Writes what was encoded.
    public func flush(now: Int64) {
        guard !pending.isEmpty, !isClosed else { return }
        if !output.write(pending) { isClosed = true }
        pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
    }
}
