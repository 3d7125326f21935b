// SPDX-License-Identifier: Apache-2.0
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real BRLTTY with its virtual braille driver, and the test acting as the display on its socket.
///
/// BRLTTY runs with no screen driver and no speech, private folders, and BrlAPI on a loopback port
/// without authorization. The test connects to the driver's socket as the display, reads what BRLTTY
/// shows (`Visual "..."` lines) and presses keys by writing BRLTTY command names.
final class VirtualDisplay: @unchecked Sendable {
    /// The BrlAPI host to give clients: `127.0.0.1:N` (TCP port 4101+N).
    let brlapiHost: String
    private let displayPort: UInt16
    private let folder: URL
    private var brltty: Process?
    private var socket: Int32 = -1
    private var lastPress = Date.distantPast
    private let state = Locked(State())

    private struct State {
        var visual = ""
        var dots: [Character] = []
        /// The last update whole: the text BRLTTY was given and the dots it showed for it.
        var frame: (text: [Character], dots: [Character])?
        /// How many updates BRLTTY sent.
        var frames = 0
        var history: [String] = []
        var closed = false
        /// How many of ``history``'s lines the test has read.
        var read = 0
    }

    /// Whether a key may be pressed only once the test has read everything the display showed (the
    /// whole-game tests): a press with something unread fails.
    var strict = false

    /// How the test reads the display's text: as it is, or (contracted Braille) back-translated.
    var reader: @Sendable (String) -> String = { $0 }

    /// BrlAPI's authorization: `none`, or `keyfile:PATH`.
    let auth: String

    /// Picks free ports; nothing runs yet.
    init(brlapiNumber: Int? = nil, auth: String = "none") throws {
        self.auth = auth
        displayPort = try Self.freePort()
        let number = try brlapiNumber ?? Self.freeBrlapiNumber()
        brlapiHost = "127.0.0.1:\(number)"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-brltty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts BRLTTY and connects to it as a display of `columns` cells in each of `rows` rows.
    func start(columns: Int = 40, rows: Int = 1) throws {
        let process = Process()
        process.executableURL = try Self.brlttyPath()
        let number = brlapiHost.split(separator: ":").last.map(String.init) ?? "0"
        process.arguments = [
            "-n", "-e", "-q", "-b", "vr", "-d", "server:127.0.0.1:\(displayPort)", "-x", "no", "-s", "no",
            "-A", "host=127.0.0.1:\(number),auth=\(auth)", "-f", "/dev/null", "-F", "/dev/null",
            "-W", folder.path, "-U", folder.path, "-P", folder.appendingPathComponent("pid").path,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        brltty = process
        // BRLTTY says when its driver listens; probing the port would make the probe the display.
        let said = Pipe.drain(errors)
        try waitUntil(timeout: 20, "BRLTTY to listen on port \(displayPort)") { said.text.contains("listening on") }
        try connect(columns: columns, rows: rows)
    }

    private func connect(columns: Int, rows: Int) throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = displayPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw TestFailure("cannot connect to the virtual driver: errno \(errno)") }
        socket = descriptor
        state.withLock { $0 = State() }
        Thread.detachNewThread { [state] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if line.hasPrefix("Braille \""), line.hasSuffix("\"") {
                        let cells = Self.cells(fromDots: line.dropFirst(9).dropLast())
                        // BRLTTY sends the text first, then the dots that show it (the cursor's dots 7-8 too).
                        state.withLock {
                            $0.dots = cells
                            $0.frame = (Array($0.visual), cells)
                            $0.frames += 1
                        }
                        continue
                    }
                    guard line.hasPrefix("Visual \""), line.hasSuffix("\"") else { continue }
                    let text = Self.unescaped(line.dropFirst(8).dropLast())
                    state.withLock {
                        // A blinking cursor sends the same text again: that is nothing new to read.
                        if $0.history.last != text { $0.history.append(text) }
                        $0.visual = text
                    }
                }
            }
            state.withLock { $0.closed = true }
        }
        try send(rows == 1 ? "cells \(columns)" : "cells \(columns) \(rows)")
    }

    /// Kills BRLTTY (it ignores SIGTERM while it waits for a display) and closes the display's socket.
    func stop() {
        if let brltty, brltty.isRunning {
            kill(brltty.processIdentifier, SIGKILL)
            brltty.waitUntilExit()
        }
        brltty = nil
        if socket >= 0 {
            close(socket)
            socket = -1
        }
    }

    /// What the display shows now, trailing blanks removed, as ``reader`` reads it.
    var text: String { reader(shown) }

    /// Whether the display showed something since the test last read it.
    var hasUnread: Bool { state.withLock { $0.read < $0.history.count } }

    /// What BRLTTY was given to show now (U+28xx characters stand for their dots), trailing blanks
    /// removed.
    var shown: String {
        state.withLock {
            $0.read = $0.history.count
            return $0.visual
        }.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
    }

    /// The dots of every cell as BRLTTY last sent them to the display, as U+28xx characters.
    var dots: [Character] { state.withLock { $0.dots } }

    /// The last update whole: each cell's character as BRLTTY was given it (U+28xx characters stand for
    /// their dots) and the dots BRLTTY showed, its cursor's dots 7-8 included; `nil` before the first.
    var frame: (text: [Character], dots: [Character])? { state.withLock { $0.frame } }

    /// How many updates BRLTTY sent the display.
    var frameCount: Int { state.withLock { $0.frames } }

    /// The cells where BRLTTY shows its cursor (dots 7 and 8, which no letter, digit or punctuation of
    /// its text table nor a 6-dot contracted cell has) in ``frame``.
    static func cursorCells(_ dots: [Character]) -> [Int] {
        dots.indices.filter { (dots[$0].unicodeScalars.first.map { $0.value - 0x2800 } ?? 0) & 0xC0 == 0xC0 }
    }

    /// Cells from the driver's `Braille` line: each cell's dot numbers (`1245`), `|` between cells.
    static func cells(fromDots line: Substring) -> [Character] {
        line.split(separator: "|", omittingEmptySubsequences: false).map { cell in
            var bits: UInt32 = 0
            for digit in cell {
                if let dot = digit.wholeNumberValue, (1...8).contains(dot) { bits |= 1 << UInt32(dot - 1) }
            }
            return Character(Unicode.Scalar(0x2800 + bits) ?? "\u{2800}")
        }
    }

    /// How many cells the last update had.
    var width: Int { state.withLock { $0.visual.count } }

    /// Everything the display showed, in order, as BRLTTY was given it (U+28xx characters stand for
    /// their dots).
    var history: [String] { state.withLock { $0.history } }

    /// What the display showed from the `start`th update of ``history`` on, trailing blanks removed, as
    /// ``reader`` reads it (with a contracted table, ``history`` holds dots: compare text with this).
    func readHistory(from start: Int) -> [String] {
        history.dropFirst(start).map {
            reader($0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression))
        }
    }

    /// A `Visual` line's text as BRLTTY meant it: the driver writes a quote as `\"` and a backslash as
    /// `\\` inside the quoted text.
    static func unescaped(_ quoted: Substring) -> String {
        var text = ""
        var escaping = false
        for character in quoted {
            if !escaping, character == "\\" {
                escaping = true
                continue
            }
            escaping = false
            text.append(character)
        }
        return text
    }

    /// Tells BRLTTY the display now has `columns` cells, as a display whose size changes would.
    func resize(columns: Int) throws {
        try press("cells \(columns)")
    }

    /// A folder of this display's own, for files a test needs beside BRLTTY.
    var privateFolder: URL { folder }

    /// Presses a key: a BRLTTY command name such as `LNDN`, `ROUTE 3` or `PASSCHAR 0x61`.
    ///
    /// The driver takes one key per arrival, so two presses are at least 120 ms apart (BRLTTY reads the
    /// driver every 40 ms, and two keys read at once lose the second). This is a rate, not a wait for an
    /// effect: callers wait for what a key does with ``press(_:until:timeout:)``.
    func press(_ key: String) throws {
        let gap = 0.12 - Date().timeIntervalSince(lastPress)
        if gap > 0 { usleep(UInt32(gap * 1_000_000)) }
        if strict {
            let unread = state.withLock { $0.history.dropFirst($0.read) }
            guard unread.isEmpty else { throw UnreadDisplay(key: key, unread: Array(unread)) }
        }
        lastPress = Date()
        try send(key)
    }

    /// Presses a key and waits until the display shows what `expected` accepts (a generous bound: under
    /// a loaded machine, with many BRLTTYs and games at once, a key can take seconds to show).
    ///
    /// With a game ``follow(_:)``ed, a key its trace shows never reached it (lost on the way through
    /// BRLTTY, once in a CI run) is pressed again, once in the game: it says so on standard error, and
    /// a second loss fails. A key that reached the game and changed nothing always fails.
    @discardableResult
    func press(_ key: String, until expected: @escaping (String) -> Bool, timeout: Double = 30) throws -> String {
        let received = keysReceived()
        try press(key)
        do {
            return try waitFor(timeout: timeout, "the display to change after \(key)", expected)
        } catch {
            guard let received, keysReceived() == received, !pressedAgain else { throw error }
            pressedAgain = true
            FileHandle.standardError.write(
                Data("VirtualDisplay: \(key) never reached efb (its trace shows no key): pressed again once\n".utf8)
            )
            try press(key)
            return try waitFor(timeout: timeout, "the display to change after \(key), pressed again", expected)
        }
    }

    /// The game whose trace the display follows (``follow(_:)``).
    private var followed: RunningEFB?
    private var pressedAgain = false

    /// How many keys the followed game's trace shows it read (`efb braille --trace`).
    private func keysReceived() -> Int? {
        followed.map { $0.standardError.components(separatedBy: " ms: key ").count - 1 }
    }

    /// Follows `game` (started with `--trace`): a key it never received is told from one it ignored,
    /// and a display that does not show what was awaited says what the game last logged.
    func follow(_ game: RunningEFB) {
        followed = game
    }

    /// Waits until the display shows what `expected` accepts; returns it.
    @discardableResult
    func waitFor(timeout: Double = 10, _ what: String, _ expected: @escaping (String) -> Bool) throws -> String {
        var shown = ""
        do {
            try waitUntil(timeout: timeout, what) {
                shown = self.text
                return expected(shown)
            }
        } catch {
            let logged = followed.map { "; efb's last lines: \($0.standardError(last: 20))" } ?? ""
            throw TestFailure("\(error); the display shows \"\(text)\"; recently: \(history.suffix(5))\(logged)")
        }
        return shown
    }

    /// Waits until the display starts with `prefix`.
    @discardableResult
    func waitFor(prefix: String, timeout: Double = 10) throws -> String {
        try waitFor(timeout: timeout, "the display to show \"\(prefix)\"") { $0.hasPrefix(prefix) }
    }

    private func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("cannot write to the virtual driver: errno \(errno)") }
    }

    // MARK: Ports and paths

    static func brlttyPath() throws -> URL {
        for path in ["/usr/bin/brltty", "/bin/brltty", "/usr/sbin/brltty"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        throw TestFailure("brltty is not installed: run scripts/install-deps")
    }

    static var brlttyInstalled: Bool { (try? brlttyPath()) != nil }

    /// Whether this build has the BrlAPI trait (without it `efb braille` only says it is missing).
    static var brlapiBuilt: Bool {
        #if BrlAPI
        true
        #else
        false
        #endif
    }

    static func freePort() throws -> UInt16 {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A BrlAPI host number N whose port 4101+N is free.
    static func freeBrlapiNumber() throws -> Int {
        for _ in 0..<50 {
            let number = Int.random(in: 200..<20_000)
            if portIsFree(UInt16(4101 + number)) { return number }
        }
        throw TestFailure("no free BrlAPI port")
    }

    static func portIsFree(_ port: UInt16) -> Bool {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A key was about to be pressed while the display showed something the test had not read.
struct UnreadDisplay: Error, CustomStringConvertible {
    let key: String
    let unread: [String]
    var description: String { "\(key) pressed without reading \(unread)" }
}

/// `efb braille` against `host` without authorization, seeded, with flash messages shown until a key.
func brailleGame(host: String, arguments: [String] = []) throws -> RunningEFB {
    try RunningEFB(
        ["braille", "--host", host, "--auth", "none", "--seed", "1", "--flash-time", "0", "--trace"] + arguments
    )
}
