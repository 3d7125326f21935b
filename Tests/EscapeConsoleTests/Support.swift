import EscapeConsole
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import Foundation
import Testing

/// Paths and helpers shared by the console tests (the executable helpers copy EscapeRuntimeTests' own).
enum Support {
    static let adventure: Adventure = {
        do {
            return try AdventureLoader.bundled(locale: "en")
        } catch {
            fatalError("the shipped adventure must load: \(error)")
        }
    }()

    /// A session as `efb play --seed 1 --clock virtual --memory-save` makes it, on `level` when one is named
    /// (every level before it solved), or at the very start.
    static func session(at level: String? = nil, seed: UInt64 = 1) -> SessionHost {
        var store = InMemorySaveStore()
        if let level {
            let ids = adventure.chapters.flatMap(\.levels).map(\.id)
            let solved = Array(ids.prefix { $0 != level })
            store = InMemorySaveStore(SaveData(adventureID: adventure.id, completed: solved, current: level))
        }
        return SessionHost(
            adventure: adventure,
            options: EngineOptions(hintInterval: 30_000, seed: seed),
            store: store,
            clock: VirtualClock()
        )
    }

    /// A started console on `level` (or at the start), with the lines that brought it there.
    ///
    /// A save on the very first level starts with the introduction, so that level is reached by skipping
    /// it and beginning the chapter.
    static func console(at level: String? = nil) -> (driver: SteppedConsole, opening: [String]) {
        var driver = SteppedConsole(host: session(at: level))
        var opening = driver.start().map(\.text)
        if level == adventure.chapters[0].levels[0].id {
            opening = driver.enter("esc").map(\.text) + driver.enter("magic").map(\.text)
        }
        return (driver, opening)
    }

    /// The built `efb` executable, next to the test bundle.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["EFB_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("efb")
    }

    /// Runs `efb` with `arguments`, `input` on its standard input, and returns its output and status.
    static func run(
        _ arguments: [String],
        input: String,
        environment: [String: String]? = nil
    ) throws -> (stdout: String, stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errors = Pipe.drain(stderr)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = poll(seconds: 10) { errors.isEnded }
        return (String(decoding: output, as: UTF8.self), errors.text, process.terminationStatus)
    }

    /// Waits, polling every `interval` seconds, until `condition` holds or `seconds` pass; returns whether it held.
    static func poll(
        seconds: Double = 20,
        interval: Double = 0.05,
        until condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: interval)
        }
        return try condition()
    }

    /// A fresh folder in the temporary directory.
    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Bytes read from a pipe on a thread of their own, so the pipe never fills up and blocks the writer.
final class Drained: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    private var ended = false

    /// Everything read so far, as text.
    var text: String {
        lock.withLock { String(decoding: bytes, as: UTF8.self) }
    }

    /// Whether the writer closed its end.
    var isEnded: Bool { lock.withLock { ended } }

    fileprivate func append(_ data: Data) {
        lock.withLock {
            if data.isEmpty { ended = true } else { bytes.append(data) }
        }
    }
}

extension Pipe {
    /// Reads the pipe on a thread until its writer closes it.
    static func drain(_ pipe: Pipe) -> Drained {
        let drained = Drained()
        let handle = pipe.fileHandleForReading
        let thread = Thread {
            while true {
                let data = handle.availableData
                drained.append(data)
                if data.isEmpty { break }
            }
        }
        thread.start()
        return drained
    }
}

/// A console driven a line at a time, without the event loop: what the loop does for each typed line.
struct SteppedConsole {
    let host: SessionHost
    private(set) var driver = ConsoleDriver()

    init(host: SessionHost) {
        self.host = host
    }

    var context: ConsoleContext { driver.context }
    var isFinished: Bool { host.isFinished }

    mutating func start() -> [ConsoleLine] { driver.render(host.start()) }
    mutating func enter(_ line: String) -> [ConsoleLine] { driver.enter(line, on: host) }
    mutating func finish() -> [ConsoleLine] { driver.render(host.finish()) }
}
