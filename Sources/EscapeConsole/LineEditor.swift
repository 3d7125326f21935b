import CEdit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Line editing and history at a terminal: libedit's readline interface in its callback form, so the
/// event loop goes on waiting on the terminal with `poll` and never blocks in a read.
///
/// The arrows move in the line and through the lines typed before, Ctrl-A and Ctrl-E go to either end,
/// and a key's escape sequence is a key, never text. libedit draws only the prompt line: nothing else
/// on the screen is redrawn, so a screen reader reads on as it did.
///
/// Every libedit call of the program is in this type. libedit keeps one editor per process, in global
/// state, and so does this type: the console makes one. It does not cross threads.
final class LineEditor {
    /// What libedit's callback handed over since the last read: a line, or `nil` for the end of input.
    private nonisolated(unsafe) static var completed: [String?] = []

    /// The terminal read from.
    let descriptor: Int32
    /// Whether a line is being edited: the prompt and what was typed so far are on the last line.
    private(set) var isEditing = false

    /// Sets libedit up on a terminal; `nil` when `input` or `output` is not one.
    ///
    /// libedit reads and writes UTF-8 only in a UTF-8 locale, so the character type comes from the
    /// environment, or is `C.UTF-8` when the environment names none (wraps `setlocale`, `fdopen`,
    /// `rl_initialize`). Signals stay the program's own (`rl_catch_signals`, set in the shim).
    ///
    /// - Parameters:
    ///   - input: The terminal typed at.
    ///   - output: The terminal written to.
    init?(input: Int32, output: Int32) {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        let locale = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
        if !String(locale.lowercased().filter { $0 != "-" }).contains("utf8") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        guard let reading = fdopen(input, "r"), let writing = fdopen(output, "w") else { return nil }
        efb_edit_configure(reading, writing)
        guard rl_initialize() == 0 else { return nil }
        descriptor = input
        for (sequence, function) in Self.keys { _ = rl_parse_and_bind("bind '\(sequence)' \(function)") }
    }

    /// The escape sequences of the usual keys that libedit does not bind itself, and what they do: an
    /// unbound sequence would be read as Escape and then text, and its tail (`~`) typed into the line.
    static let keys: [(sequence: String, function: String)] =
        [
            ("\\e[3~", "ed-delete-next-char"),
            ("\\e[H", "ed-move-to-beg"), ("\\e[1~", "ed-move-to-beg"), ("\\e[7~", "ed-move-to-beg"),
            ("\\eOH", "ed-move-to-beg"),
            ("\\e[F", "ed-move-to-end"), ("\\e[4~", "ed-move-to-end"), ("\\e[8~", "ed-move-to-end"),
            ("\\eOF", "ed-move-to-end"),
            ("\\e[1;5C", "em-next-word"), ("\\e[1;3C", "em-next-word"),
            ("\\e[1;5D", "ed-prev-word"), ("\\e[1;3D", "ed-prev-word"),
        ]
        + ["\\e[2~", "\\e[5~", "\\e[6~", "\\e[E", "\\e[Z", "\\eOP", "\\eOQ", "\\eOR", "\\eOS"].map {
            ($0, "ed-unassigned")
        }
        + ["15", "17", "18", "19", "20", "21", "23", "24"].map { ("\\e[\($0)~", "ed-unassigned") }

    /// Shows `prompt` and starts editing a line, the terminal in libedit's mode
    /// (wraps `rl_callback_handler_install`).
    func start(prompt: String) {
        guard !isEditing else { return }
        isEditing = true
        rl_callback_handler_install(prompt) { line in
            LineEditor.completed.append(line.map { String(cString: $0) })
            free(line)
        }
    }

    /// Reads what the terminal has (one key) and returns the line it completed, if it did
    /// (wraps `rl_callback_read_char` and `add_history`).
    ///
    /// A completed line ends the editing and leaves the terminal as it was; lines with more than spaces
    /// go into the history. Ctrl-D on an empty line comes as `nil`: the end of input.
    ///
    /// - Returns: The completed lines, at most one.
    func read() -> [String?] {
        guard isEditing else { return [] }
        rl_callback_read_char()
        let lines = Self.completed
        Self.completed = []
        if !lines.isEmpty {
            isEditing = false
            for case let line? in lines where line.contains(where: { !$0.isWhitespace }) {
                add_history(line)
            }
        }
        return lines
    }

    /// Draws the prompt and the half-typed line again, on the line where the cursor is: after a
    /// message took the line they were on (wraps `rl_forced_update_display`).
    func redisplay() {
        guard isEditing else { return }
        rl_forced_update_display()
    }

    /// Stops editing and gives the terminal back as it was; what was typed stays on the screen
    /// (wraps `rl_callback_handler_remove`).
    func stop() {
        guard isEditing else { return }
        isEditing = false
        rl_callback_handler_remove()
    }
}
