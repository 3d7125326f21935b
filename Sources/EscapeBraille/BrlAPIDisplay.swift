// SPDX-License-Identifier: Apache-2.0
#if BrlAPI
internal import CBrlAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Connects to BRLTTY through BrlAPI.
package struct BrlAPIConnector: BrailleConnector {
    /// BRLTTY's address (`host:N` is TCP port 4101+N, `:N` a local socket); `nil` for BrlAPI's default.
    package var host: String?
    /// The authorization (`none`, `keyfile:PATH`, ...); `nil` for BrlAPI's default key file.
    package var auth: String?
    /// Whether typed dots arrive as they are (PASSDOTS), for a contracted table to back-translate.
    package var acceptsDots: Bool

    /// Creates a connector.
    package init(host: String? = nil, auth: String? = nil, acceptsDots: Bool = false) {
        self.host = host
        self.auth = auth
        self.acceptsDots = acceptsDots
    }

    /// Connects and enters tty mode.
    package func connect() throws(BrailleError) -> any BrailleDisplay {
        try BrlAPIDisplay(host: host, auth: auth, acceptsDots: acceptsDots)
    }
}

/// Where the game asks BRLTTY for the display (BrlAPI's tty path).
///
/// A BrlAPI client fills the display while BRLTTY's focus is on its tty. A client on the root of the
/// path fills it whatever BRLTTY shows, so BRLTTY's key help (`HELP`) and preferences menu
/// (`PREFMENU`) would only flash their title and then stay hidden under the game, taking no keys. On
/// the virtual terminal the game runs on, BRLTTY's own screens move its focus away (they are screens
/// of their own): they show and take the keys, and when they close BRLTTY shows the game's text again
/// by itself.
enum TtyPlacement: Equatable {
    /// On the terminal the game runs on: BrlAPI finds its virtual terminal (`CONTROLVT`, `XDG_VTNR`
    /// outside a graphical session, or the process's controlling terminal when it is a console); when
    /// it cannot (over ssh, in a service or a container), on the root of the tree, which fills the
    /// display whatever BRLTTY shows.
    case ownTerminal
    /// A graphical session: BrlAPI puts the client under the session's virtual terminal (`WINDOWPATH`
    /// or `XDG_VTNR`), where screen readers' clients are too.
    case session

    /// The placement for this process's environment.
    static func current() -> TtyPlacement {
        let graphical: [String] = ["WINDOWPATH", "DISPLAY", "WAYLAND_DISPLAY"]
        return graphical.contains { getenv($0) != nil } ? .session : .ownTerminal
    }
}

/// The memory of one BrlAPI handle with its open connection: the one owner that closes and frees it.
///
/// It cannot be copied, so exactly one value frees the handle, once, when it ends: however the
/// display that holds it ends, also when the display's initializer throws after it was made.
struct BrlAPIHandle: ~Copyable {
    /// The handle, for the `brlapi__` calls.
    let pointer: OpaquePointer
    /// The connection's socket (`brlapi__openConnection`'s result).
    let descriptor: Int32

    /// Allocates a handle (`brlapi_getHandleSize`) and connects it (`brlapi__openConnection`).
    ///
    /// On failure the handle is freed here, before this value exists, so nothing else frees it.
    init(host: String?, auth: String?, acceptsDots: Bool = false) throws(BrailleError) {
        guard let memory = malloc(efb_brlapi_handle_size()) else {
            throw .failed(operation: "allocating a BrlAPI handle", message: "out of memory")
        }
        let handle = OpaquePointer(memory)
        let descriptor = BrlAPIDisplay.withOptionalCString(host) { host in
            BrlAPIDisplay.withOptionalCString(auth) { auth in
                var settings = brlapi_connectionSettings_t(auth: auth, host: host)
                return BrlAPIDisplay.retrying { brlapi__openConnection(handle, &settings, nil) }
            }
        }
        guard descriptor >= 0 else {
            let error = BrlAPIDisplay.lastError(operation: "connecting")
            free(memory)
            throw error
        }
        pointer = handle
        self.descriptor = descriptor
    }

    /// Closes the connection (`brlapi__closeConnection`) and frees the handle.
    deinit {
        brlapi__closeConnection(pointer)
        free(UnsafeMutableRawPointer(pointer))
    }
}

/// One connection to BRLTTY, in tty mode on the root path.
///
/// Every BrlAPI call of the game is here.
///
/// Failures become ``BrailleError``s; a call interrupted by a signal is retried. BrlAPI reports some
/// failures later, as exceptions: the handler installed after connecting records them and the next
/// call reports the connection lost instead of letting BrlAPI abort the process.
final class BrlAPIDisplay: BrailleDisplay {
    /// The connection; it closes and frees itself when this display ends.
    private let connection: BrlAPIHandle
    private(set) var size: DisplaySize
    private let acceptsDots: Bool

    /// Connects and enters tty mode.
    ///
    /// Nothing here closes or frees the handle: when a step after connecting fails, the display ends
    /// and ``BrlAPIHandle`` closes and frees it, once.
    init(host: String?, auth: String?, acceptsDots: Bool = false) throws(BrailleError) {
        _ = efb_brlapi_take_exception()
        let connection = try BrlAPIHandle(host: host, auth: auth)
        efb_brlapi_install_exception_handler(connection.pointer)
        self.connection = connection
        self.acceptsDots = acceptsDots
        size = DisplaySize(columns: 0)
        try enterTtyMode()
    }

    private var handle: OpaquePointer { connection.pointer }

    private var descriptor: Int32 { connection.descriptor }

    var fileDescriptor: Int32? { descriptor }

    /// Set by every request BrlAPI waits on an answer for (a key arriving meanwhile goes to its
    /// buffer); cleared once a read finds no key.
    private(set) var mayHoldKeys = false

    func write(_ frame: BrailleFrame) throws(BrailleError) {
        try checkException()
        guard size.cells > 0 else { return }
        // BrlAPI counts characters as code points: give each cell exactly one.
        var text = String.UnicodeScalarView()
        for index in 0..<size.cells {
            let character = index < frame.cells.count ? frame.cells[index] : " "
            let scalars = character.unicodeScalars
            text.append(scalars.count == 1 ? scalars[scalars.startIndex] : "?")
        }
        let string = String(text)
        var arguments = efb_brlapi_write_arguments()
        arguments.regionBegin = 1
        arguments.regionSize = Int32(size.cells)
        arguments.textSize = Int32(string.utf8.count)
        arguments.cursor = frame.cursor.map { Int32($0 + 1) } ?? 0
        let result = string.withCString { pointer in
            "UTF-8".withCString { charset in
                arguments.text = pointer
                arguments.charset = charset
                return Self.retrying { brlapi__write(handle, &arguments) }
            }
        }
        mayHoldKeys = true
        guard result >= 0 else { throw Self.lastError(operation: "writing to the display") }
        try checkException()
    }

    func readKey() throws(BrailleError) -> BrailleKey? {
        try checkException()
        var code: brlapi_keyCode_t = 0
        let result = Self.retrying { brlapi__readKeyWithTimeout(handle, 0, &code) }
        if result < 0 { throw Self.lastError(operation: "reading a key") }
        if result == 0 { mayHoldKeys = false }
        return result == 0 ? nil : BrailleKey(code: code)
    }

    func refreshSize() throws(BrailleError) -> DisplaySize {
        try checkException()
        var reported = brlapi_param_displaySize_t()
        mayHoldKeys = true
        let length = Self.retrying {
            Int32(
                brlapi__getParameter(
                    handle,
                    BRLAPI_PARAM_DISPLAY_SIZE,
                    0,
                    brlapi_param_flags_t(BRLAPI_PARAMF_GLOBAL),
                    &reported,
                    MemoryLayout<brlapi_param_displaySize_t>.size
                )
            )
        }
        guard length >= 0 else { throw Self.lastError(operation: "reading the display size") }
        let current = DisplaySize(columns: Int(reported.columns), rows: Int(max(reported.rows, 1)))
        if current != size {
            // The library keeps the size it read on entering tty mode: enter it again to see the new one.
            _ = Self.retrying { brlapi__leaveTtyMode(handle) }
            try enterTtyMode()
        }
        return size
    }

    /// Enters tty mode where BRLTTY can tell the game's screen from its own (``TtyPlacement``).
    private func enterTtyMode() throws(BrailleError) {
        mayHoldKeys = true
        var placed = false
        if TtyPlacement.current() == .ownTerminal {
            // BrlAPI finds the virtual terminal the game runs on (CONTROLVT, XDG_VTNR, the terminal).
            if Self.retrying({ brlapi__enterTtyMode(handle, BRLAPI_TTY_DEFAULT, nil) }) >= 0 {
                placed = true
            } else if efb_brlapi_errno() != Int32(BRLAPI_ERROR_UNKNOWNTTY.rawValue) {
                throw Self.lastError(operation: "entering tty mode")
            }
        }
        // A graphical session's path comes from the environment (BrlAPI adds it); otherwise the root.
        if !placed {
            guard Self.retrying({ brlapi__enterTtyModeWithPath(handle, nil, 0, nil) }) >= 0 else {
                throw Self.lastError(operation: "entering tty mode")
            }
        }
        guard Self.retrying({ efb_brlapi_accept_keys(handle, acceptsDots ? 1 : 0) }) >= 0 else {
            throw Self.lastError(operation: "choosing the keys")
        }
        var columns: UInt32 = 0
        var rows: UInt32 = 0
        guard Self.retrying({ brlapi__getDisplaySize(handle, &columns, &rows) }) >= 0 else {
            throw Self.lastError(operation: "reading the display size")
        }
        size = DisplaySize(columns: Int(columns), rows: Int(max(rows, 1)))
    }

    private func checkException() throws(BrailleError) {
        let exception = efb_brlapi_take_exception()
        guard exception != 0 else { return }
        throw .disconnected("BRLTTY reported error \(exception) for an earlier request")
    }

    /// Runs a BrlAPI call again while it fails because a signal interrupted it.
    fileprivate static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result < 0, efb_brlapi_errno() == Int32(BRLAPI_ERROR_LIBCERR.rawValue),
                efb_brlapi_libcerrno() == EINTR
            {
                continue
            }
            return result
        }
    }

    fileprivate static func lastError(operation: String) -> BrailleError {
        var buffer = [CChar](repeating: 0, count: 256)
        efb_brlapi_strerror(&buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch efb_brlapi_errno() {
        case Int32(BRLAPI_ERROR_CONNREFUSED.rawValue), Int32(BRLAPI_ERROR_GAIERR.rawValue):
            return .unreachable(message)
        case Int32(BRLAPI_ERROR_AUTHENTICATION.rawValue):
            return .authentication(message)
        case Int32(BRLAPI_ERROR_EOF.rawValue):
            return .disconnected(message)
        case Int32(BRLAPI_ERROR_LIBCERR.rawValue):
            let code = efb_brlapi_libcerrno()
            if code == ECONNREFUSED || code == ENOENT { return .unreachable(message) }
            if code == ECONNRESET || code == EPIPE { return .disconnected(message) }
            return .failed(operation: operation, message: message)
        default:
            return .failed(operation: operation, message: message)
        }
    }

    fileprivate static func withOptionalCString<Result>(
        _ string: String?,
        _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
#endif
