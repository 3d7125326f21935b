// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

/// §11 Limits at a glance: each limit's last accepted value and first refused one.
@Suite struct S11LimitsTests {
    @Test("§11 Integers and id within ±(2^53 − 1): the bound is accepted, one beyond is invalid_params")
    func integerBounds() async throws {
        let transcript = try await EFB.run([
            #"{"type":"ping","id":9007199254740991}"#, #"{"type":"ping","id":"i","ifGen":9007199254740991}"#,
            #"{"type":"ping","id":"j","ifGen":9007199254740992}"#,
        ])
        #expect(transcript.types(9_007_199_254_740_991) == ["done"])
        #expect(transcript.error("i")?.string("code") == "stale")
        #expect(transcript.error("j")?.string("code") == "invalid_params")
    }

    @Test("§11 wait: 0 and 86,400,000 ms are accepted; -1 and 86,400,001 are invalid_params")
    func waitBounds() async throws {
        let transcript = try await EFB.run([
            #"{"type":"wait","ms":0,"id":1}"#, #"{"type":"wait","ms":86400000,"id":2}"#,
            #"{"type":"wait","ms":-1,"id":3}"#, #"{"type":"wait","ms":86400001,"id":4}"#,
        ])
        #expect(transcript.error(1) == nil)
        #expect(transcript.error(2) == nil)
        #expect(transcript.error(3)?.string("code") == "invalid_params")
        #expect(transcript.error(4)?.string("code") == "invalid_params")
    }

    @Test("§11 batch: 1000 commands are accepted; 1001 are invalid_params")
    func batchBound() async throws {
        let ping = Array(repeating: #"{"type":"ping"}"#, count: 1000).joined(separator: ",")
        let transcript = try await EFB.run([
            #"{"type":"batch","id":1,"commands":[\#(ping)]}"#,
            #"{"type":"batch","id":2,"commands":[\#(ping),{"type":"ping"}]}"#,
        ])
        #expect(transcript.types(1) == ["done"])
        #expect(transcript.error(2)?.string("code") == "invalid_params")
        #expect(transcript.error(2)?.string("field") == "commands")
    }

    @Test("§11 ifGen ≥ 0 and goto chapter, level ≥ 1")
    func minimumBounds() async throws {
        let transcript = try await EFB.run([
            #"{"type":"ping","id":1,"ifGen":-1}"#, #"{"type":"goto","id":2,"chapter":1,"level":0}"#,
        ])
        #expect(transcript.error(1)?.string("field") == "ifGen")
        #expect(transcript.error(2)?.string("field") == "level")
    }

    @Test("§11 --hint-interval: more than 0, at most 86,400 s; beyond exits 64 with nothing on standard output")
    func hintIntervalBounds() async throws {
        for bad in ["0", "86400.5", "-1"] {
            let transcript = try await EFB.run(
                bytes: [],
                arguments: EFB.virtual + ["--hint-interval", bad],
                validate: false
            )
            #expect(transcript.status == 64, "\(bad)")
            #expect(transcript.bytes.isEmpty)
        }
        let good = try await EFB.run([], arguments: EFB.virtual + ["--hint-interval", "86400"])
        #expect(good.status == 0)
    }

    @Test("§11 Save file: over 1 MiB is save_unreadable and kept aside")
    func saveFileBound() async throws {
        let save = try EFB.save(completed: [], current: nil)
        try Data(repeating: UInt8(ascii: " "), count: 1_048_577).write(to: save)
        let transcript = try await EFB.run([], arguments: EFB.lantern(save: save))
        #expect(transcript.opening.contains { $0.string("code") == "save_unreadable" })
        #expect(FileManager.default.fileExists(atPath: save.path + ".unreadable-1"))
    }

    @Test("§11 Adventure file: a time limit outside 10–3600 s exits 65 with FILE: PATH: PROBLEM on standard error")
    func adventureBound() async throws {
        let folder = try temporaryFolder("conf-adventure")
        let file = folder.appendingPathComponent("short.json")
        let text = try String(contentsOfFile: EFB.lanternPath, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""timeLimit": 75"#, with: #""timeLimit": 5"#).utf8).write(to: file)
        let transcript = try await EFB.run(
            bytes: [],
            arguments: ["pipe", "--memory-save", "--adventure", file.path],
            validate: false
        )
        #expect(transcript.status == 65)
        #expect(transcript.bytes.isEmpty)
        #expect(transcript.stderr.contains("\(file.path): "))
    }
}
