// SPDX-License-Identifier: Apache-2.0
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `efb` running in the background: its standard input a pipe the test writes to, its outputs drained.
package final class RunningEFB: @unchecked Sendable {
    /// The process.
    package let process = Process()
    /// Its standard output so far.
    package let output: Drained
    /// Its standard error so far.
    package let errors: Drained
    private let input = Pipe()

    /// Starts `efb` with `arguments`.
    package init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = efbExecutable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        output = Pipe.drain(stdout)
        errors = Pipe.drain(stderr)
    }

    /// What it wrote on standard error so far.
    package var standardError: String { errors.text }

    /// The last `lines` lines of its standard error (a traced run's whole log is long).
    package func standardError(last lines: Int) -> String {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Writes `bytes` to its standard input.
    package func write(_ bytes: [UInt8]) {
        input.fileHandleForWriting.write(Data(bytes))
    }

    /// Closes its standard input, as the end of a client's commands.
    package func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until its standard output contains `text`.
    package func waitForOutput(containing text: String, timeout: Double = 20) throws {
        try waitUntil(timeout: timeout, "efb to write \(text)") { output.text.contains(text) || output.isEnded }
        guard output.text.contains(text) else {
            throw TestFailure("efb ended without writing \(text); it said: \(standardError)")
        }
    }

    /// Closes its standard input and waits until it ends; stops it if it has not ended after `timeout` seconds.
    ///
    /// Then waits, bounded, for what it wrote last to be read (as ``waitForExit(timeout:)`` does).
    package func finish(timeout: Double = 30) {
        closeInput()
        if !poll(seconds: timeout, until: { !process.isRunning }) { stop() }
        process.waitUntilExit()
        _ = poll(seconds: timeout, until: { output.isEnded && errors.isEnded })
    }

    /// Waits until it has ended and the threads draining its output and its standard error have read
    /// them to their end: what it wrote last is still in the pipes when it exits, and on a loaded machine
    /// a check made at once missed its last line.
    package func waitForExit(timeout: Double = 30) throws {
        try waitUntil(timeout: timeout, "efb to end") { !process.isRunning }
        process.waitUntilExit()
        try waitUntil(timeout: timeout, "efb's output and standard error to close") { output.isEnded && errors.isEnded }
    }

    /// Stops it as a service manager would: SIGTERM, then SIGKILL if it has not ended after `timeout` seconds.
    package func stop(timeout: Double = 10) {
        defer { closeInput() }
        guard process.isRunning else { return }
        process.terminate()
        if !poll(seconds: timeout, until: { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
