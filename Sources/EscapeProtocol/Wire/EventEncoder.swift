// SPDX-License-Identifier: Apache-2.0
public import EscapeJSON

/// Writes events in their wire form: one JSON object per line, keys sorted.
public enum EventEncoder {
    /// The protocol version this engine speaks.
    public static let protocolVersion = 1

    /// Appends one event's line, `\n` included, to `output`.
    ///
    /// - Parameters:
    ///   - stamped: The event and its envelope.
    ///   - output: Receives UTF-8 bytes.
    public static func encode(_ stamped: StampedEvent, into output: inout [UInt8]) {
        var line = DirectLine()
        write(stamped, to: &line)
        line.flush(into: &output)
    }

    /// Appends the lines of `events`, in order, each with its `\n`: the same bytes as encoding them one
    /// by one, written through one buffer.
    ///
    /// - Parameters:
    ///   - events: The events and their envelopes.
    ///   - output: Receives UTF-8 bytes.
    public static func encode(_ events: [StampedEvent], into output: inout [UInt8]) {
        var line = DirectLine()
        // By index: each event is encoded where it is, not copied out of the array first.
        for index in events.indices { write(events[index], to: &line) }
        line.flush(into: &output)
    }

    /// Writes one line, its terminator included, to `line`'s bytes.
    @inline(__always)
    private static func write(_ stamped: StampedEvent, to line: inout DirectLine) {
        stamped.write(to: &line)
        line.newline()
    }

    /// The event as a JSON object: the members its line has.
    public static func json(_ stamped: StampedEvent) -> JSONValue {
        var writer = JSONValueWriter()
        stamped.write(to: &writer)
        return writer.value
    }
}
