// SPDX-License-Identifier: Apache-2.0
package import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines read from a file descriptor, framed with a size bound: what the pipe and the console read.
package struct LineInput: Sendable {
    /// The descriptor read from.
    package let descriptor: Int32
    private var framer: LineFramer
    private var buffer: [UInt8]
    /// Whether the input ended (or failed); nothing more is read.
    package private(set) var isEnded = false

    /// Creates an input.
    ///
    /// - Parameters:
    ///   - descriptor: Where lines come from.
    ///   - maximumLineLength: The longest line kept, in bytes; longer ones come as `tooLong`.
    ///   - chunk: How many bytes one read asks for.
    package init(
        descriptor: Int32,
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength,
        chunk: Int = 65_536
    ) {
        self.descriptor = descriptor
        framer = LineFramer(maximumLineLength: maximumLineLength)
        buffer = [UInt8](repeating: 0, count: chunk)
    }

    /// The descriptor to wait on, until the input ends.
    package var descriptors: [Int32] { isEnded ? [] : [descriptor] }

    /// Reads what is there once (wraps `read`) and returns the lines it completed.
    ///
    /// At the end of the input (or a read error) the last unterminated line comes too, and
    /// ``isEnded`` turns `true`. A read interrupted by a signal returns nothing and ends nothing.
    ///
    /// - Parameter readable: The descriptors the loop found readable.
    /// - Returns: The completed lines, in order.
    package mutating func read(readable: Set<Int32>) -> [LineFramer.Frame] {
        guard !isEnded, readable.contains(descriptor) else { return [] }
        let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        if count <= 0 {
            isEnded = true
            return framer.finish().map { [$0] } ?? []
        }
        return framer.feed(buffer[..<count])
    }
}

/// `read(2)`, under a name the method above does not shadow.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
