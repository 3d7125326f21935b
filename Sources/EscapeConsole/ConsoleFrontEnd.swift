// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

/// The console: typed commands in, plain lines out, for a terminal and whatever screen reader reads it.
///
/// A thin adapter for the ``EventLoop``: it frames what is typed into lines, lets a ``ConsoleDriver``
/// interpret them, hands the requests to the session, and writes the rendered answers — and whatever
/// time brings, such as a hint unlocking — as plain lines. It never writes protocol JSON and never
/// moves the cursor.
package final class ConsoleFrontEnd: FrontEnd {
    /// How the console writes.
    package struct Options: Sendable, Hashable {
        /// Whether to colour hints, errors and verdicts with ANSI codes.
        package var color: Bool
        /// Whether to write a `> ` prompt when waiting for a command (worth it only at a terminal).
        package var prompt: Bool
        /// Whether to edit lines with libedit (arrows, history, Ctrl-A and Ctrl-E) when the input and
        /// the output are a terminal; otherwise lines are read as they come.
        package var lineEditing: Bool
        /// Whether a timed level's last ten seconds are one line that changes each second, drawn in
        /// place above the prompt; by default 10, 5, 3 and 1 seconds left are new lines.
        package var countdownInPlace: Bool
        /// Whether the terminal moves its cursor on escape codes; a `dumb` one (`TERM=dumb`) is sent plain
        /// lines only: a message that comes while a line is typed goes below it, nothing is drawn in place
        /// (colour is asked for on its own, with `--color`).
        package var cursorControl: Bool
        /// Where the game keeps its progress, said by `save`.
        package var savePlace: ConsoleDriver.SavePlace

        /// Creates options.
        ///
        /// - Parameters:
        ///   - color: Whether to colour hints, errors and verdicts.
        ///   - prompt: Whether to write a prompt.
        ///   - lineEditing: Whether to edit lines at a terminal.
        ///   - countdownInPlace: Whether the last ten seconds are drawn in place, every second.
        ///   - cursorControl: Whether the terminal moves its cursor on escape codes (drawing in place needs it).
        ///   - savePlace: Where the game keeps its progress.
        package init(
            color: Bool = false,
            prompt: Bool = false,
            lineEditing: Bool = false,
            countdownInPlace: Bool = false,
            cursorControl: Bool = true,
            savePlace: ConsoleDriver.SavePlace = .nowhere
        ) {
            self.savePlace = savePlace
            self.color = color
            self.prompt = prompt
            self.lineEditing = lineEditing
            self.countdownInPlace = countdownInPlace && cursorControl
            self.cursorControl = cursorControl
        }

        /// Whether a terminal of this type moves its cursor on escape codes: all but `dumb`.
        ///
        /// - Parameter term: The `TERM` of the environment (unset at a terminal is taken as a capable one).
        /// - Returns: `false` for `dumb` only.
        package static func cursorControl(term: String?) -> Bool { term != "dumb" }
    }

    /// The longest line read, in bytes; commands and answers are short.
    static let maximumLineLength = 4096

    private var input: LineInput
    /// The line editor, at a terminal with line editing on.
    private let editor: LineEditor?
    /// Whether the editor's input ended (Ctrl-D on an empty line).
    private var editorEnded = false
    /// Where the player's choices are kept.
    private let preferences: ConsolePreferences?
    private var driver = ConsoleDriver()
    private var writer: Writer
    private var gameOver = false
    /// Whether the terminal went away.
    package private(set) var isClosed = false

    /// Creates a console.
    ///
    /// - Parameters:
    ///   - options: Colour and prompt.
    ///   - speaker: Where to say the lines too, if anywhere.
    ///   - input: Where typed lines come from (standard input by default).
    ///   - output: Where the lines go (standard output by default).
    ///   - transcript: Where to write the game as it is played too, if anywhere: every line, and every
    ///     line typed after `> `, without colour.
    ///   - preferences: Where the player's choices are kept (`clock off`), if anywhere.
    package init(
        options: Options = Options(),
        speaker: (any Speaker)? = nil,
        input: Int32 = 0,
        output: Int32 = 1,
        transcript: Int32? = nil,
        preferences: ConsolePreferences? = nil
    ) {
        self.preferences = preferences
        self.driver = ConsoleDriver(countdownEverySecond: options.countdownInPlace)
        driver.savePlace = options.savePlace
        self.input = LineInput(descriptor: input, maximumLineLength: Self.maximumLineLength, chunk: 4096)
        let editor =
            options.lineEditing && options.prompt
            ? LineEditor(input: input, output: output, maximumLength: Self.maximumLineLength) : nil
        self.editor = editor
        self.writer = Writer(
            output: FileOutput(descriptor: output),
            options: options,
            speaker: speaker,
            editor: editor,
            transcript: transcript.map { FileOutput(descriptor: $0) }
        )
    }

    /// What the console was shown so far.
    package var context: ShownGame { driver.context }

    /// Says the console's ``ConsoleDriver/hello(in:timePressure:)``, with the player's kept choice for
    /// timed levels.
    package func opening() -> [SessionInput] {
        [driver.opening(timePressure: preferences?.timePressure)]
    }

    /// Standard input, until it ends; nothing while the terminal has not taken what was written to it,
    /// so no key is echoed before the lines it follows.
    package var descriptors: [Int32] {
        guard !writer.hasPending else { return [] }
        guard let editor else { return input.descriptors }
        return isEnded ? [] : [editor.descriptor]
    }

    /// The terminal, while it has not taken everything written to it (a non-blocking one that is full).
    package var writeDescriptors: [Int32] {
        writer.hasPending && !isClosed ? [writer.output.descriptor] : []
    }

    /// Whether the input ended.
    private var isEnded: Bool { editor == nil ? input.isEnded : editorEnded }

    /// Reads what was typed and carries out each line, with a prompt after each answer.
    package func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        guard !isEnded else { return }
        if let editor {
            guard readable.contains(editor.descriptor) else { return }
            // At a terminal any key cuts a `wait` short, and speech, as a screen reader's keys do; the key
            // itself is then read as usual.
            if let cancel = driver.cutWaitShort() { submit(cancel) }
            writer.keyPressed()
            defer {
                switch editor.takeSpeechKey() {
                case .repeatLast: writer.repeatLastSaid()
                case .stop, nil: break
                }
            }
            for frame in editor.read() {
                guard let frame else {
                    editorEnded = true
                    break
                }
                if let cancel = driver.cutWaitShort() { submit(cancel) }
                enter(frame, submit: submit)
                flush(now: now)
            }
        } else {
            for frame in input.read(readable: readable) {
                writer.keyPressed()
                enter(frame, submit: submit)
                flush(now: now)
            }
        }
        if isEnded { submit(.endOfInput) }
    }

    /// Renders the events as lines.
    package func show(_ events: [StampedEvent], now: Int64) {
        if events.contains(where: { $0.event == .bye }) {
            gameOver = true
            // The terminal goes back to how it was before the last words.
            editor?.stop()
        }
        // What nobody asked for (a hint unlocking, the time) waits for what is being said.
        let unasked = events.allSatisfy { $0.replyTo == nil }
        write(driver.render(events), notice: unasked)
    }

    /// Keeps a snapshot the game in this process took before a gesture, for `undo`.
    package func keep(_ snapshot: KeptSnapshot, for request: RequestID?) {
        driver.keep(snapshot, for: request)
    }

    /// Writes what the terminal can take now, then the prompt when the game waits for the player.
    package func flush(now: Int64) {
        guard !isClosed else { return }
        if !writer.writePending() {
            isClosed = true
            return
        }
        guard !isEnded, !gameOver else { return }
        if !writer.prompt() { isClosed = true }
    }

    /// Carries out one framed line.
    private func enter(_ frame: LineFramer.Frame, submit: (SessionInput) -> Void) {
        writer.lineEntered(frame)
        switch frame {
        case .tooLong(let length):
            write([ConsoleLine(driver.context.words(.lineTooLong, ["length": "\(length)"]), style: .error)])
        case .line(let bytes):
            switch driver.interpret(String(decoding: bytes, as: UTF8.self)) {
            case .submit(let input):
                // `clock off` and `clock on` say it in a hello: the choice is kept for the next game.
                if case .requests(let requests) = input {
                    for case .hello(let hello) in requests.map(\.command) {
                        if let on = hello.timePressure { preferences?.keep(timePressure: on) }
                    }
                }
                if editor != nil, let line = driver.waitLine(for: input) { write([line]) }
                submit(input)
            case .lines(let lines): write(lines)
            }
        }
    }

    /// Shows `problem` as an error line, wrapped, the prompt and the half-typed line drawn again below it.
    package func tell(_ problem: String) {
        write([ConsoleLine(problem, style: .error)], notice: true)
    }

    private func write(_ lines: [ConsoleLine], notice: Bool = false) {
        guard !isClosed else { return }
        if !writer.show(lines, language: driver.context.locale, notice: notice) { isClosed = true }
    }
}

/// Writes lines and the prompt to the output, and hands the spoken ones to the speaker.
///
/// With a line editor the editor draws the prompt and the line typed so far; a message that comes
/// while the player types takes that line's place, and the prompt and the half-typed line are drawn
/// again below it.
///
/// The output is written as the terminal takes it, never waited for: what a full non-blocking
/// terminal did not take waits here (the loop wakes when it can take more), and nothing is drawn by
/// the editor, prompted or read until it is out, so lines and echoed keys stay in order.
private struct Writer {
    let output: FileOutput
    let options: ConsoleFrontEnd.Options
    let speaker: (any Speaker)?
    let editor: LineEditor?
    /// Where the game is written too, as it is played.
    let transcript: FileOutput?
    /// Whether the prompt is on the last line, waiting for the player's Enter.
    private var prompting = false
    /// Whether the line just above the prompt is one of the last ten seconds, written while the player
    /// typed: with the countdown drawn in place, the next second takes its place.
    private var timeAbovePrompt = false
    /// What the terminal has not taken yet.
    private var pending: [UInt8] = []
    /// Whether the editor's prompt and half-typed line are drawn again once ``pending`` is out.
    private var redisplayWhenWritten = false
    /// The last thing said, and in which language: a key says it again.
    private var lastSaid: (text: String, language: String?)?

    /// Whether some output waits for the terminal.
    var hasPending: Bool { !pending.isEmpty }

    init(
        output: FileOutput,
        options: ConsoleFrontEnd.Options,
        speaker: (any Speaker)?,
        editor: LineEditor?,
        transcript: FileOutput?
    ) {
        self.output = output
        self.options = options
        self.speaker = speaker
        self.editor = editor
        self.transcript = transcript
    }

    /// The player pressed Enter: the terminal is at the start of a fresh line, and the transcript
    /// gets the line after the prompt.
    mutating func lineEntered(_ frame: LineFramer.Frame) {
        prompting = false
        timeAbovePrompt = false
        if let transcript, case .line(let bytes) = frame {
            _ = transcript.write(Array(Self.prompt.utf8) + bytes + [10])
        }
    }

    /// Writes the prompt, if prompts are on.
    mutating func prompt() -> Bool {
        // After what waits: the next flush prompts once it is out.
        guard options.prompt, !prompting, pending.isEmpty else { return true }
        prompting = true
        if let editor {
            editor.start()
            return true
        }
        return send(Array(Self.prompt.utf8))
    }

    /// What the prompt says.
    static let prompt = "> "

    /// Writes `text` where the prompt and the half-typed line are, then draws them again below it.
    ///
    /// - Parameters:
    ///   - text: The lines, each with its terminator.
    ///   - editor: The editor drawing the prompt.
    ///   - columns: The terminal's width, if known.
    ///   - replacingLineAbove: Whether `text` takes the place of the line above the prompt too.
    /// - Returns: `false` when the output went away.
    private mutating func interrupt(
        with text: String,
        editor: LineEditor,
        columns: Int?,
        replacingLineAbove: Bool
    ) -> Bool {
        // Back to the start of the line and clear it (CR, then EL): the message takes the prompt's place;
        // one line up (CUU) first when it replaces the line above.
        // A half-typed line longer than the terminal is wide takes several rows: up to the prompt's row first,
        // then clear everything below (ED), so no row of it is left behind to look like an entered command.
        let up = editor.rowsAboveCursor(width: columns ?? 0) + (replacingLineAbove ? 1 : 0)
        // A dumb terminal moves no cursor: the message goes on the next line, the half-typed one is left
        // above it and drawn again below.
        let clear = options.cursorControl ? (up > 0 ? "\u{1B}[\(up)A" : "") + "\r\u{1B}[J" : "\n"
        guard send(Array((clear + text).utf8)) else { return false }
        if pending.isEmpty {
            editor.redisplay()
        } else {
            redisplayWhenWritten = true
        }
        return true
    }

    /// The player pressed a key: speech stops at once, as with a screen reader.
    func keyPressed() {
        speaker?.stop()
    }

    /// Says the last thing said again.
    func repeatLastSaid() {
        guard let speaker, let lastSaid else { return }
        speaker.stop()
        speaker.speak(lastSaid.text, language: lastSaid.language, priority: .message)
    }

    /// Says the spoken lines: answers and screens whole and in order (SSIP `message`, cut only by the
    /// player's next key); notices nobody asked for wait for them (`message` too, queued after); one of
    /// the last ten seconds is heard at once (`important`).
    private mutating func say(_ lines: [ConsoleLine], language: String?, notice: Bool) {
        let spoken = lines.filter(\.spoken).map(\.text)
        guard let speaker, !spoken.isEmpty else { return }
        let text = spoken.joined(separator: "\n")
        let priority: SpeechPriority = notice && lines.contains { $0.style == .countdown } ? .important : .message
        speaker.speak(text, language: language, priority: priority)
        lastSaid = (text, language)
    }

    /// Writes lines; lines that arrive while the prompt waits start below it.
    ///
    /// - Parameters:
    ///   - lines: The lines.
    ///   - language: Their language, for speech.
    ///   - notice: Whether nobody asked for them (time passing).
    /// - Returns: `false` when the output went away.
    mutating func show(_ lines: [ConsoleLine], language: String?, notice: Bool) -> Bool {
        guard !lines.isEmpty else { return true }
        // Wrapped between words to the terminal's width, read again for each message (the window may have
        // been resized); earlier lines are never drawn again.
        let columns = WordWrap.columns(of: output.descriptor)
        var text = ""
        for line in lines {
            for row in WordWrap.rows(line.text, width: columns ?? 0) {
                text += ConsoleLine(row, style: line.style).formatted(color: options.color) + "\n"
            }
        }
        say(lines, language: language, notice: notice)
        // A transcript that cannot be written is not worth stopping the game for.
        _ = transcript?.write(Array(lines.map { $0.text + "\n" }.joined().utf8))
        if prompting, let editor, editor.isEditing {
            let isTime = options.countdownInPlace && lines.count == 1 && lines[0].style == .countdown
            defer { timeAbovePrompt = isTime }
            return interrupt(
                with: text,
                editor: editor,
                columns: columns,
                replacingLineAbove: isTime && timeAbovePrompt
            )
        }
        timeAbovePrompt = false
        if prompting { text = "\n" + text }
        prompting = false
        return send(Array(text.utf8))
    }

    /// Queues `bytes` after what waits and writes what the terminal takes now.
    ///
    /// - Returns: `false` when the output went away.
    private mutating func send(_ bytes: [UInt8]) -> Bool {
        pending += bytes
        return writePending()
    }

    /// Writes what waits, as far as the terminal takes it now; once it is all out, the editor's line is
    /// drawn again if a message took its place.
    ///
    /// - Returns: `false` when the output went away.
    mutating func writePending() -> Bool {
        guard !pending.isEmpty else { return true }
        guard let written = output.writeAvailable(pending, from: 0) else { return false }
        pending.removeFirst(written)
        if pending.isEmpty && redisplayWhenWritten {
            redisplayWhenWritten = false
            editor?.redisplay()
        }
        return true
    }
}
