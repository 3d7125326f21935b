import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The plain pipe: protocol lines in on one file descriptor, protocol lines out on another.
///
/// Between commands it waits on its input with `poll`, waking up when a hint unlocks so the
/// announcement is sent without waiting for the next command. Each command's events are written
/// in one `write` as soon as they are all known.
public struct PipeFrontEnd {
    private let session: Session
    private let input: Int32
    private let output: Int32

    /// Creates a front end.
    ///
    /// - Parameters:
    ///   - session: The game.
    ///   - input: Where commands come from (standard input by default).
    ///   - output: Where events go (standard output by default).
    public init(session: Session, input: Int32 = 0, output: Int32 = 1) {
        self.session = session
        self.input = input
        self.output = output
    }

    /// Plays until `quit` or the end of the input.
    ///
    /// - Returns: `false` when the output could not be written (the reader went away).
    @discardableResult
    public func run() -> Bool {
        var framer = LineFramer()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        guard send(session.start()) else { return false }
        while !session.isFinished {
            if !waitForInput() {
                guard send(session.tick()) else { return false }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            if count == 0 { break }
            for frame in framer.feed(buffer[..<count]) {
                guard send(session.handle(frame)) else { return false }
                if session.isFinished { return true }
            }
        }
        if let frame = framer.finish() {
            guard send(session.handle(frame)) else { return false }
        }
        return send(session.finish())
    }

    /// Waits until input is readable (`true`) or the next hint deadline passes (`false`).
    private func waitForInput() -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        while true {
            var timeout: Int32 = -1
            if let deadline = session.nextDeadline {
                timeout = Int32(clamping: max(0, deadline - session.now))
                if timeout == 0 { return false }
            }
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return true }
        }
    }

    private func send(_ events: [StampedEvent]) -> Bool {
        guard !events.isEmpty else { return true }
        var bytes: [UInt8] = []
        for event in events { EventEncoder.encode(event, into: &bytes) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(output, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
