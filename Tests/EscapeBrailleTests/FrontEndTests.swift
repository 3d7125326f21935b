// SPDX-License-Identifier: Apache-2.0
import EscapeBraille
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import Foundation
import Testing

/// A display that records what it is shown and hands out scripted keys; a test double of our own.
final class FakeDisplay: BrailleDisplay {
    var size: DisplaySize
    var reportedSize: DisplaySize
    var keys: [BrailleKey] = []
    /// Keys that arrive while a write waits for BRLTTY's answer: BrlAPI keeps them in its own buffer
    /// and the socket does not become readable for them.
    var keysDuringWrite: [BrailleKey] = []
    var failure: BrailleError?
    private(set) var frames: [BrailleFrame] = []
    var descriptor: Int32?

    init(size: DisplaySize = DisplaySize(columns: 40)) {
        self.size = size
        self.reportedSize = size
    }

    var fileDescriptor: Int32? { descriptor }

    var mayHoldKeys: Bool { !keys.isEmpty }

    var text: String { frames.last.map { String($0.text.reversed().drop { $0 == " " }.reversed()) } ?? "" }

    func write(_ frame: BrailleFrame) throws(BrailleError) {
        if let failure { throw failure }
        frames.append(frame)
        keys += keysDuringWrite
        keysDuringWrite = []
    }

    func readKey() throws(BrailleError) -> BrailleKey? {
        if let failure { throw failure }
        return keys.isEmpty ? nil : keys.removeFirst()
    }

    func refreshSize() throws(BrailleError) -> DisplaySize {
        if let failure { throw failure }
        size = reportedSize
        return size
    }
}

/// Hands out the displays it is given, failing while it has none.
final class FakeConnector: BrailleConnector {
    var displays: [FakeDisplay]
    var refusals: Int
    private(set) var attempts = 0

    init(displays: [FakeDisplay], refusals: Int = 0) {
        self.displays = displays
        self.refusals = refusals
    }

    func connect() throws(BrailleError) -> any BrailleDisplay {
        attempts += 1
        if refusals > 0 {
            refusals -= 1
            throw .unreachable("connection refused")
        }
        guard !displays.isEmpty else { throw .unreachable("connection refused") }
        return displays.removeFirst()
    }
}

/// A clock that moves one millisecond each time it is read, so backoffs and timeouts run out fast.
final class SteppingClock: GameClock {
    private var time: Int64 = 0
    func now() -> Int64 {
        time += 1
        return time
    }
    func wait(milliseconds: Int) { time += Int64(milliseconds) }
    var isVirtual: Bool { true }
}

@Suite struct BrailleFrontEndTests {
    private func session() throws -> SessionHost {
        SessionHost(
            adventure: try AdventureLoader.bundled(locale: "en"),
            options: EngineOptions(seed: 1),
            store: InMemorySaveStore(),
            clock: VirtualClock()
        )
    }

    private let fast = BrailleFrontEnd.Options(
        view: .init(flashMilliseconds: 0),
        reconnectInitial: 1,
        reconnectMaximum: 2,
        sizeCheckInterval: 3
    )

    /// Runs the front end until `done` holds (or 2000 turns pass).
    private func run(
        _ frontEnd: BrailleFrontEnd,
        on host: SessionHost,
        until done: @escaping () -> Bool
    ) {
        var turns = 0
        frontEnd.run(host: host) {
            turns += 1
            return done() || turns > 2000
        }
    }

    @Test func waitsForBRLTTYThenStartsTheGame() throws {
        let display = FakeDisplay()
        let connector = FakeConnector(displays: [display], refusals: 3)
        var logged: [String] = []
        let host = try session()
        let frontEnd = BrailleFrontEnd(
            connector: connector,
            clock: SteppingClock(),
            options: fast,
            log: { logged.append($0) }
        )
        run(frontEnd, on: host) { !display.frames.isEmpty }
        #expect(connector.attempts == 4)
        #expect(logged.filter { $0.contains("Waiting for BRLTTY") }.count == 1)
        #expect(logged.contains { $0.contains("Connected to BRLTTY (40 cells)") })
        #expect(display.text == "Darkness hdr 1/3")
    }

    @Test func namesItsKeysToTheEngine() throws {
        let display = FakeDisplay()
        let session = try session()
        let host = session
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: SteppingClock(),
            options: fast,
            log: { _ in }
        )
        run(frontEnd, on: host) { !display.frames.isEmpty }
        #expect(session.engine.keyNames[.next]?.hasPrefix("the key for “go down one line” (LNDN)") == true)
        #expect(session.engine.keyNames == BrailleKeyMap.keyNames)
    }

    @Test func describesItsKeysInTheAdventuresLanguage() throws {
        let display = FakeDisplay()
        let session = try session()
        var options = fast
        options.keyLanguage = BrailleWords(locale: "fr_FR.UTF-8").language
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: SteppingClock(),
            options: options,
            log: { _ in }
        )
        run(frontEnd, on: session) { !display.frames.isEmpty }
        #expect(
            session.engine.keyNames[.next]?.hasPrefix("la touche «\u{00A0}descendre d'une ligne\u{00A0}» (LNDN)")
                == true
        )
        #expect(session.engine.keyNames == BrailleKeyMap.keyNames(in: .french))
    }

    @Test func keysWaitingTogetherMakeOneWrite() throws {
        let display = FakeDisplay()
        display.keys = [.command(.bottom), .route(cell: 1)]
        let host = try session()
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: SteppingClock(),
            options: fast,
            log: { _ in }
        )
        run(frontEnd, on: host) { display.keys.isEmpty && display.text.hasPrefix("How to play") }
        // The opening, then both keys and all their events (focus; screen, focus, sound) in one write.
        #expect(display.frames.map(\.text).map { $0.prefix(16) } == ["Darkness hdr 1/3", "How to play hdr "])
    }

    /// Reproduces a key held up to a size check's interval (one second): BrlAPI keeps a key that came
    /// while it waited for BRLTTY's answer to a write, so `poll` on its socket does not wake for it.
    @Test func aKeyBrlAPIKeptDuringAWriteIsReadBeforeTheLoopWaits() throws {
        let display = FakeDisplay()
        let socket = Pipe()  // never written to: BrlAPI read everything BRLTTY sent
        display.descriptor = socket.fileHandleForReading.fileDescriptor
        display.keysDuringWrite = [.command(.bottom)]
        let clock = SteppingClock()
        var options = fast
        options.sizeCheckInterval = 600_000
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: clock,
            options: options,
            log: { _ in }
        )
        var sleptOnAKey = false
        var turns = 0
        frontEnd.run(host: try session()) {
            turns += 1
            // The loop is about to wait: with a key waiting, it must not wait longer than a moment.
            if !display.keys.isEmpty, let deadline = frontEnd.deadline, deadline > clock.now() + 1000 {
                sleptOnAKey = true
            }
            return sleptOnAKey || display.text.hasPrefix("Continue") || turns > 100
        }
        #expect(!sleptOnAKey)
        #expect(display.text.hasPrefix("Continue btn 3/3"))
    }

    @Test func tellsTheEngineWhenTheDisplayGoesAndComesBack() throws {
        let first = FakeDisplay()
        let second = FakeDisplay(size: DisplaySize(columns: 20))
        first.keys = [.command(.lineDown)]
        let session = try session()
        var logged: [String] = []
        let host = session
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [first, second]),
            clock: SteppingClock(),
            options: fast,
            log: { logged.append($0) }
        )
        var lost = false
        run(frontEnd, on: host) {
            if !lost && first.text.hasPrefix("You wake") {
                first.failure = .disconnected("end of file")
                lost = true
            }
            return !second.frames.isEmpty
        }
        #expect(logged.contains { $0.contains("Lost the Braille display") })
        #expect(logged.contains { $0.contains("BRLTTY is back (20 cells)") })
        // Back where the player was, told so, with the new display's size.
        #expect(second.text == "Welcome back.")
        #expect(session.engine.focus.element.id == "text")
        // FWINLT before the message's start: the message goes (any other key would also act).
        second.keys = [.command(.fullWindowLeft)]
        run(frontEnd, on: host) { second.text.hasPrefix("You wake on cold") }
        #expect(second.text == "You wake on cold")
    }

    @Test func offlineMeansBRLTTYBorrowsTheDisplayUntilItSaysNoop() throws {
        // BRLTTY's preferences menu: OFFLINE when its message takes the display, NOOP when it gives it
        // back. The connection stays: no reconnect, no assistive screen, no "Welcome back".
        let display = FakeDisplay()
        display.keys = [.command(.lineDown)]
        var logged: [String] = []
        let session = try session()
        let connector = FakeConnector(displays: [display, FakeDisplay()])
        var options = fast
        options.offlineGrace = 1_000_000
        let frontEnd = BrailleFrontEnd(connector: connector, clock: SteppingClock(), options: options) {
            logged.append($0)
        }
        run(frontEnd, on: session) { display.text.hasPrefix("You wake on cold") }
        let before = display.frames.count
        display.keys = [.command(.offline)]
        run(frontEnd, on: session) { logged.contains { $0.contains("BRLTTY is showing its own screen") } }
        // Nothing is written while BRLTTY shows its own screen.
        display.keys = []
        run(frontEnd, on: session) { display.frames.count > before }
        #expect(display.frames.count == before)
        // NOOP: BRLTTY shows the game's last frame again by itself; the unchanged frame is not written
        // again (after learn mode, one write per key BRLTTY described used to flicker).
        display.keys = [.command(.noop)]
        run(frontEnd, on: session) { logged.contains { $0.contains("BRLTTY gave the display back") } }
        run(frontEnd, on: session) { display.frames.count > before }
        #expect(display.frames.count == before)
        // What changes afterwards is written, once.
        display.keys = [.command(.lineDown)]
        run(frontEnd, on: session) { display.frames.count > before }
        #expect(display.frames.count == before + 1)
        #expect(display.text.hasPrefix("Continue"))
        #expect(connector.attempts == 1)
        #expect(session.engine.screen.kind == .intro)
        #expect(!logged.contains { $0.contains("Lost the Braille display") })
        #expect(!display.frames.contains { $0.text.hasPrefix("Welcome back") })
    }

    @Test func aDisplayOfflineLongerThanBRLTTYsScreensPausesTheGameUntilItIsBack() throws {
        // A display switched off while BRLTTY runs: OFFLINE, and nothing more for longer than any of
        // BRLTTY's own screens lasts. The engine is told, as for a lost connection, without reconnecting.
        let display = FakeDisplay()
        display.keys = [.command(.lineDown)]
        var logged: [String] = []
        let session = try session()
        let connector = FakeConnector(displays: [display])
        var options = fast
        options.offlineGrace = 50
        let frontEnd = BrailleFrontEnd(connector: connector, clock: SteppingClock(), options: options) {
            logged.append($0)
        }
        run(frontEnd, on: session) { display.text.hasPrefix("You wake on cold") }
        display.keys = [.command(.offline)]
        run(frontEnd, on: session) { session.engine.screen.kind == .assistive }
        #expect(session.engine.screen.kind == .assistive)
        #expect(logged.contains { $0.contains("has been offline") })
        display.keys = [.command(.noop)]
        run(frontEnd, on: session) { display.text.hasPrefix("Welcome back.") }
        #expect(display.text == "Welcome back. Carrying on where you")
        #expect(connector.attempts == 1)
        display.keys = [.command(.fullWindowLeft)]
        run(frontEnd, on: session) { display.text.hasPrefix("You wake on cold") }
        #expect(display.text == "You wake on cold stone. Your lantern")
    }

    @Test func followsAChangeOfDisplaySize() throws {
        let display = FakeDisplay()
        let host = try session()
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: SteppingClock(),
            options: fast,
            log: { _ in }
        )
        run(frontEnd, on: host) { !display.frames.isEmpty }
        display.reportedSize = DisplaySize(columns: 12, rows: 2)
        run(frontEnd, on: host) { display.frames.last?.cells.count == 24 }
        #expect(display.frames.last?.text == "Darkness hdr1/3         ")
    }

    @Test func writesNothingToADisplayOfNoCellsAndFollowsItWhenItGrows() throws {
        let display = FakeDisplay()
        let host = try session()
        var logged: [String] = []
        let frontEnd = BrailleFrontEnd(
            connector: FakeConnector(displays: [display]),
            clock: SteppingClock(),
            options: fast,
            log: { logged.append($0) }
        )
        run(frontEnd, on: host) { !display.frames.isEmpty }
        let written = display.frames.count
        display.reportedSize = DisplaySize(columns: 0)
        run(frontEnd, on: host) { display.size.cells == 0 }
        // 2000 turns: the size is checked again and again (every few milliseconds of this clock).
        run(frontEnd, on: host) { false }
        #expect(display.frames.count == written, "nothing is written to a display of no cells")
        display.reportedSize = DisplaySize(columns: 30)
        run(frontEnd, on: host) { display.frames.count > written }
        #expect(display.frames.last?.cells.count == 30)
        #expect(display.text == "Darkness hdr 1/3")
        #expect(logged == ["Connected to BRLTTY (40 cells); the game is on the display."])
    }
}
