// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Testing

/// §8 Clocks and determinism.
@Suite struct S08ClocksTests {
    @Test("§8 The same seed, options and commands give the same output bytes (snapshot blobs included)")
    func transcriptsReplay() async throws {
        let lines = [
            EFB.hello11, #"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#,
            #"{"type":"wait","ms":31000}"#, #"{"type":"snapshot"}"#, #"{"type":"state"}"#,
        ]
        let first = try await EFB.run(lines)
        let second = try await EFB.run(lines)
        #expect(first.bytes == second.bytes)
    }

    @Test("§8 A different seed gives a different shuffle")
    func seedShuffles() async throws {
        let lines = [#"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#]
        let orders = try await (1...6).asyncMap { seed in
            try await EFB.run(lines, arguments: ["pipe", "--seed", "\(seed)", "--clock", "virtual", "--memory-save"])
                .all("screen").last?.elementIDs ?? []
        }
        #expect(Set(orders).count > 1)
    }

    @Test("§8 --clock virtual: nothing is ever sent unsolicited; every event after the opening has a command's replyTo")
    func virtualNothingUnsolicited() async throws {
        let transcript = try await EFB.play(
            at: "room-wheels",
            [#"{"type":"wait","ms":80000,"id":1}"#, #"{"type":"quit","id":2}"#]
        )
        #expect(transcript.events.dropFirst(transcript.opening.count).allSatisfy { $0["replyTo"] != nil })
    }

    @Test("§8 --clock real: deadline events are written at once without replyTo")
    func realDeadlines() async throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--hint-interval", "0.1", "--adventure", EFB.lanternPath])
        EFB.send(game, EFB.toFirstLevel[0], EFB.toFirstLevel[1])
        try waitUntil("a hint notice") {
            try EFB.events(game).contains { $0["name"] == "hint" && $0["replyTo"] == nil }
        }
        try EFB.finish(game)
    }

    @Test("§4.17 §8 --clock real: a deadline event falling due during a wait is written when due, without replyTo")
    func realDeadlinesDuringAWait() async throws {
        let game = try RunningEFB(["pipe", "--memory-save", "--hint-interval", "0.1", "--adventure", EFB.lanternPath])
        EFB.send(game, EFB.toFirstLevel[0], EFB.toFirstLevel[1], #"{"type":"wait","ms":600000,"id":"w"}"#)
        try waitUntil("a hint notice while the wait is pending") {
            try EFB.events(game).contains { $0["name"] == "hint" && $0["replyTo"] == nil }
        }
        #expect(try !EFB.events(game).contains { $0["replyTo"] == "w" })
        try EFB.finish(game)
    }
}

extension Sequence {
    /// Maps each element with an async transform, one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
