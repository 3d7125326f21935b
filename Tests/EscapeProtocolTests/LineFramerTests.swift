// SPDX-License-Identifier: Apache-2.0
import EscapeProtocol
import Testing

struct LineFramerTests {
    private let stream = Array("{\"type\":\"next\"}\n{\"type\":\"ping\"}\r\n\n{\"type\":\"quit\"}".utf8)
    private let expected: [LineFramer.Frame] = [
        .line(Array("{\"type\":\"next\"}".utf8)),
        .line(Array("{\"type\":\"ping\"}".utf8)),
        .line([]),
        .line(Array("{\"type\":\"quit\"}".utf8)),
    ]

    private func frames(feeding pieces: [ArraySlice<UInt8>], limit: Int = 1 << 20) -> [LineFramer.Frame] {
        var framer = LineFramer(maximumLineLength: limit)
        var frames = pieces.flatMap { framer.feed($0) }
        if let last = framer.finish() { frames.append(last) }
        return frames
    }

    @Test func allAtOnce() {
        #expect(frames(feeding: [stream[...]]) == expected)
    }

    @Test func byteByByte() {
        #expect(frames(feeding: stream.indices.map { stream[$0...$0] }) == expected)
    }

    @Test func oneMessageAtATime() {
        var pieces: [ArraySlice<UInt8>] = []
        var start = stream.startIndex
        for index in stream.indices where stream[index] == UInt8(ascii: "\n") {
            pieces.append(stream[start...index])
            start = index + 1
        }
        pieces.append(stream[start...])
        #expect(frames(feeding: pieces) == expected)
    }

    @Test(arguments: [1, 2, 3, 5, 7, 13])
    func inChunksOfAnySize(_ size: Int) {
        let pieces = stride(from: 0, to: stream.count, by: size).map { stream[$0..<min($0 + size, stream.count)] }
        #expect(frames(feeding: pieces) == expected)
    }

    @Test func aLongLineIsReportedNotKept() {
        var framer = LineFramer(maximumLineLength: 8)
        var frames: [LineFramer.Frame] = []
        for _ in 0..<1000 { frames += framer.feed(Array(repeating: UInt8(ascii: "x"), count: 100)) }
        frames += framer.feed(Array("\r\n{}\n".utf8))
        #expect(frames == [.tooLong(length: 100_001), .line(Array("{}".utf8))])
    }

    @Test func aLineExactlyAtTheLimitIsKeptEvenWithCarriageReturn() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.feed(Array("abcd\r\nabcde\n".utf8)) == [.line(Array("abcd".utf8)), .tooLong(length: 5)])
    }

    @Test func anUnterminatedTooLongLineIsReportedAtTheEnd() {
        var framer = LineFramer(maximumLineLength: 2)
        #expect(framer.feed(Array("abc".utf8)).isEmpty)
        #expect(framer.finish() == .tooLong(length: 3))
        #expect(framer.finish() == nil)
    }

    /// Lines are found wherever their `\n` is, among bytes a word-at-a-time search could mistake for
    /// one (0x0B, 0x8A, 0x09, 0x00, 0xFF), fed whole or in pieces of any size: the frames are the
    /// lines a byte-by-byte split finds.
    @Test func newlinesAreFoundAtEveryOffset() {
        var random = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x0A, 0x0B, 0x09, 0x8A, 0x0D, 0x00, 0xFF, 0x61, 0x61, 0x61, 0x0A]
        for _ in 0..<500 {
            let stream = (0..<Int.random(in: 0...90, using: &random)).map { _ in alphabet.randomElement(using: &random)!
            }
            var expected: [LineFramer.Frame] = []
            var line: [UInt8] = []
            for byte in stream {
                if byte == 0x0A {
                    if line.last == 0x0D { line.removeLast() }
                    expected.append(.line(line))
                    line = []
                } else {
                    line.append(byte)
                }
            }
            if !line.isEmpty {
                if line.last == 0x0D { line.removeLast() }
                expected.append(.line(line))
            }
            #expect(frames(feeding: [stream[...]]) == expected, "\(stream)")
            var pieces: [ArraySlice<UInt8>] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...17, using: &random))
                pieces.append(stream[start..<end])
                start = end
            }
            #expect(frames(feeding: pieces) == expected, "\(stream)")
        }
    }
}
