// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import EscapeSound
import EscapeTestSupport
import Foundation
import Testing

/// The shipped pack: a file for every cue and every ambience the adventures name, each a valid WAV that
/// is heard, quiet enough to sit under speech, and, for ambiences, looping without a click.
struct SoundPackTests {
    static let pack: SoundPack = {
        guard let pack = SoundPack.bundled else { fatalError("the sound pack must be among the resources") }
        return pack
    }()

    /// Every ambience the shipped adventures name.
    static let ambiences: [Ambience] = {
        var names: Set<Ambience> = []
        for locale in ["en", "fr"] {
            guard let adventure = try? AdventureLoader.bundled(locale: locale) else {
                fatalError("the shipped adventure \(locale) must load")
            }
            names.formUnion(adventure.chapters.compactMap(\.ambient))
        }
        return names.sorted { $0.name < $1.name }
    }()

    static var files: [String] {
        (SoundCue.allCases.compactMap { pack.file(for: $0) } + ambiences.compactMap { pack.file(for: $0) }).sorted()
    }

    /// What `sox FILE -n stat` says about a file, by name (`RMS amplitude`, `Maximum amplitude`, ...).
    private static func soxStat(_ file: String) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sox", file, "-n", "stat"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "sox stat failed on \(file): \(text)")
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            values[parts[0].split(separator: " ").joined(separator: " ")] = value
        }
        return values
    }

    private static func audio(_ file: String) throws -> WAVAudio {
        try WAVAudio(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    @Test func everyCueAndEveryAmbienceOfTheShippedAdventuresHasAFile() {
        #expect(Self.ambiences.count >= 6)
        for cue in SoundCue.allCases {
            #expect(Self.pack.file(for: cue) != nil, "no file for the cue \(cue.rawValue)")
        }
        for ambience in Self.ambiences {
            #expect(Self.pack.file(for: ambience) != nil, "no file for the ambience \(ambience)")
        }
        #expect(Self.pack.file(for: SoundPlayerTests.ambience("no-such-ambience")) == nil)
    }

    @Test func thePackIsSmall() throws {
        var total = 0
        for file in Self.files {
            total += try #require(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        }
        #expect(total < 2_000_000)
    }

    @Test(arguments: files)
    func everyFileIsMonoPCMAtTheRateOfThePack(_ file: String) throws {
        let audio = try Self.audio(file)
        #expect(audio.sampleRate == 22050)
        #expect(audio.channels == 1)
        if file.contains("/cues/") {
            #expect(audio.milliseconds > 0 && audio.milliseconds < 1000, "a cue lasts under a second")
        } else {
            #expect(audio.milliseconds >= 2000 && audio.milliseconds <= 8000, "an ambience lasts a few seconds")
        }
    }

    @Test(arguments: files)
    func everyFileIsHeardAndQuiet(_ file: String) throws {
        let stat = try Self.soxStat(file)
        let rms = try #require(stat["RMS amplitude"])
        let peak = max(try #require(stat["Maximum amplitude"]), -(try #require(stat["Minimum amplitude"])))
        #expect(rms > 0.005, "\(file) is silent")
        // Cues peak at -12 dBFS, ambiences under -18 dBFS, to sit under speech.
        #expect(peak < (file.contains("/cues/") ? 0.26 : 0.126), "\(file) is loud")
    }

    @Test(arguments: ambiences)
    func everyAmbienceLoopsWithoutAClick(_ ambience: Ambience) throws {
        let audio = try Self.audio(try #require(Self.pack.file(for: ambience)))
        let first = Int(try #require(audio.samples.first))
        let last = Int(try #require(audio.samples.last))
        // The seam is one step of the sound like any other: far below 1% of full scale.
        #expect(abs(first - last) < 328, "\(ambience): \(last) then \(first) at the seam")
    }

    @Test func theScriptMakesThePackAsCommitted() throws {
        let folder = try temporaryFolder("make-sounds")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = packageRoot.appendingPathComponent("scripts/make-sounds")
        process.arguments = [folder.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let committed = packageRoot.appendingPathComponent("Sources/EscapeSound/Sounds")
        for kind in ["cues", "ambiences"] {
            let made = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(kind).path)
            let kept = try FileManager.default.contentsOfDirectory(atPath: committed.appendingPathComponent(kind).path)
            #expect(made.sorted() == kept.sorted())
            // The same sox makes the same bytes; another version may differ in the last bits, not in length.
            for name in made {
                let new = try Self.audio(folder.appendingPathComponent(kind).appendingPathComponent(name).path)
                let old = try Self.audio(committed.appendingPathComponent(kind).appendingPathComponent(name).path)
                #expect(new.samples.count == old.samples.count, "\(kind)/\(name) is not what the script makes")
            }
        }
    }

    @Test func aWAVFileReadsBackAsItWasWritten() throws {
        let audio = WAVAudio(sampleRate: 22050, channels: 1, samples: [0, 1, -1, 32767, -32768, 1234])
        #expect(try WAVAudio(bytes: audio.bytes) == audio)
        #expect(audio.scaled(by: 0.5).samples == [0, 1, -1, 16384, -16384, 617])
        #expect(throws: WAVAudio.ReadError.notRIFFWave) { try WAVAudio(bytes: Array("RIFF".utf8)) }
        var float = audio.bytes
        float[20] = 3  // format 3: IEEE float
        #expect(throws: WAVAudio.ReadError.unsupportedFormat(format: 3, bitsPerSample: 16)) {
            try WAVAudio(bytes: float)
        }
    }
}
