// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeLaunch
import EscapeRuntime
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One event the engine wrote, parsed.
typealias Event = [String: JSONValue]

extension Dictionary where Key == String, Value == JSONValue {
    /// The event's `type`.
    var type: String? { if case .string(let type) = self["type"] { type } else { nil } }

    /// A string field, or `nil`.
    func string(_ key: String) -> String? { if case .string(let text) = self[key] { text } else { nil } }

    /// An integer field, or `nil`.
    func int(_ key: String) -> Int? { if case .int(let number) = self[key] { number } else { nil } }

    /// The `id` of the element an event carries (`focus`, `elementChanged`).
    var elementID: String? {
        if case .object(let element) = self["element"], case .string(let id) = element["id"] { id } else { nil }
    }

    /// The `value` of the element an event carries.
    var elementValue: String? {
        if case .object(let element) = self["element"], case .string(let value) = element["value"] {
            value
        } else {
            nil
        }
    }

    /// The ids of a `screen` event's elements.
    var elementIDs: [String] {
        guard case .array(let elements) = self["elements"] else { return [] }
        return elements.compactMap { if case .object(let element) = $0 { element["id"] } else { nil } }.compactMap {
            if case .string(let id) = $0 { id } else { nil }
        }
    }
}

/// What one run of `efb pipe` wrote, parsed; every line was checked against `event.schema.json`.
struct Transcript {
    /// The output bytes.
    var bytes: [UInt8]
    /// Every line, parsed.
    var events: [Event]
    /// The exit status.
    var status: Int32
    /// What went to standard error.
    var stderr: String

    init(bytes: [UInt8], status: Int32, stderr: String, validate: Bool = true) throws {
        self.bytes = bytes
        self.status = status
        self.stderr = stderr
        events = try bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map {
            guard case .object(let object) = try JSONReader.read($0) else { throw TestFailure("a line is no object") }
            return object
        }
        if validate { try EFB.expectValid(bytes) }
    }

    /// The raw lines, without their `\n`.
    var lines: [ArraySlice<UInt8>] { bytes.split(separator: UInt8(ascii: "\n")) }

    /// The opening: everything up to and including the first `progress`.
    var opening: [Event] {
        guard let end = events.firstIndex(where: { $0.type == "progress" }) else { return events }
        return Array(events[...end])
    }

    /// Every event with `replyTo` equal to `id`, in order.
    func reply(to id: JSONValue) -> [Event] { events.filter { $0["replyTo"] == id } }

    /// The types of the events replying to `id`.
    func types(_ id: JSONValue) -> [String] { reply(to: id).compactMap(\.type) }

    /// The events between the `done` of `before` (or the opening) and the `done` of `id`, both excluded.
    func events(after before: JSONValue?, upTo id: JSONValue) -> [Event] {
        let start =
            before.flatMap { b in events.firstIndex { $0.type == "done" && $0["replyTo"] == b } }.map { $0 + 1 }
            ?? opening.count
        guard let end = events.firstIndex(where: { $0.type == "done" && $0["replyTo"] == id }) else { return [] }
        return Array(events[start..<end])
    }

    /// The `done` of `id`.
    func done(_ id: JSONValue) -> Event? { events.first { $0.type == "done" && $0["replyTo"] == id } }

    /// The first `error` replying to `id`.
    func error(_ id: JSONValue) -> Event? { reply(to: id).first { $0.type == "error" } }

    /// The last event of `type` replying to `id`.
    func last(_ type: String, _ id: JSONValue) -> Event? { reply(to: id).last { $0.type == type } }

    /// All events of `type`.
    func all(_ type: String) -> [Event] { events.filter { $0.type == type } }
}

/// Running the built `efb pipe` for the conformance tests.
enum EFB {
    /// The deterministic options of §1.
    static let virtual = ["pipe", "--seed", "1", "--clock", "virtual", "--memory-save"]
    /// The small adventure of docs/examples.
    static let lanternPath = packageRoot.appendingPathComponent("docs/examples/lantern-room.json").path
    /// The deterministic options on the small adventure.
    static let lantern = virtual + ["--adventure", lanternPath]
    /// A hello that agrees on protocol 1.1.
    static let hello11 = #"{"type":"hello","id":"h","protocol":[1,1]}"#
    /// Commands that take the lantern room from its intro to its first level.
    static let toFirstLevel = [#"{"type":"escape"}"#, #"{"type":"activate","element":"begin"}"#]

    /// Runs `efb` with `arguments` and `lines` on its standard input, each ended with `\n`.
    static func run(_ lines: [String], arguments: [String] = virtual) async throws -> Transcript {
        try await run(bytes: Array(lines.map { $0 + "\n" }.joined().utf8), arguments: arguments)
    }

    /// Runs `efb` with `arguments` and `bytes` on its standard input.
    ///
    /// `efb pipe` runs in this process, through its wire adapter (``inProcess(_:input:)``), unless
    /// `EFB_CONFORMANCE_PROCESS=1` asks for the built program; any other command runs the program. The
    /// run blocks a thread of its own, not one of the test pool's, so many runs overlap.
    static func run(bytes: [UInt8], arguments: [String] = virtual, validate: Bool = true) async throws -> Transcript {
        let result = try await onThreadOfItsOwn {
            if !throughProcesses, let result = try inProcess(arguments, input: bytes) { return result }
            let result = try runEFB(arguments, input: bytes)
            return (stdout: result.stdout, status: result.status, stderr: result.stderr)
        }
        return try Transcript(bytes: result.stdout, status: result.status, stderr: result.stderr, validate: validate)
    }

    /// Whether every game runs as a process of the built `efb` (`EFB_CONFORMANCE_PROCESS=1`).
    static let throughProcesses = ProcessInfo.processInfo.environment["EFB_CONFORMANCE_PROCESS"] == "1"

    /// Runs `efb pipe` with `arguments` in this process, as the program does: the options read and
    /// the game made by the program's own code (``PipeCommandLine``, ``GameSettings``), then
    /// ``PipeFrontEnd`` on one event loop, reading `input` from a pipe and writing to another.
    ///
    /// - Returns: What it wrote and its status (0; what `makeHost` reports is its standard error); `nil`
    ///   for anything but `pipe`, options the program refuses, or a game that cannot start, which the
    ///   program itself answers (its status and message).
    static func inProcess(
        _ arguments: [String],
        input: [UInt8]
    ) throws -> (stdout: [UInt8], status: Int32, stderr: String)? {
        guard arguments.first == "pipe",
            let command = PipeCommandLine(arguments: arguments, standardInputIsTerminal: false)
        else { return nil }
        var stderr = ""
        let host: any GameHost
        if command.games > 1 {
            guard let pool = try? command.settings.makePool(games: command.games, report: { stderr += $0 }) else {
                return nil
            }
            host = pool
        } else {
            guard let game = try? command.settings.makeHost(whenLocked: .readOnly, report: { stderr += $0 }) else {
                return nil
            }
            host = game
        }
        let commands = try closedOnExec()
        let events = try closedOnExec()
        // A game that ends before reading all its input must not end this process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let writer = Thread {
            input.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = write(commands.write, base + offset, buffer.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            close(commands.write)
        }
        writer.start()
        let output = Locked<[UInt8]?>(nil)
        let reader = Thread {
            let data = FileHandle(fileDescriptor: events.read, closeOnDealloc: true).readDataToEndOfFile()
            output.withLock { $0 = Array(data) }
        }
        reader.start()
        let frontEnd = PipeFrontEnd(input: commands.read, output: events.write, writesEachAnswer: command.games > 1)
        EventLoop(host: host, frontEnd: frontEnd, clock: MonotonicClock()).run()
        close(commands.read)
        close(events.write)
        try waitUntil(timeout: 30, "the game's output to be read") { output.withLock { $0 != nil } }
        return (output.withLock { $0 } ?? [], 0, stderr)
    }

    /// A pipe whose ends are closed on exec, so no program another test starts holds them open.
    private static func closedOnExec() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestFailure("no pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Runs the lantern room with `lines`.
    static func lantern(_ lines: [String]) async throws -> Transcript { try await run(lines, arguments: lantern) }

    /// The parsed output of a running `efb` so far.
    static func events(_ game: RunningEFB) throws -> [Event] {
        try game.output.data.split(separator: UInt8(ascii: "\n")).map {
            guard case .object(let object) = try JSONReader.read($0) else { throw TestFailure("a line is no object") }
            return object
        }
    }

    /// Writes `lines` to a running `efb`, each ended with `\n`.
    static func send(_ game: RunningEFB, _ lines: String...) {
        game.write(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Ends a running `efb` and checks everything it wrote against the schema.
    static func finish(_ game: RunningEFB) throws {
        game.finish()
        try expectValid(Array(game.output.data))
    }

    /// Checks NDJSON output with Protocol/tools/validate.py: the schema, the line ends and `seq`.
    static func expectValid(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("efb-conf-\(UUID().uuidString).ndjson")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (ok, report) = try Validator.shared.validate(file.path)
        #expect(ok, "the output is not schema-valid: \(report)", sourceLocation: sourceLocation)
    }

    /// A save file in a fresh folder, holding `completed` and `current` of `adventure`.
    static func save(
        adventure: String = "lantern-room",
        completed: [String],
        current: String?,
        format: Int = 1
    ) throws -> URL {
        let folder = try temporaryFolder("conf")
        let file = folder.appendingPathComponent("progress.json")
        let value: JSONValue = [
            "format": .int(format), "adventure": .string(adventure),
            "completed": .array(completed.map(JSONValue.string)), "current": current.map(JSONValue.string) ?? .null,
        ]
        try Data((JSONWriter.string(value) + "\n").utf8).write(to: file)
        return file
    }

    /// The lantern room's options with the save file `save` instead of a memory save.
    static func lantern(save: URL, _ extra: [String] = []) -> [String] {
        ["pipe", "--seed", "1", "--clock", "virtual", "--adventure", lanternPath, "--save", save.path] + extra
    }

    /// The lantern room's levels, in playing order.
    static let lanternLevels = ["room-latch", "room-word", "room-dial", "room-shelf", "room-wheels"]

    /// The lantern room's options, resuming from a save on `level` with every level before it solved.
    static func lantern(at level: String, _ extra: [String] = []) throws -> [String] {
        let index = try #require(lanternLevels.firstIndex(of: level))
        return lantern(save: try save(completed: Array(lanternLevels[..<index]), current: level), extra)
    }

    /// Runs the lantern room resumed on `level` with `lines`.
    ///
    /// On room-latch (a save with nothing solved is a new game) it plays through the intro to the level instead.
    static func play(at level: String, _ lines: [String], _ extra: [String] = []) async throws -> Transcript {
        if level == lanternLevels[0] { return try await run(toFirstLevel + lines, arguments: lantern + extra) }
        return try await run(lines, arguments: lantern(at: level, extra))
    }

    /// The commands that solve the lantern room's last level, the dials (4, then 2).
    static let solveWheels =
        Array(repeating: #"{"type":"adjust","element":"left-wheel","direction":"increment"}"#, count: 4)
        + Array(repeating: #"{"type":"adjust","element":"right-wheel","direction":"increment"}"#, count: 2)

    /// A save on the lantern room's last, timed level (room-wheels).
    static func wheelsSave() throws -> URL {
        try save(completed: ["room-latch", "room-word", "room-dial", "room-shelf"], current: "room-wheels")
    }
}

/// One long-lived Python process running Protocol/tools/validate.py on file after file, so each check costs
/// no interpreter start-up.
final class Validator: Sendable {
    static let shared = Validator()

    /// The validator's loop: one path per line in, `status<TAB>report` (the report's newlines as `\u{1}`) out.
    ///
    /// validate.py runs unchanged on every file; only the schema check of an event is remembered, keyed by the
    /// event with a valid `seq` set to 1, as equal events recur in every run and each check costs milliseconds.
    private static let script = """
        import contextlib, io, json, runpy, sys, types
        import jsonschema
        validate = runpy.run_path(sys.argv[1])
        original = jsonschema.validators.validator_for
        class Remembering:
            def __init__(self, validator):
                self.validator, self.known = validator, {}
            def iter_errors(self, event):
                seq = event.get("seq") if isinstance(event, dict) else None
                if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
                    return list(self.validator.iter_errors(event))
                key = json.dumps({**event, "seq": 1}, sort_keys=True)
                if key not in self.known:
                    self.known[key] = list(self.validator.iter_errors(event))
                return self.known[key]
        class Checked:
            def __init__(self, cls):
                self.cls, self.checked, self.validators = cls, set(), {}
            def check_schema(self, schema):
                key = json.dumps(schema, sort_keys=True)
                if key not in self.checked:
                    self.cls.check_schema(schema)
                    self.checked.add(key)
            def __call__(self, schema):
                key = json.dumps(schema, sort_keys=True)
                if key not in self.validators:
                    self.validators[key] = Remembering(self.cls(schema))
                return self.validators[key]
        classes = {}
        def remembering_validator_for(schema, *args, **kwargs):
            cls = original(schema, *args, **kwargs)
            return classes.setdefault(cls, Checked(cls))
        validate["main"].__globals__["jsonschema"] = types.SimpleNamespace(
            validators=types.SimpleNamespace(validator_for=remembering_validator_for),
            exceptions=jsonschema.exceptions,
        )
        for path in sys.stdin:
            errors = io.StringIO()
            with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
                status = validate["main"](["validate.py", "events", path.rstrip("\\n")])
            print(f"{status}\\t{errors.getvalue()}".replace("\\n", "\\x01"), flush=True)
        """

    private let state: Locked<(process: Process, input: FileHandle, output: FileHandle)?> = Locked(nil)

    /// Validates the events in the file at `path`; returns whether they are valid and the problems.
    func validate(_ path: String) throws -> (ok: Bool, report: String) {
        try state.withLock { state in
            if state == nil {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    pythonCommand, "-c", Self.script,
                    packageRoot.appendingPathComponent("Protocol/tools/validate.py").path,
                ]
                let input = Foundation.Pipe()
                let output = Foundation.Pipe()
                process.standardInput = input
                process.standardOutput = output
                try process.run()
                state = (process, input.fileHandleForWriting, output.fileHandleForReading)
            }
            guard let (_, input, output) = state else { throw TestFailure("no validator") }
            input.write(Data((path + "\n").utf8))
            var line: [UInt8] = []
            while let byte = try output.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
            guard !line.isEmpty else { throw TestFailure("the validator stopped; see its standard error") }
            let text = String(decoding: line, as: UTF8.self)
            let parts = text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let report = parts.count > 1 ? parts[1].replacingOccurrences(of: "\u{1}", with: "\n") : text
            return (parts.first == "0", report)
        }
    }
}
