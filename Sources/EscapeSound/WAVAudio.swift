// SPDX-License-Identifier: Apache-2.0
/// A WAV file of 16-bit signed PCM samples, read and written without Foundation.
///
/// The pack is made of such files (mono, 22050 Hz); the player reads one to learn how long it lasts and
/// writes a quieter copy of an ambience for the ambience volume. Only the `fmt ` and `data` chunks count;
/// any other chunk is skipped.
package struct WAVAudio: Sendable, Hashable {
    /// Samples per second.
    package var sampleRate: Int
    /// Interleaved channels.
    package var channels: Int
    /// The samples, channels interleaved.
    package var samples: [Int16]

    /// Creates audio from samples.
    package init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// Why bytes are not a WAV file this type reads.
    package enum ReadError: Error, Hashable, CustomStringConvertible {
        /// No `RIFF`/`WAVE` header.
        case notRIFFWave
        /// The `fmt ` or the `data` chunk is missing, or runs past the end.
        case missingChunk(String)
        /// Not 16-bit integer PCM.
        case unsupportedFormat(format: Int, bitsPerSample: Int)

        package var description: String {
            switch self {
            case .notRIFFWave: "not a RIFF/WAVE file"
            case .missingChunk(let name): "no complete \"\(name)\" chunk"
            case .unsupportedFormat(let format, let bits):
                "format \(format) with \(bits) bits per sample, not 16-bit integer PCM (format 1)"
            }
        }
    }

    /// Reads a WAV file's bytes.
    ///
    /// - Throws: ``ReadError`` when the bytes are not a 16-bit PCM WAV file.
    package init(bytes: [UInt8]) throws(ReadError) {
        func word(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func long(_ offset: Int) -> Int { word(offset) | word(offset + 2) << 16 }
        func tag(_ offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw .notRIFFWave }
        var format: (code: Int, channels: Int, rate: Int, bits: Int)?
        var data: Range<Int>?
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = tag(offset)
            let size = long(offset + 4)
            let body = offset + 8
            guard size <= bytes.count - body else { break }
            if name == "fmt ", size >= 16 {
                format = (word(body), word(body + 2), long(body + 4), word(body + 14))
            } else if name == "data" {
                data = body..<body + size
            }
            offset = body + size + size % 2  // chunks are padded to an even size
        }
        guard let format else { throw .missingChunk("fmt ") }
        guard let data else { throw .missingChunk("data") }
        guard format.code == 1, format.bits == 16, format.channels >= 1 else {
            throw .unsupportedFormat(format: format.code, bitsPerSample: format.bits)
        }
        sampleRate = format.rate
        channels = format.channels
        samples = stride(from: data.lowerBound, to: data.upperBound - 1, by: 2).map {
            Int16(bitPattern: UInt16(word($0)))
        }
    }

    /// How long the audio lasts, in milliseconds (rounded up).
    package var milliseconds: Int64 {
        guard sampleRate > 0, channels > 0 else { return 0 }
        let frames = Int64(samples.count / channels)
        return (frames * 1000 + Int64(sampleRate) - 1) / Int64(sampleRate)
    }

    /// The same audio with every sample multiplied by `factor` (0 to 1).
    package func scaled(by factor: Double) -> WAVAudio {
        let factor = min(max(factor, 0), 1)
        return WAVAudio(
            sampleRate: sampleRate,
            channels: channels,
            samples: samples.map { Int16((Double($0) * factor).rounded()) }
        )
    }

    /// The bytes of a canonical WAV file: `RIFF` header, `fmt ` chunk, `data` chunk.
    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + samples.count * 2)
        func tag(_ text: String) { bytes += Array(text.utf8) }
        func word(_ value: Int) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        func long(_ value: Int) {
            word(value & 0xFFFF)
            word(value >> 16)
        }
        let dataSize = samples.count * 2
        tag("RIFF")
        long(36 + dataSize)
        tag("WAVE")
        tag("fmt ")
        long(16)
        word(1)
        word(channels)
        long(sampleRate)
        long(sampleRate * channels * 2)
        word(channels * 2)
        word(16)
        tag("data")
        long(dataSize)
        for sample in samples { word(Int(UInt16(bitPattern: sample))) }
        return bytes
    }
}
