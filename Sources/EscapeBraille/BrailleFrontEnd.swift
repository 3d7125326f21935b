import EscapeCore
import EscapeProtocol
public import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Plays the game on a Braille display: keys in, the engine's events out to the display.
///
/// The engine runs in the same process, behind the same ``Session`` a pipe client talks to. The
/// front end only turns keys into commands and shows the events it gets back. When the connection
/// to BRLTTY drops, it tells the engine the player's assistive technology went away, reconnects
/// with backoff, tells the engine it is back, and shows exactly what was there before.
public final class BrailleFrontEnd {
    /// Timing of the front end.
    public struct Options: Sendable {
        /// How messages are shown.
        public var view: BrailleView.Options
        /// First wait before connecting again, in milliseconds; it doubles up to ``reconnectMaximum``.
        public var reconnectInitial: Int64
        /// Longest wait between two attempts to connect, in milliseconds.
        public var reconnectMaximum: Int64
        /// How often the display's size is read again while nothing happens, in milliseconds.
        public var sizeCheckInterval: Int64

        /// Creates options.
        public init(
            view: BrailleView.Options = BrailleView.Options(),
            reconnectInitial: Int64 = 250,
            reconnectMaximum: Int64 = 1000,
            sizeCheckInterval: Int64 = 1000
        ) {
            self.view = view
            self.reconnectInitial = reconnectInitial
            self.reconnectMaximum = reconnectMaximum
            self.sizeCheckInterval = sizeCheckInterval
        }
    }

    private let session: Session
    private let connector: any BrailleConnector
    private let clock: any GameClock
    private let options: Options
    private let log: (String) -> Void
    private var view: BrailleView
    private var display: (any BrailleDisplay)?
    private var lastFrame: BrailleFrame?
    private var nextAttempt: Int64 = 0
    private var backoff: Int64
    private var nextSizeCheck: Int64 = 0
    private var requestNumber = 0

    /// Creates a front end.
    ///
    /// - Parameters:
    ///   - session: The game.
    ///   - connector: How to reach the display.
    ///   - clock: The time for messages and reconnecting (the monotonic clock; the game's own clock
    ///     may be virtual).
    ///   - options: Timing.
    ///   - log: Where to tell the person at the terminal what happens (standard error).
    public init(
        session: Session,
        connector: any BrailleConnector,
        clock: any GameClock,
        options: Options = Options(),
        log: @escaping (String) -> Void
    ) {
        self.session = session
        self.connector = connector
        self.clock = clock
        self.options = options
        self.log = log
        self.view = BrailleView(size: DisplaySize(columns: 40), options: options.view)
        self.backoff = options.reconnectInitial
    }

    /// Waits for BRLTTY, then plays until the session ends or `shouldStop` says so.
    public func run(shouldStop: () -> Bool = { false }) {
        var told = false
        while display == nil && !shouldStop() {
            do throws(BrailleError) {
                try connect()
            } catch {
                if !told {
                    log(Self.waitingMessage(error))
                    told = true
                }
                sleep(milliseconds: backoff)
                backoff = min(backoff * 2, options.reconnectMaximum)
            }
        }
        guard display != nil else { return }
        backoff = options.reconnectInitial
        log("Connected to BRLTTY (\(view.size)); the game is on the display.")
        var opening = session.start()
        let hello = ClientHello(
            client: "efb braille",
            protocolVersion: EventEncoder.protocolVersion,
            capabilities: ["braille"],
            keys: BrailleKeyMap.keyNames
        )
        opening += send(.hello(hello))
        view.apply(opening, now: clock.now())
        while !session.isFinished && !shouldStop() {
            if display == nil && clock.now() >= nextAttempt { reconnect() }
            render()
            waitForSomething()
            readKeys()
            let now = clock.now()
            view.apply(session.tick(), now: now)
            view.tick(now: now)
            checkSize(now: now)
        }
        render()
    }

    // MARK: Connection

    private func connect() throws(BrailleError) {
        let display = try connector.connect()
        self.display = display
        view.size = usable(display.size)
        lastFrame = nil
        nextSizeCheck = clock.now() + options.sizeCheckInterval
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
        log("BRLTTY is back (\(view.size)); carrying on where you were.")
        view.apply(send(.game(.assistive(active: true))), now: clock.now())
    }

    private func lose(_ error: BrailleError) {
        guard display != nil else { return }
        display = nil
        lastFrame = nil
        log("Lost the Braille display (\(error)); trying to reconnect.")
        view.apply(send(.game(.assistive(active: false))), now: clock.now())
        backoff = options.reconnectInitial
        nextAttempt = clock.now() + backoff
    }

    private func checkSize(now: Int64) {
        guard let display, now >= nextSizeCheck else { return }
        nextSizeCheck = now + options.sizeCheckInterval
        do throws(BrailleError) {
            let size = try display.refreshSize()
            if usable(size) != view.size {
                view.size = usable(size)
                lastFrame = nil
            }
        } catch {
            lose(error)
        }
    }

    /// A display not yet ready reports no cells; lay out for one cell until it reports its size.
    private func usable(_ size: DisplaySize) -> DisplaySize {
        DisplaySize(columns: max(size.columns, 1), rows: max(size.rows, 1))
    }

    // MARK: Keys and output

    private func readKeys() {
        guard let display else { return }
        do throws(BrailleError) {
            while let key = try display.readKey() {
                let now = clock.now()
                if key == .command(.offline) {
                    lose(.disconnected("the display went offline"))
                    return
                }
                for command in view.handle(key, now: now) {
                    view.apply(send(.game(command)), now: clock.now())
                }
            }
        } catch {
            lose(error)
        }
    }

    private func render() {
        guard let display, display.size.cells > 0 else { return }
        let frame = view.frame
        guard frame != lastFrame else { return }
        do throws(BrailleError) {
            try display.write(frame)
            lastFrame = frame
        } catch {
            lose(error)
        }
    }

    private func send(_ command: Command) -> [StampedEvent] {
        requestNumber += 1
        return session.handle(Request(id: .int(requestNumber), command: command))
    }

    private func waitForSomething() {
        let now = clock.now()
        var deadlines: [Int64] = []
        if let deadline = view.nextDeadline { deadlines.append(deadline - now) }
        if let deadline = session.nextDeadline { deadlines.append(deadline - session.now) }
        if display == nil { deadlines.append(nextAttempt - now) } else { deadlines.append(nextSizeCheck - now) }
        let timeout = Int32(clamping: max(0, deadlines.min() ?? 1000))
        guard let descriptor = display?.fileDescriptor else {
            sleep(milliseconds: Int64(timeout))
            return
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, timeout)
    }

    private func sleep(milliseconds: Int64) {
        var request = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// What the person at the terminal reads while BRLTTY cannot be reached.
    static func waitingMessage(_ error: BrailleError) -> String {
        var lines = ["Waiting for BRLTTY, the program that drives Braille displays (\(error))."]
        switch error {
        case .authentication:
            lines.append(
                "BRLTTY is running but refused this program. Run the game as a member of the brlapi group "
                    + "(sudo adduser $USER brlapi, then log in again), or pass --auth with BRLTTY's key file."
            )
        default:
            lines.append(
                "Start BRLTTY for your display, for example: sudo systemctl start brltty "
                    + "(or sudo brltty -b DRIVER -d DEVICE, e.g. -b ht -d usb:). Plug in and switch on the display."
            )
            lines.append("If BRLTTY runs on another machine or port, pass --host HOST:N.")
        }
        lines.append("The game starts by itself as soon as BRLTTY answers; Ctrl+C gives up.")
        return lines.joined(separator: "\n")
    }
}
