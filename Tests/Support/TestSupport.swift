// SPDX-License-Identifier: Apache-2.0
// Helpers the test targets share: the built efb, running it, draining its pipes, waiting for a condition.
// A target of its own (not a product), so each test target uses the same code instead of a copy.
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A test failure with a message.
package struct TestFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}

/// The package's root folder.
package let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The built `efb` executable, next to the test bundle (or `$EFB_BINARY`).
package var efbExecutable: URL {
    if let path = ProcessInfo.processInfo.environment["EFB_BINARY"] { return URL(fileURLWithPath: path) }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("efb")
}

/// The Python interpreter the tests use: `$EFB_PYTHON`, or `python3` from the path.
package var pythonCommand: String { ProcessInfo.processInfo.environment["EFB_PYTHON"] ?? "python3" }

/// What a finished `efb` wrote and how it ended.
package struct EFBResult<Output> {
    /// Its standard output.
    package var stdout: Output
    /// Its standard error, as text.
    package var stderr: String
    /// Its exit status.
    package var status: Int32
}

/// Runs `efb` with `arguments`, `input` on its standard input, and returns its output and status.
///
/// The input is written and both outputs are read on threads of their own, so no pipe can fill up and
/// block the game.
package func runEFB(
    _ arguments: [String],
    input: [UInt8],
    environment: [String: String]? = nil
) throws -> EFBResult<[UInt8]> {
    let process = Process()
    process.executableURL = efbExecutable
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
        stdin.fileHandleForWriting.write(Data(input))
        try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let errors = Pipe.drain(stderr)
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try waitUntil(timeout: 30, "efb's standard error to close") { errors.isEnded }
    return EFBResult(stdout: Array(output), stderr: errors.text, status: process.terminationStatus)
}

/// Runs `efb` with text on its standard input and returns its output as text.
package func runEFB(
    _ arguments: [String],
    input: String,
    environment: [String: String]? = nil
) throws -> EFBResult<String> {
    let result = try runEFB(arguments, input: Array(input.utf8), environment: environment)
    return EFBResult(
        stdout: String(decoding: result.stdout, as: UTF8.self),
        stderr: result.stderr,
        status: result.status
    )
}

/// Polls `condition` every `interval` seconds until it holds or `seconds` pass; returns whether it held.
package func poll(
    seconds: Double = 20,
    interval: Double = 0.02,
    until condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}

/// Polls `condition` until it holds; throws a ``TestFailure`` naming `what` after `timeout` seconds.
package func waitUntil(timeout: Double = 20, _ what: String, _ condition: () throws -> Bool) throws {
    guard try poll(seconds: timeout, until: condition) else {
        throw TestFailure("timed out after \(timeout) s waiting for \(what)")
    }
}

/// A fresh folder in the temporary directory, named after `name`.
package func temporaryFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Runs `body` on a thread of its own and waits for it without holding one of the test pool's threads.
///
/// Swift Testing runs tests on the cooperative pool, one thread per core: a test that blocks for a
/// minute (a whole game through a real BRLTTY, at a key every 120 ms) holds one of them, and on two
/// cores the whole run waits behind two such tests. Run this way, long tests overlap each other and
/// everything else. `body` runs in the calling task (on a task executor of its own), so what it
/// expects is recorded against the test that called it.
package func onThreadOfItsOwn<Result: Sendable>(_ body: () throws -> Result) async throws -> Result {
    let executor = ThreadExecutor()
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try body() }
}

/// A task executor that runs every job on one thread of its own, until ``finish()``.
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        Thread { [self] in
            while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        .start()
    }

    /// The next job; `nil` once finished with none left.
    private func next() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !finished { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run what was given to it.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }
}

/// A value shared between threads, behind a lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Bytes read from a pipe on a thread of their own, so the pipe never fills up and blocks the writer.
package final class Drained: @unchecked Sendable {
    private let state = Locked((bytes: Data(), ended: false))

    /// Everything read so far.
    package var data: Data { state.withLock { $0.bytes } }

    /// Everything read so far, as text.
    package var text: String { String(decoding: data, as: UTF8.self) }

    /// Whether the writer closed its end (and everything it wrote was read).
    package var isEnded: Bool { state.withLock { $0.ended } }

    fileprivate func append(_ data: Data) {
        state.withLock {
            if data.isEmpty { $0.ended = true } else { $0.bytes.append(data) }
        }
    }
}

extension Pipe {
    /// Reads the pipe on a thread until its writer closes it.
    package static func drain(_ pipe: Pipe) -> Drained {
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
