// SPDX-License-Identifier: Apache-2.0
import CEdit
import EscapeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Line editing and history at a terminal: libedit read one key at a time (`el_wgets` unbuffered), so
/// the event loop goes on waiting on the terminal and never blocks in a read: libedit is called only
/// once a whole key has arrived (the shim's `efb_edit_ready`), since it waits for the rest of a key.
///
/// The arrows move in the line and through the lines typed before, Ctrl-A and Ctrl-E go to either end,
/// and a key's escape sequence is a key, never text. libedit draws only the prompt line: nothing else
/// on the screen is redrawn, so a screen reader reads on as it did.
///
/// The line crosses the C boundary as wide characters counted in characters and is copied out at
/// once; it never grows past ``maximumLength`` bytes of UTF-8 nor past the screen inside libedit: the
/// keys are read by the shim's reader (`efb_edit_getc`), which drops a key that would not fit before
/// libedit sees it, counts it, and the line is refused as too long when Enter comes. libedit's readline
/// emulation is not used: its callback interface writes through a stale pointer once a line passes
/// 1,024 bytes (see `Sources/CEdit/shim.h`).
///
/// Every libedit call of the program is in this type. It does not cross threads.
final class LineEditor {
    /// The terminal read from.
    let descriptor: Int32
    /// Whether a line is being edited: the prompt and what was typed so far are on the last line.
    private(set) var isEditing = false
    /// The longest line kept, in bytes of UTF-8.
    let maximumLength: Int
    private let editor: OpaquePointer
    private let history: OpaquePointer?
    /// The streams libedit reads and writes, on copies of the descriptors, closed with the editor.
    private let streams: (reading: UnsafeMutablePointer<FILE>, writing: UnsafeMutablePointer<FILE>)
    /// What the shim's reader knows of the line: its room, the bytes it dropped.
    ///
    /// libedit holds a pointer to it until the editor is closed.
    private let reader: UnsafeMutablePointer<efb_edit_input>
    /// The terminal's width libedit was last told of (0 before the first line).
    private var knownColumns = 0
    /// Whether the terminal moves its cursor on escape codes (not `TERM=dumb`).
    private let cursorControl = getenv("TERM").map { String(cString: $0) } != "dumb"

    /// Sets libedit up on a terminal; `nil` when `input` or `output` is not one.
    ///
    /// libedit reads and writes UTF-8 only in a UTF-8 locale, so the character type comes from the
    /// environment, or is `C.UTF-8` when the environment names none (wraps `setlocale`, `fdopen`,
    /// `el_init`). Signals stay the program's own; Ctrl-C is a key while a line is edited.
    ///
    /// - Parameters:
    ///   - input: The terminal typed at.
    ///   - output: The terminal written to.
    ///   - maximumLength: The longest line kept, in bytes of UTF-8.
    init?(input: Int32, output: Int32, maximumLength: Int = 4096) {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        let locale = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
        if !String(locale.lowercased().filter { $0 != "-" }).contains("utf8") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        let copies = (dup(input), dup(output))
        guard copies.0 >= 0, copies.1 >= 0, let reading = fdopen(copies.0, "r"), let writing = fdopen(copies.1, "w")
        else {
            for copy in [copies.0, copies.1] where copy >= 0 { close(copy) }
            return nil
        }
        let reader = UnsafeMutablePointer<efb_edit_input>.allocate(capacity: 1)
        reader.initialize(to: efb_edit_input())
        var history: OpaquePointer?
        guard let editor = efb_edit_open(reading, writing, reader, &history, 100) else {
            reader.deallocate()
            fclose(reading)
            fclose(writing)
            return nil
        }
        self.reader = reader
        streams = (reading, writing)
        self.editor = editor
        self.history = history
        self.maximumLength = maximumLength
        descriptor = input
        for (sequence, function) in Self.keys { _ = efb_edit_bind(editor, sequence, function) }
    }

    deinit {
        stop()
        efb_edit_close(editor, history)
        reader.deallocate()
        fclose(streams.reading)
        fclose(streams.writing)
    }

    /// The escape sequences of the usual keys that libedit does not bind itself, and what they do.
    ///
    /// An unbound sequence would be read as Escape and then text, and its tail (`~`) typed into the line.
    /// Escape then Enter is Enter: Escape alone must not swallow the key after it.
    static let keys: [(sequence: String, function: String)] =
        [
            ("\\e[3~", "ed-delete-next-char"),
            ("\\e[H", "ed-move-to-beg"), ("\\e[1~", "ed-move-to-beg"), ("\\e[7~", "ed-move-to-beg"),
            ("\\eOH", "ed-move-to-beg"),
            ("\\e[F", "ed-move-to-end"), ("\\e[4~", "ed-move-to-end"), ("\\e[8~", "ed-move-to-end"),
            ("\\eOF", "ed-move-to-end"),
            ("\\e[1;5C", "em-next-word"), ("\\e[1;3C", "em-next-word"),
            ("\\e[1;5D", "ed-prev-word"), ("\\e[1;3D", "ed-prev-word"),
            ("\\e^M", "ed-newline"), ("\\e^J", "ed-newline"),
            // Ctrl-R's incremental search reads keys in a loop of its own inside libedit, which held the
            // game (and a long pasted pattern took it minutes, found by efb-fuzz-edit): the arrows recall lines.
            ("^R", "ed-unassigned"),
            // Speech: F2 says the last thing said again, F3 stops speech.
            ("\\eOQ", "efb-speech-repeat"), ("\\eOR", "efb-speech-stop"),
        ]
        + ["\\e[2~", "\\e[5~", "\\e[6~", "\\e[E", "\\e[Z", "\\eOP", "\\eOS"].map {
            ($0, "ed-unassigned")
        }
        + ["15", "17", "18", "19", "20", "21", "23", "24"].map { ("\\e[\($0)~", "ed-unassigned") }
        + modifiedKeys

    /// The keys above with Shift, Alt or Ctrl, which do nothing unless bound above.
    ///
    /// xterm sends them as `CSI 1;m X` and `CSI n;m ~`, m from 2 to 8: unbound, Shift-Up typed "A",
    /// Shift-F5 "2~" and Ctrl-Delete "5~" into the line. Those that move by a word keep their binding.
    static let modifiedKeys: [(sequence: String, function: String)] = {
        let kept: Set<String> = ["\\e[1;5C", "\\e[1;3C", "\\e[1;5D", "\\e[1;3D"]
        var keys: [(sequence: String, function: String)] = []
        for modifier in 2...8 {
            for final in ["A", "B", "C", "D", "E", "F", "H", "P", "Q", "R", "S"] {
                keys.append(("\\e[1;\(modifier)\(final)", "ed-unassigned"))
            }
            for number in ["2", "3", "5", "6", "15", "17", "18", "19", "20", "21", "23", "24"] {
                keys.append(("\\e[\(number);\(modifier)~", "ed-unassigned"))
            }
        }
        return keys.filter { !kept.contains($0.sequence) }
    }()

    /// A speech key pressed since the last call (F2: repeat, F3: stop), if one was.
    func takeSpeechKey() -> SpeechKey? {
        defer { reader.pointee.speechKey = 0 }
        switch reader.pointee.speechKey {
        case 1: return .repeatLast
        case 2: return .stop
        default: return nil
        }
    }

    /// A key that works speech, not the line.
    enum SpeechKey {
        /// Says the last thing said again.
        case repeatLast
        /// Stops speech.
        case stop
    }

    /// Draws the prompt and starts editing a line, the terminal in libedit's mode.
    ///
    /// The prompt is libedit's (`> `). The terminal's size is read again first, in case it changed.
    func start() {
        guard !isEditing else { return }
        isEditing = true
        efb_edit_resize(editor)
        knownColumns = WordWrap.columns(of: descriptorWritten) ?? 0
        efb_edit_unbuffered(editor, 1)
        reader.pointee.dropped = 0
        reader.pointee.sequence = 0
        measureRoom()
    }

    /// Reads one key and returns the line it completed, if it did (wraps `el_wgets` and `history`).
    ///
    /// A completed line ends the editing and leaves the terminal as it was; lines with more than spaces
    /// go into the history. Ctrl-D (or Ctrl-C) on an empty line comes as `nil`: the end of input. A line
    /// that grew past ``maximumLength`` comes as `tooLong` with every byte typed.
    ///
    /// - Returns: The completed lines, at most one.
    func read() -> [LineFramer.Frame?] {
        guard isEditing else { return [] }
        // libedit waits inside its reader for the rest of a key (the key after Escape, the rest of a
        // character): it is called only once the whole key is here, read without waiting, so the loop
        // never waits with it.
        guard efb_edit_ready(reader, 1) != 0 else {
            guard reader.pointee.ended != 0 else { return [] }
            stop()
            return [nil]
        }
        followResize()
        var before: Int32 = 0
        var cursor: Int32 = 0
        efb_edit_measure(editor, &before, &cursor)
        var count: Int32 = 0
        guard let read = efb_edit_read(editor, &count) else {
            // An empty line (after Backspace or Ctrl-C) comes as NULL too; only a hang-up ends the input.
            reader.pointee.dropped = 0
            measureRoom()
            guard reader.pointee.ended != 0 else { return [] }
            stop()
            return [nil]
        }
        let characters = UnsafeBufferPointer(start: read, count: Int(max(0, count)))
        if characters.last == 10 {
            stop()
            let typed = Array(Self.text(UnsafeBufferPointer(rebasing: characters.dropLast())).utf8)
            let dropped = reader.pointee.dropped
            if dropped > 0 { return [.tooLong(length: typed.count + dropped)] }
            if typed.contains(where: { $0 != 32 && $0 != 9 }) {
                typed.withUnsafeBufferPointer { bytes in
                    let text = Array(bytes) + [0]
                    text.withUnsafeBufferPointer { efb_edit_remember(history, $0.baseAddress) }
                }
            }
            return [.line(typed)]
        }
        if characters.count == 1 && characters[0] == 4 && before == 0 {
            // libedit puts a Ctrl-D in the line for the end of input: taken out, it is never drawn.
            efb_edit_delete(editor, 1)
            stop()
            return [nil]
        }
        let added = characters.count - Int(before)
        let limit = Self.cellLimit(of: descriptor)
        var size = Self.size(of: characters)
        if added > 0, size.bytes > maximumLength || size.cells > limit {
            // Only a key that inserts several characters at once (Ctrl-Y, a yank) gets here: the reader
            // lets no single key past the room. Taken out again, and libedit's picture of the screen
            // redrawn from the line, so the two never part.
            var length: Int32 = 0
            var cursor: Int32 = 0
            efb_edit_measure(editor, &length, &cursor)
            let end = min(characters.count, Int(max(0, cursor)))
            let taken = UnsafeBufferPointer(rebasing: characters[max(0, end - added)..<end])
            reader.pointee.dropped += Self.size(of: taken).bytes
            efb_edit_delete(editor, Int32(added))
            efb_edit_refresh(editor)
            size = Self.size(of: currentLine())
        }
        setRoom(after: size, limit: limit)
        return []
    }

    /// The bytes of UTF-8 and the screen cells `characters` take, measured without making a String:
    /// this runs for every key of a line up to the limit.
    static func size(of characters: UnsafeBufferPointer<wchar_t>) -> (bytes: Int, cells: Int) {
        var bytes = 0
        var cells = 0
        for character in characters {
            bytes += Int(efb_edit_bytes(character))
            cells += Int(efb_edit_cells(character))
        }
        return (bytes, cells)
    }

    /// The characters in libedit's line now: read them before the next call into libedit.
    private func currentLine() -> UnsafeBufferPointer<wchar_t> {
        var length: Int32 = 0
        var cursor: Int32 = 0
        efb_edit_measure(editor, &length, &cursor)
        return UnsafeBufferPointer(start: efb_edit_line(editor), count: Int(max(0, length)))
    }

    /// Tells the reader how much the line may still take, given what it takes now.
    private func setRoom(after size: (bytes: Int, cells: Int), limit: Int) {
        reader.pointee.roomBytes = max(0, maximumLength - size.bytes)
        reader.pointee.roomCells = max(0, limit - size.cells)
    }

    /// Tells the reader how much the line being edited may still take, measured from libedit's line.
    private func measureRoom() {
        setRoom(after: Self.size(of: currentLine()), limit: Self.cellLimit(of: descriptor))
    }

    /// The most cells a line may take on the terminal `descriptor`: the screen less three rows (the
    /// prompt's and room to spare), at least one row.
    ///
    /// A line taller than the screen would scroll the story above it away with every redraw, and the
    /// prompt with it: a screen reader's review would not find where the line starts.
    static func cellLimit(of descriptor: Int32) -> Int {
        guard let size = WordWrap.size(of: descriptor), size.rows > 0 else { return 80 * 21 }
        return size.columns * max(1, size.rows - 3)
    }

    /// The characters libedit hands over, as text; a value that is no Unicode scalar becomes U+FFFD.
    static func text(_ characters: UnsafeBufferPointer<wchar_t>) -> String {
        var scalars = String.UnicodeScalarView()
        for character in characters {
            scalars.append(UInt32(exactly: character).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// How many rows above the cursor's the prompt is, at `width` columns: a half-typed line longer
    /// than the terminal is wide takes several rows.
    ///
    /// - Parameter width: The terminal's columns; 0 when not known.
    /// - Returns: The rows, 0 when the prompt is on the cursor's row.
    func rowsAboveCursor(width: Int) -> Int {
        guard isEditing, width > 0 else { return 0 }
        var length: Int32 = 0
        var cursor: Int32 = 0
        efb_edit_measure(editor, &length, &cursor)
        return (Self.prompt.count + Int(max(0, cursor))) / width
    }

    /// What libedit draws before the line.
    static let prompt = "> "

    /// The descriptor libedit writes to.
    private var descriptorWritten: Int32 { fileno(streams.writing) }

    /// Tells libedit the terminal's new width when the window was resized while a line is typed.
    ///
    /// Called before each key (SIGWINCH is not caught): libedit would otherwise move the cursor by the
    /// old width, and Home then a key wrote over the wrong row. The line is drawn again from its prompt,
    /// whose row is found at the new width (the terminal rewrapped it).
    private func followResize() {
        guard let columns = WordWrap.columns(of: descriptorWritten), columns != knownColumns else { return }
        if cursorControl {
            let up = rowsAboveCursor(width: columns)
            fputs((up > 0 ? "\u{1B}[\(up)A" : "") + "\r\u{1B}[J", streams.writing)
            fflush(streams.writing)
        }
        learnWidth()
        efb_edit_refresh(editor)
    }

    /// Tells libedit the terminal's width when it changed since it last learned it.
    private func learnWidth() {
        guard let columns = WordWrap.columns(of: descriptorWritten), columns != knownColumns else { return }
        knownColumns = columns
        efb_edit_resize(editor)
    }

    /// Draws the prompt and the half-typed line again, on the line where the cursor is: after a
    /// message took the line they were on.
    func redisplay() {
        guard isEditing else { return }
        // The window may have been resized since: libedit draws at its new width.
        learnWidth()
        efb_edit_refresh(editor)
    }

    /// Stops editing and gives the terminal back as it was; what was typed stays on the screen.
    func stop() {
        guard isEditing else { return }
        isEditing = false
        efb_edit_unbuffered(editor, 0)
    }
}
