// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
import EscapeJSON
package import EscapeProtocol

/// What a snapshot blob holds: the engine's state and the session's numbering, for one adventure.
package struct SessionSnapshot: Codable, Sendable, Hashable {
    /// The blob format; another one is refused.
    package var format: Int
    /// The engine that made it; another version is refused.
    package var engine: String
    /// The adventure it belongs to.
    package var adventure: String
    /// The `seq` just after the snapshot event: its `done`, when the command was not in a batch.
    package var seq: Int
    /// The virtual clock's time, or `nil` on the real clock.
    package var clock: Int64?
    /// The real clock's time when the snapshot was taken, or `nil` on the virtual clock.
    ///
    /// It only means something inside the process that took it: a restore counts the times of the
    /// game from it (elapsed, not absolute), so the new process's clock can read anything.
    package var taken: Int64?
    /// The progress last saved.
    package var saved: EscapeCore.Progress?
    /// The game.
    package var state: EngineSnapshot {
        get { stateFields.snapshot }
        set { stateFields = EngineSnapshotFields(newValue) }
    }
    /// The game as the blob spells it.
    private var stateFields: EngineSnapshotFields

    private enum CodingKeys: String, CodingKey {
        case format, engine, adventure, seq, clock, taken, saved
        case stateFields = "state"
    }

    package init(
        format: Int = SnapshotCodec.format,
        engine: String,
        adventure: String,
        seq: Int,
        clock: Int64?,
        taken: Int64? = nil,
        saved: EscapeCore.Progress?,
        state: EngineSnapshot
    ) {
        self.format = format
        self.engine = engine
        self.adventure = adventure
        self.seq = seq
        self.clock = clock
        self.taken = taken
        self.saved = saved
        self.stateFields = EngineSnapshotFields(state)
    }
}

/// An engine snapshot's fields as the blob holds them: the key names' gestures by their wire names
/// (names of no gesture are left out when read).
private struct EngineSnapshotFields: Codable, Sendable, Hashable {
    var state: Engine.GameState
    var generation: Int
    var lastAnnouncement: Announcement?
    var keyNames: [String: String]
    var timePressure: Bool

    init(_ snapshot: EngineSnapshot) {
        state = snapshot.state
        generation = snapshot.generation
        lastAnnouncement = snapshot.lastAnnouncement
        keyNames = Gesture.wireNamed(snapshot.keyNames)
        timePressure = snapshot.timePressure
    }

    var snapshot: EngineSnapshot {
        EngineSnapshot(
            state: state,
            generation: generation,
            lastAnnouncement: lastAnnouncement,
            keyNames: Gesture.fromWireNamed(keyNames),
            timePressure: timePressure
        )
    }
}

/// The snapshot blob: `efb-snapshot-1.` + base64 of the JSON state + `.` + its FNV-1a checksum.
package enum SnapshotCodec {
    /// The blob format this engine writes and reads.
    package static let format = 1
    private static let prefix = "efb-snapshot-1."

    /// The blob of `snapshot`.
    ///
    /// The JSON is spelled as Foundation's JSON encoder with `.sortedKeys` spelled it when it wrote
    /// the blobs, so a state gives the very same blob as before (transcripts and saved blobs hold them).
    package static func encode(_ snapshot: SessionSnapshot) -> String {
        guard let value = try? JSONValueEncoder().encode(snapshot) else {
            preconditionFailure("the engine's state always encodes")
        }
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes, style: .jsonEncoder)
        return sign(bytes)
    }

    /// The blob of a JSON payload: what anyone can compute, since the checksum is no signature.
    ///
    /// Tests and the fuzzer craft blobs with it; ``decode(_:engineVersion:words:)`` trusts nothing a
    /// blob holds for that reason.
    package static func sign(_ payload: [UInt8]) -> String {
        prefix + Base64.encode(payload) + "." + checksum(payload)
    }

    /// The JSON payload of a well-framed blob, unchecked; `nil` when the framing is wrong.
    package static func payload(of blob: String) -> [UInt8]? {
        guard blob.hasPrefix(prefix) else { return nil }
        let parts = blob.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return Base64.decode(parts[0])
    }

    /// Reads a blob back, or refuses it with `bad_snapshot`.
    ///
    /// Only the blob's framing, checksum, format and engine version are checked here; whether it fits
    /// the adventure is the session's to check.
    ///
    /// - Parameters:
    ///   - blob: The blob of a `restore`.
    ///   - engineVersion: This engine's version; a blob of another is refused.
    ///   - words: The language of the refusal's message.
    /// - Returns: What the blob holds.
    /// - Throws: A `bad_snapshot` ``ProtocolError`` saying why the blob cannot be read.
    package static func decode(
        _ blob: String,
        engineVersion: String,
        words: EngineWords = .english
    ) throws(ProtocolError) -> SessionSnapshot {
        guard blob.hasPrefix(prefix) else {
            throw refusal(words(.snapshotForeign, ["format": "\(format)"]), words: words)
        }
        let parts = blob.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let bytes = Base64.decode(parts[0]) else {
            throw refusal(words(.snapshotIncomplete), words: words)
        }
        guard checksum(bytes) == parts[1] else { throw refusal(words(.snapshotAltered), words: words) }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw refusal(words(.snapshotUnreadable), words: words)
        }
        let payload: SessionSnapshot
        do {
            payload = try JSONValueDecoder().decode(SessionSnapshot.self, from: try JSONReader.read(bytes))
        } catch {
            throw refusal(words(.snapshotUnreadable), words: words)
        }
        guard payload.format == format else {
            throw refusal(
                words(.snapshotOtherFormat, ["made": "\(payload.format)", "format": "\(format)"]),
                words: words
            )
        }
        guard payload.engine == engineVersion else {
            throw refusal(words(.snapshotOtherEngine, ["made": payload.engine, "engine": engineVersion]), words: words)
        }
        return payload
    }

    /// The error for a blob that cannot be restored.
    ///
    /// - Parameters:
    ///   - reason: Why, in `words`' language.
    ///   - words: The language of the message.
    /// - Returns: A `bad_snapshot` error on the field `blob`.
    package static func refusal(_ reason: String, words: EngineWords = .english) -> ProtocolError {
        ProtocolError(.badSnapshot, words(.errorBadSnapshot, ["reason": reason]), field: "blob")
    }

    /// FNV-1a, 64 bits, in hex: catches a blob changed by accident or by hand.
    private static func checksum(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
