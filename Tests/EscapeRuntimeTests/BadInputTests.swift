// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Every class of bad input gets its documented answer, and the next command still works.
struct BadInputTests {
    /// The checked-in corpus, Tests/BadInputCorpus: one line per file (no newline), named
    /// `NN-what.EXPECTED`, where EXPECTED is the error code it must get, `accepted` (answered with no
    /// error) or `blank` (not answered at all).
    static let corpus: [(name: String, line: [UInt8], code: String?)] = {
        let folder = packageRoot.appendingPathComponent("Tests/BadInputCorpus")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                let expected = name.split(separator: ".").last
            else { return nil }
            let code = expected == "accepted" || expected == "blank" ? nil : String(expected)
            return (name, Array(data), code)
        }
    }()

    @Test func theCorpusCoversEveryClassOfBadInput() {
        #expect(Self.corpus.count >= 30)
        let codes = Set(Self.corpus.compactMap(\.code))
        for code in [
            "malformed_json", "not_an_object", "invalid_utf8", "too_deep", "unknown_command", "invalid_params",
            "not_now", "input_too_long",
        ] {
            #expect(codes.contains(code), "no sample gets \(code)")
        }
    }

    @Test func eachBadLineGetsItsErrorAndTheNextCommandWorks() throws {
        for sample in Self.corpus {
            let session = Support.session()
            _ = session.start()
            var framer = LineFramer()
            let frames = framer.feed(sample.line + [0x0A] + Array("{\"type\":\"ping\",\"id\":\"after\"}\n".utf8))
            let events = frames.flatMap { session.handle($0) }
            let errors = events.compactMap { stamped -> ErrorCode? in
                if case .error(let error) = stamped.event { return error.code }
                return nil
            }
            #expect(errors.map(\.rawValue) == (sample.code.map { [$0] } ?? []), "\(sample.name)")
            let answered = events.filter { $0.replyTo != .string("after") }
            #expect(answered.isEmpty == sample.name.hasSuffix(".blank"), "\(sample.name)")
            #expect(events.last?.event == .done, "\(sample.name)")
            #expect(events.last?.replyTo == .string("after"), "\(sample.name)")
        }
    }

    @Test func theExecutableAnswersEveryBadLineAndKeepsGoing() throws {
        var input: [UInt8] = []
        for sample in Self.corpus { input += sample.line + [0x0A] }
        input += Array(repeating: UInt8(ascii: "x"), count: 16 << 20) + [0x0A]
        input += Array("{\"type\":\"state\",\"id\":\"final\"}".utf8)  // no newline at the end
        let result = try runEFB(["pipe", "--seed", "1", "--clock", "virtual", "--memory-save"], input: input)
        #expect(result.status == 0)
        let events = try Support.events(result.stdout)
        let codes = events.compactMap { event -> String? in
            guard event["type"] == "error", case .string(let code) = event["code"] else { return nil }
            return code
        }
        #expect(codes == Self.corpus.compactMap(\.code) + ["line_too_long"])
        #expect(events.contains { $0["type"] == "done" && $0["replyTo"] == "final" })
        #expect(events.last?["type"] == "bye")
        let validation = try Support.validate("events", result.stdout)
        #expect(validation.ok, "\(validation.report)")
    }

    @Test func aStaleCommandIsRefusedWithoutEffect() throws {
        let session = Support.session()
        _ = session.start()
        let generation = session.engine.generation
        _ = session.handle(Request(command: .game(.next)))
        let events = session.handle(Request(id: .int(1), ifGen: generation, command: .game(.next)))
        #expect(
            events.map(\.event) == [
                .error(
                    ProtocolError(
                        .stale,
                        "the state has moved on to generation \(generation + 1) (the command expected \(generation))",
                        field: "ifGen"
                    )
                ), .done,
            ]
        )
        #expect(session.engine.focus.index == 2)
        let fresh = session.handle(Request(ifGen: generation + 1, command: .game(.next)))
        #expect(session.engine.focus.index == 3)
        #expect(fresh.last?.event == .done)
    }

    @Test func anUnsupportedProtocolVersionIsReportedButAnswered() {
        let session = Support.session()
        _ = session.start()
        let events = session.handle(
            Request(
                id: .int(1),
                command: .hello(
                    ClientHello(client: nil, acceptedVersions: .versions([ProtocolVersion(major: 2, minor: 0)]))
                )
            )
        )
        guard case .error(let error) = events.first?.event else {
            Issue.record("expected an error first")
            return
        }
        #expect(error.code == .unsupportedProtocol)
        guard case .hello = events[1].event else {
            Issue.record("the hello is still answered")
            return
        }
    }
}

/// A line far over the limit is dropped as it arrives: the engine's memory does not grow with it.
@Suite(
    .disabled(
        if: ProcessInfo.processInfo.environment["EFB_SANITIZER"] != nil,
        "a sanitizer's allocator keeps freed memory in quarantine, so peak memory says nothing here"
    )
)
struct BoundedMemoryTests {
    /// The peak resident memory of a process, in KiB (`VmHWM` in /proc/PID/status).
    private func peakMemory(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    @Test func aSixteenMebibyteLineIsNotKept() throws {
        let game = try RunningEFB(["pipe", "--clock", "virtual", "--memory-save"])
        defer { game.finish() }
        game.write(Array(#"{"type":"ping","id":"before"}"#.utf8) + [10])
        try game.waitForOutput(containing: #""replyTo":"before""#)
        let baseline = try #require(peakMemory(of: game.process.processIdentifier))

        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<16 { game.write(chunk) }
        game.write([10] + Array(#"{"type":"ping","id":"after"}"#.utf8) + [10])
        try game.waitForOutput(containing: #""replyTo":"after""#)
        #expect(game.output.text.contains(#""code":"line_too_long""#))
        let peak = try #require(peakMemory(of: game.process.processIdentifier))
        // The framer keeps at most the 1 MiB limit of a line, and reads 64 KiB at a time.
        #expect(peak - baseline < 3 * 1024, "peak memory grew from \(baseline) KiB to \(peak) KiB")
    }
}
