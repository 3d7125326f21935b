// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Plays the game on a Braille display: keys in, the engine's events out to the display.
///
/// The engine runs in the same process, behind the same session a pipe client talks to, driven by the
/// same ``EventLoop``. The front end only turns keys into commands and shows the events it gets back. When the connection
/// to BRLTTY drops, it tells the engine the player's assistive technology went away, reconnects
/// with backoff, tells the engine it is back, and shows exactly what was there before.
///
/// BRLTTY also borrows the display while the connection stays: to show one of its own messages (the
/// title of its preferences menu, command learn mode, ...) it tells its clients the display is
/// offline (`OFFLINE`), and when it gives the display back it says `NOOP`. That is not a lost
/// display: the game waits and writes nothing; when BRLTTY is done it shows the game's last frame
/// again by itself, and the game writes only a frame that changed meanwhile. BRLTTY's key help and
/// preferences menu are screens of their own: the game sits on its own terminal (``TtyPlacement``)
/// so that they show and take the keys while open; its frames written meanwhile wait in BRLTTY.
/// Only when the display stays offline longer than any of BRLTTY's own screens does (a display
/// switched off or unplugged while BRLTTY runs) is the engine told, as for a lost connection.
package final class BrailleFrontEnd: FrontEnd {
    /// Timing of the front end.
    package struct Options: Sendable {
        /// How messages are shown.
        package var view: BrailleView.Options
        /// First wait before connecting again, in milliseconds; it doubles up to ``reconnectMaximum``.
        package var reconnectInitial: Int64
        /// Longest wait between two attempts to connect, in milliseconds.
        package var reconnectMaximum: Int64
        /// How often the display's size is read again while nothing happens, in milliseconds.
        package var sizeCheckInterval: Int64
        /// The language of the key descriptions sent in `hello` (the adventure's).
        package var keyLanguage: EngineWords.Language
        /// How long the display may stay offline, in milliseconds, before the engine is told the player's
        /// assistive technology went away: longer than BRLTTY's own messages (about 4 s).
        package var offlineGrace: Int64
        /// How text becomes cells: BRLTTY's text table (the default) or a contracted table.
        package var translator: any BrailleTranslator
        /// Whether every key read and every frame written is logged, with the time: what to attach to a
        /// report of a display that does not do what a key asked.
        package var traces: Bool

        /// Creates options.
        package init(
            view: BrailleView.Options = BrailleView.Options(),
            reconnectInitial: Int64 = 250,
            reconnectMaximum: Int64 = 1000,
            sizeCheckInterval: Int64 = 1000,
            keyLanguage: EngineWords.Language = .english,
            offlineGrace: Int64 = 15_000,
            translator: any BrailleTranslator = PlainBrailleTranslator(),
            traces: Bool = false
        ) {
            self.view = view
            self.traces = traces
            self.translator = translator
            self.reconnectInitial = reconnectInitial
            self.reconnectMaximum = reconnectMaximum
            self.sizeCheckInterval = sizeCheckInterval
            self.keyLanguage = keyLanguage
            self.offlineGrace = offlineGrace
        }
    }

    private let connector: any BrailleConnector
    private let clock: any GameClock
    private let options: Options
    /// The lines written on the terminal, in the front end's language.
    private var terminalWords: BrailleWords { BrailleWords(options.keyLanguage) }
    private let log: (String) -> Void
    private var view: BrailleView
    private var display: (any BrailleDisplay)?
    private var lastFrame: BrailleFrame?
    private var nextAttempt: Int64 = 0
    private var backoff: Int64
    private var nextSizeCheck: Int64 = 0
    private var requestNumber = 0
    private var toldWaiting = false
    private var everConnected = false
    private var toldConnected = false
    /// Whether BRLTTY is showing a screen of its own on the display (between `OFFLINE` and the next key).
    private var heldByBRLTTY = false
    /// When the display went offline.
    private var heldSince: Int64 = 0
    /// Whether the engine was told the display went away (it stayed offline past the grace, or the
    /// connection was lost) and must be told when it is back.
    private var toldAway = false
    /// What the front end has to tell the session at its next service (the display went or came back).
    private var queued: [SessionInput] = []
    /// Whether the game is one `efb serve` shares (the server said this client's role).
    private var followsSharedGame = false
    /// The shared game ended, and whether the display said so.
    private var sharedGameEnded = false
    private var saidSharedGameEnded = false
    /// Until when the display says that the shared game ended, unless a key is pressed first.
    private var farewellUntil: Int64?
    /// The farewell on the display, panned as any message is.
    private var farewell: BrailleView?

    /// Creates a front end.
    ///
    /// - Parameters:
    ///   - connector: How to reach the display.
    ///   - clock: The time for messages and reconnecting (the monotonic clock; the game's own clock
    ///     may be virtual); the ``EventLoop`` driving this front end must use the same clock.
    ///   - options: Timing.
    ///   - log: Where to tell the person at the terminal what happens (standard error).
    package init(
        connector: any BrailleConnector,
        clock: any GameClock,
        options: Options = Options(),
        log: @escaping (String) -> Void
    ) {
        self.connector = connector
        self.clock = clock
        self.options = options
        self.log = log
        self.view = BrailleView(
            size: DisplaySize(columns: 40),
            options: options.view,
            translator: options.translator,
            language: options.keyLanguage
        )
        self.backoff = options.reconnectInitial
    }

    /// Plays `host`'s game (in this process, or one `efb serve` shares) on the display until it ends, a
    /// stop signal comes, or `pauseWhen` says so; waits for BRLTTY first.
    ///
    /// - Returns: How the run ended.
    @discardableResult
    package func run(host: any GameHost, pauseWhen: @escaping () -> Bool = { false }) -> EventLoop.Outcome {
        EventLoop(host: host, frontEnd: self, clock: clock, pauseWhen: pauseWhen).run()
    }

    // MARK: FrontEnd

    /// The display's socket, while connected.
    package var descriptors: [Int32] {
        display?.fileDescriptor.map { [$0] } ?? []
    }

    /// The nearest of: a message timing out, the next attempt to connect, the next size check; now
    /// while keys may wait in BrlAPI's buffer; once the shared game ended, the end of the farewell.
    package var deadline: Int64? {
        if let farewellUntil { return farewellUntil }
        if !queued.isEmpty { return clock.now() }
        // Keys BrlAPI took in while it waited for an answer do not make the socket readable.
        if display?.mayHoldKeys == true { return clock.now() }
        var deadlines: [Int64] = []
        if let deadline = view.nextDeadline { deadlines.append(deadline) }
        deadlines.append(display == nil ? nextAttempt : nextSizeCheck)
        if heldByBRLTTY && !toldAway { deadlines.append(heldSince + options.offlineGrace) }
        return deadlines.min()
    }

    /// Ready once BRLTTY answered for the first time.
    package var isReady: Bool { everConnected }

    /// A display going away is not the end: the front end reconnects.
    package var isClosed: Bool { false }

    /// While the display says that the shared game ended.
    package var lingers: Bool { farewellUntil != nil }

    /// The front end's `hello`, its keys described in English.
    package static var hello: ClientHello { hello(keyLanguage: .english) }

    /// The front end's `hello`: it describes its keys in `keyLanguage`, so teaching texts name them, and
    /// asks for protocol 1.1, whose `time` announcements let a new time left replace the one on the display.
    package static func hello(keyLanguage: EngineWords.Language) -> ClientHello {
        ClientHello(
            client: "efb braille",
            acceptedVersions: .versions([.v1_0, .v1_1]),
            capabilities: ["braille"],
            keys: BrailleKeyMap.keyNames(in: keyLanguage)
        )
    }

    /// Says ``hello(keyLanguage:)``.
    package func opening() -> [SessionInput] {
        [.request(request(.hello(Self.hello(keyLanguage: options.keyLanguage))))]
    }

    /// Connects or reconnects when due, reads the keys, lets messages time out, follows size changes.
    package func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        if farewellUntil != nil {
            serviceFarewell(now: now)
            return
        }
        if !everConnected {
            // The game starts once connected, before any key is read.
            if now >= nextAttempt { attemptFirstConnection() }
            return
        }
        if display == nil && now >= nextAttempt { reconnect() }
        for input in queued { submit(input) }
        queued = []
        readKeys(submit: submit)
        checkOffline(now: clock.now())
        for input in queued { submit(input) }
        queued = []
        view.tick(now: clock.now())
        checkSize(now: clock.now())
    }

    /// Lays the events out on the view; the display is written at the flush.
    package func show(_ events: [StampedEvent], now: Int64) {
        view.apply(events, now: now)
        for stamped in events {
            switch stamped.event {
            case .role:
                followsSharedGame = true
            case .ended(let reason, _) where stamped.replyTo == nil && followsSharedGame && reason != .escaped:
                sharedGameEnded = true
            case .game(.announce(let announcement)) where options.traces:
                trace("announce \(announcement.category) \(announcement.priority): \(announcement.text)")
            case .game(.focus(let state)) where options.traces:
                trace("focus \(state.screen) \(state.element.id)")
            case .error(let error) where options.traces:
                trace("error \(error.code): \(error.message)")
            default:
                continue
            }
        }
    }

    /// Writes the view to the display, if it changed; once the shared game it follows ended, says so.
    package func flush(now: Int64) {
        guard farewellUntil == nil else { return }
        render()
        if sharedGameEnded && !saidSharedGameEnded {
            saidSharedGameEnded = true
            sayTheSharedGameEnded()
        }
    }

    /// Says on the display that the shared game it followed has ended.
    ///
    /// The message stays until a key other than a pan is pressed or a message's time is up (10 s when
    /// messages stay until a key), so the player is not left reading the last screen of a game that is
    /// gone. Panning reads it on a small display.
    ///
    /// The loop serves the display while it ``lingers``, then ends, the host being finished.
    private func sayTheSharedGameEnded() {
        log(terminalWords(.terminalSharedGameEnded))
        guard let display, !heldByBRLTTY, display.size.cells > 0 else { return }
        var farewell = BrailleView(size: view.size, options: options.view, translator: options.translator)
        farewell.flash(BrailleWords(view.language)(.sharedGameEnded), now: clock.now())
        do throws(BrailleError) {
            try display.write(farewell.frame)
        } catch {
            return
        }
        // A display with nothing to wait on (a test's) has been told; a real one waits for a key.
        guard display.fileDescriptor != nil else { return }
        self.farewell = farewell
        farewellUntil = clock.now() + farewellTime
    }

    /// How long the farewell stays after it was shown or panned.
    private var farewellTime: Int64 { options.view.flashMilliseconds > 0 ? options.view.flashMilliseconds : 10_000 }

    /// Ends the farewell on its deadline, on any key the player presses, or when the display goes.
    private func serviceFarewell(now: Int64) {
        guard let until = farewellUntil, now < until, let display else {
            farewellUntil = nil
            return
        }
        do throws(BrailleError) {
            while let key = try display.readKey() {
                if key == .command(.offline) || key == .command(.noop) { continue }
                // Panning reads the farewell (past either end it goes, as any message does).
                if case .pan(let direction)? = BrailleKeyMap.intent(for: key, editing: false),
                    var farewell, !farewell.flashes.isEmpty
                {
                    _ = farewell.handle(.pan(direction), now: now)
                    self.farewell = farewell
                    if !farewell.flashes.isEmpty {
                        try display.write(farewell.frame)
                        farewellUntil = now + farewellTime
                        continue
                    }
                }
                farewellUntil = nil
                return
            }
        } catch {
            farewellUntil = nil
        }
    }

    // MARK: Connection

    private func attemptFirstConnection() {
        do throws(BrailleError) {
            try connect()
        } catch {
            if !toldWaiting {
                log(Self.waitingMessage(error, language: options.keyLanguage))
                toldWaiting = true
            }
            nextAttempt = clock.now() + backoff
            backoff = min(backoff * 2, options.reconnectMaximum)
            return
        }
        everConnected = true
        backoff = options.reconnectInitial
        if display?.size.cells ?? 0 > 0 { logConnected() }
    }

    /// Tells the terminal the game is on the display, once its size is known.
    private func logConnected() {
        guard !toldConnected else { return }
        toldConnected = true
        log(terminalWords(.terminalConnected, ["size": terminalWords.size(view.size)]))
    }

    private func connect() throws(BrailleError) {
        let display = try connector.connect()
        self.display = display
        heldByBRLTTY = false
        view.size = usable(display.size)
        lastFrame = nil
        // A display BRLTTY has not heard from yet reports no cells: look again soon.
        let interval = display.size.cells > 0 ? options.sizeCheckInterval : min(100, options.sizeCheckInterval)
        nextSizeCheck = clock.now() + interval
    }

    private func reconnect() {
        do throws(BrailleError) {
            try connect()
        } catch {
            nextAttempt = clock.now() + backoff
            backoff = min(backoff * 2, options.reconnectMaximum)
            return
        }
        backoff = options.reconnectInitial
        log(terminalWords(.terminalBack, ["size": terminalWords.size(view.size)]))
        if toldAway { queued.append(.request(request(.game(.assistive(active: true))))) }
        toldAway = false
    }

    private func lose(_ error: BrailleError) {
        guard display != nil else { return }
        display = nil
        lastFrame = nil
        log(terminalWords(.terminalLost, ["reason": "\(error)"]))
        if !toldAway { queued.append(.request(request(.game(.assistive(active: false))))) }
        toldAway = true
        backoff = options.reconnectInitial
        nextAttempt = clock.now() + backoff
    }

    private func checkSize(now: Int64) {
        // While BRLTTY shows its own message, it answers no request: ask once it is done.
        guard let display, !heldByBRLTTY, now >= nextSizeCheck else { return }
        nextSizeCheck = now + options.sizeCheckInterval
        do throws(BrailleError) {
            let size = try display.refreshSize()
            if options.traces { trace("size \(size)") }
            if usable(size) != view.size {
                view.size = usable(size)
                lastFrame = nil
            }
            if size.cells > 0 { logConnected() } else { nextSizeCheck = now + min(100, options.sizeCheckInterval) }
        } catch {
            lose(error)
        }
    }

    /// A display not yet ready reports no cells; lay out for one cell until it reports its size.
    private func usable(_ size: DisplaySize) -> DisplaySize {
        DisplaySize(columns: max(size.columns, 1), rows: max(size.rows, 1))
    }

    // MARK: Keys and output

    /// Reads every key waiting; each one's commands go to the session, and their events reach the view,
    /// before the next key is read.
    private func readKeys(submit: (SessionInput) -> Void) {
        guard let display else { return }
        do throws(BrailleError) {
            while let key = try display.readKey() {
                if key == .command(.offline) {
                    hold()
                    continue
                }
                if heldByBRLTTY { release() }
                if key == .command(.noop) { continue }
                let commands = view.handle(key, now: clock.now())
                if options.traces {
                    trace("key \(key): \(commands.isEmpty ? "handled on the display" : "\(commands)")")
                }
                for command in commands {
                    submit(.request(request(.game(command))))
                }
            }
        } catch {
            lose(error)
        }
    }

    /// BRLTTY took the display for a screen of its own: keep everything and wait for it to give it back.
    private func hold() {
        guard !heldByBRLTTY else { return }
        heldByBRLTTY = true
        heldSince = clock.now()
        log(terminalWords(.terminalBrlttyScreen))
    }

    /// BRLTTY gave the display back (it said `NOOP`, or a key came).
    ///
    /// BRLTTY shows the game's last frame again by itself, so an unchanged frame is not written again:
    /// each write is one more update of the display (after learn mode, one per key it described).
    /// A frame that changed meanwhile is written once, at the next flush.
    private func release() {
        heldByBRLTTY = false
        nextSizeCheck = clock.now()
        log(terminalWords(.terminalGivenBack))
        if toldAway { queued.append(.request(request(.game(.assistive(active: true))))) }
        toldAway = false
    }

    /// A display offline for longer than BRLTTY's own screens last was switched off or unplugged: the
    /// engine is told, as for a lost connection, so timed levels wait for the player.
    private func checkOffline(now: Int64) {
        guard heldByBRLTTY, !toldAway, now >= heldSince + options.offlineGrace else { return }
        toldAway = true
        log(terminalWords(.terminalOffline, ["seconds": "\(options.offlineGrace / 1000)"]))
        queued.append(.request(request(.game(.assistive(active: false)))))
    }

    private func render() {
        guard let display, !heldByBRLTTY, display.size.cells > 0 else { return }
        let frame = view.frame
        guard frame != lastFrame else { return }
        do throws(BrailleError) {
            try display.write(frame)
            lastFrame = frame
            if options.traces { trace("wrote \(String(frame.cells))") }
        } catch {
            lose(error)
        }
    }

    /// One line of ``Options/traces``: the monotonic time in milliseconds, then what happened.
    private func trace(_ line: String) {
        log("trace \(clock.now()) ms: \(line)")
    }

    private func request(_ command: Command) -> Request {
        requestNumber += 1
        return Request(id: .int(requestNumber), command: command)
    }

    /// What the person at the terminal reads while BRLTTY cannot be reached.
    static func waitingMessage(_ error: BrailleError, language: EngineWords.Language = .english) -> String {
        let refused: Bool
        if case .authentication = error { refused = true } else { refused = false }
        return BrailleWords(language).waiting(reason: "\(error)", refused: refused)
    }
}
