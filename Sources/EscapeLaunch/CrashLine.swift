// SPDX-License-Identifier: Apache-2.0
package import EscapeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What efb does when it crashes: one plain line on standard error and the exit status, never Swift's
/// interactive backtrace prompt (which waits 30 s for a key at a terminal, where a player cannot know
/// what it is).
///
/// A handler for the fatal signals (a Swift trap is SIGILL or SIGTRAP, a segmentation fault SIGSEGV,
/// glibc's heap checks SIGABRT) gives the terminal back as it was at start-up, writes the line and dies
/// of the same signal, so the exit status is still 128 + the signal. It runs on its own stack, so a stack
/// overflow is reported too, and calls only async-signal-safe functions (`write`, `tcsetattr`,
/// `sigaction`, `raise`) on text made before. `EFB_BACKTRACE=1` keeps Swift's backtracer, for developers.
package enum CrashLine {
    /// The signals handled, with their names.
    package static let signals: [(number: Int32, name: String)] = [
        (SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"), (SIGFPE, "SIGFPE"),
        (SIGABRT, "SIGABRT"),
    ]

    /// The line for each signal number, NUL-free bytes made at installation.
    private nonisolated(unsafe) static var lines: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>?
    /// The terminal's settings at start-up, when standard input is a terminal.
    private nonisolated(unsafe) static var terminal: UnsafeMutablePointer<termios>?
    /// The handler's own stack, kept for the life of the process (held here, so no leak checker calls it lost).
    private nonisolated(unsafe) static var alternateStack: UnsafeMutableRawPointer?

    /// Installs the handler, unless `EFB_BACKTRACE=1`.
    ///
    /// - Parameter language: The language to say it in (from `LC_ALL`, `LC_MESSAGES` or `LANG`).
    package static func install(language: EngineWords.Language) {
        guard getenv("EFB_BACKTRACE").map({ String(cString: $0) }) != "1" else { return }
        let table = UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>.allocate(capacity: 65)
        table.initialize(repeating: UnsafeMutableBufferPointer(start: nil, count: 0), count: 65)
        for (number, name) in signals {
            let text = Array(line(signal: number, name: name, language: language).utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
            _ = buffer.initialize(from: text)
            table[Int(number)] = buffer
        }
        lines = table
        if isatty(0) == 1 {
            let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
            if tcgetattr(0, saved) == 0 { terminal = saved } else { saved.deallocate() }
        }
        // Its own stack, so a stack overflow can still say it.
        var stack = stack_t()
        let size = 1 << 16
        alternateStack = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_sp = alternateStack
        stack.ss_size = size
        stack.ss_flags = 0
        _ = sigaltstack(&stack, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in CrashLine.handle(number) }
        action.sa_flags = SA_ONSTACK | SA_NODEFER | Int32(bitPattern: UInt32(SA_RESETHAND))
        sigemptyset(&action.sa_mask)
        for (number, _) in signals { _ = sigaction(number, &action, nil) }
    }

    /// The line said for `signal` (its `name`), with the exit status it causes: ``LaunchWords``'s.
    package static func line(signal: Int32, name: String, language: EngineWords.Language) -> String {
        let words = LaunchWords(language)
        return "\r\n" + words(.crashed, ["signal": name, "status": "\(128 + Int(signal))"]) + "\n"
    }

    /// The handler: terminal back, the line, then the default action of the same signal.
    private static func handle(_ number: Int32) {
        if let terminal { _ = tcsetattr(0, TCSANOW, terminal) }
        if let lines, number > 0, number < 65 {
            let line = lines[Int(number)]
            if let base = line.baseAddress { _ = write(2, base, line.count) }
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        _ = sigaction(number, &action, nil)
        _ = raise(number)
    }
}
