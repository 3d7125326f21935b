// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

/// The fuzz corpus replayed through the fuzz targets' own checks, as a regression test.
///
/// A replay of nothing would pass without testing anything, so the check every test here makes,
/// ``replayed(_:)``, fails unless the replayer ran and said it replayed every input of every folder; the
/// tests at the end prove it fails on an empty or missing folder, for every target.
@Suite struct FuzzCorpusTests {
    /// Every target of `efb-fuzz`, each with its folder under Tests/FuzzCorpus.
    static let targets = ["lines", "engine", "snapshot", "save", "adventure"]

    private static let corpus = packageRoot.appendingPathComponent("Tests/FuzzCorpus")

    /// What `efb-fuzz` did with some arguments.
    struct Replay {
        var status: Int32
        var output: String
        var errors: String
    }

    private static func run(_ arguments: [String]) throws -> Replay {
        let process = Process()
        process.executableURL = efbExecutable.deletingLastPathComponent().appendingPathComponent("efb-fuzz")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let drained = Pipe.drain(errors)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try waitUntil(timeout: 30, "efb-fuzz's standard error to close") { drained.isEnded }
        return Replay(status: process.terminationStatus, output: text, errors: drained.text)
    }

    /// The inputs a corpus folder holds (hidden files are not inputs).
    private static func inputs(in folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.count
    }

    /// Replays a corpus: `efb-fuzz --all CORPUS`, every target's folder `CORPUS/TARGET`.
    ///
    /// - Parameter corpus: The corpus folder.
    /// - Returns: How many inputs each target replayed, by target.
    /// - Throws: A ``TestFailure`` when the replay failed, when it did not report every target of
    ///   ``targets`` (and no other), or when a target replayed no input or not every input of its folder.
    static func replayed(_ corpus: URL) throws -> [String: Int] {
        let replay = try run(["--all", corpus.path])
        guard replay.status == 0 else {
            throw TestFailure("efb-fuzz --all \(corpus.path) exited with \(replay.status): \(replay.errors)")
        }
        var counts: [String: Int] = [:]
        for line in replay.output.split(separator: "\n") {
            // efb-fuzz: TARGET: N inputs replayed without a failure
            let words = line.split(separator: " ")
            guard words.count > 2, words[0] == "efb-fuzz:", words[1].hasSuffix(":"), let count = Int(words[2]) else {
                throw TestFailure("an unexpected line from efb-fuzz: \(line)")
            }
            counts[String(words[1].dropLast())] = count
        }
        guard Set(counts.keys) == Set(targets) else {
            throw TestFailure("efb-fuzz replayed \(counts.keys.sorted()), not \(targets.sorted())")
        }
        for target in targets {
            let expected = try inputs(in: corpus.appendingPathComponent(target))
            guard expected > 0, counts[target] == expected else {
                throw TestFailure("\(target): \(counts[target] ?? 0) inputs replayed of \(expected) in its folder")
            }
        }
        return counts
    }

    @Test func everyInputOfEveryTargetsCorpusPlaysWithoutAFailure() throws {
        let counts = try Self.replayed(Self.corpus)
        for target in Self.targets {
            #expect(counts[target] == (try Self.inputs(in: Self.corpus.appendingPathComponent(target))), "\(target)")
        }
    }

    // MARK: The check fails on what tests nothing

    /// A corpus with one input of each target (its first), but for `target`, whose folder `made` makes
    /// (or not).
    private static func oneInputCorpus(but target: String?, _ made: (URL) throws -> Void = { _ in }) throws -> URL {
        let folder = try temporaryFolder("corpus-without-\(target ?? "nothing")")
        for other in targets {
            let destination = folder.appendingPathComponent(other)
            if other == target {
                try made(destination)
                continue
            }
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            let source = corpus.appendingPathComponent(other)
            let first = try #require(
                try FileManager.default.contentsOfDirectory(atPath: source.path).filter { !$0.hasPrefix(".") }.sorted()
                    .first
            )
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(first),
                to: destination.appendingPathComponent(first)
            )
        }
        return folder
    }

    @Test func aCorpusOfOneInputPerTargetPasses() throws {
        let folder = try Self.oneInputCorpus(but: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.replayed(folder) == Dictionary(uniqueKeysWithValues: Self.targets.map { ($0, 1) }))
    }

    @Test(arguments: targets)
    func anEmptyFolderFailsTheReplay(target: String) throws {
        let folder = try Self.oneInputCorpus(but: target) {
            try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: TestFailure.self) { try Self.replayed(folder) }
        let replay = try Self.run(["--all", folder.path])
        #expect(replay.status == 1)
        #expect(
            replay.errors
                == "efb-fuzz: no input to replay for \(target) in \(folder.appendingPathComponent(target).path)\n"
        )
        // The target alone, on its empty folder, fails too.
        #expect(try Self.run([target, folder.appendingPathComponent(target).path]).status == 1)
    }

    @Test(arguments: targets)
    func aMissingFolderFailsTheReplay(target: String) throws {
        let folder = try Self.oneInputCorpus(but: target)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: TestFailure.self) { try Self.replayed(folder) }
        let replay = try Self.run(["--all", folder.path])
        #expect(replay.status == 1)
        #expect(replay.errors == "efb-fuzz: cannot read \(folder.appendingPathComponent(target).path)\n")
    }

    @Test func anEmptyCorpusFails() throws {
        let folder = try temporaryFolder("empty-corpus")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: TestFailure.self) { try Self.replayed(folder) }
        #expect(try Self.run(["--all", folder.path]).status == 1)
    }
}
