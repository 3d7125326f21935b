// SPDX-License-Identifier: Apache-2.0
// The fuzz targets, each in process and fast: no target replays an input twice or starts a process.
import EscapeContent
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fuzz target: a name (its corpus is `Tests/FuzzCorpus/NAME`) and what it does with one input.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    /// Every target, by name.
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "lines", run: fuzzLines),
        FuzzTarget(name: "engine", run: fuzzEngine),
        FuzzTarget(name: "snapshot", run: fuzzSnapshot),
        FuzzTarget(name: "save", run: fuzzSave),
        FuzzTarget(name: "adventure", run: fuzzAdventure),
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// The shipped adventure, loaded once.
private let adventure: Adventure = {
    do {
        return try AdventureLoader.bundled(locale: "en")
    } catch {
        fatalError("the shipped adventure must load: \(error)")
    }
}()

/// A scratch folder for the targets that use real files, made once per process: in /dev/shm when there
/// is one, where the save's `fsync` calls cost nothing, so the save loader is fuzzed, not the disk.
private let scratch: String = {
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : NSTemporaryDirectory()
    var template = Array((base + "efb-fuzz-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("no scratch folder: \(String(cString: strerror(errno)))") }
    return String(cString: made)
}()

/// Started games, by their options, clock and start time: each input's game is a copy of one started
/// once (the session is a value), since starting a game (`hello`, the opening screen) was a tenth of
/// the engine target's time and never varies.
nonisolated(unsafe) private var startedGames: [StartedGame: (session: Session, events: [StampedEvent])] = [:]

private struct StartedGame: Hashable {
    var options: EngineOptions
    var virtual: Bool
    var start: Int64
}

/// A started game of the shipped adventure with `options` on `clock`, saved in memory, and the events
/// of its start.
private func startedHost(options: EngineOptions, clock: any GameClock) -> (SessionHost, [StampedEvent]) {
    let key = StartedGame(options: options, virtual: clock.isVirtual, start: clock.now())
    guard let (session, events) = startedGames[key] else {
        let host = SessionHost(adventure: adventure, options: options, store: InMemorySaveStore(), clock: clock)
        let events = host.start()
        startedGames[key] = (host.session, events)
        return (host, events)
    }
    let keeper = SaveKeeper(store: InMemorySaveStore())
    do {
        _ = try keeper.open(for: adventure, whenLocked: .readOnly)
    } catch {
        preconditionFailure("an in-memory store is always a save: \(error)")
    }
    return (SessionHost(session: session, keeper: keeper, clock: clock), events)
}

// MARK: - lines

/// Framing and decoding alone: every line decodes to a request, a blank or a failure, and every
/// request re-encodes to a line that decodes to a request again.
@Sendable func fuzzLines(_ input: UnsafeRawBufferPointer) {
    var framer = LineFramer(maximumLineLength: 4096)
    var frames = framer.feed(input)
    if let last = framer.finish() { frames.append(last) }
    var encoded: [UInt8] = []
    for case .line(let line) in frames {
        guard case .request(let request) = CommandDecoder.decode(line) else { continue }
        encoded.removeAll(keepingCapacity: true)
        RequestEncoder.encode(request, into: &encoded)
        if encoded.last == 10 { encoded.removeLast() }
        guard case .request = CommandDecoder.decode(encoded) else {
            let text = String(decoding: encoded, as: UTF8.self)
            preconditionFailure("a request re-encodes to a line that is refused: \(text)")
        }
    }
}

// MARK: - engine

/// A clock the harness moves: the session's "real" clock, read at every input.
private final class SteppedClock: GameClock {
    var time: Int64 = 1_000_000
    let isVirtual: Bool
    init(virtual: Bool) { isVirtual = virtual }
    func now() -> Int64 { time }
}

/// What the first four bytes of an engine input choose: the clock, the hint interval, the time that
/// passes between two lines on the real clock, hints at once and time pressure.
private struct EngineSetup {
    var virtual: Bool
    var hintInterval: Int64
    var step: Int64
    var hintsAtOnce: Bool
    var timePressure: Bool

    static let intervals: [Int64] = [1, 2, 3, 7, 50, 1000, 30_000]
    static let steps: [Int64] = [0, 1, 2, 5, 100, 1000, 10_000, 60_000, 600_000, 86_400_000]

    init(_ header: [UInt8]) {
        let bytes = header + [UInt8](repeating: 0, count: max(0, 4 - header.count))
        virtual = bytes[0] & 1 == 0
        hintInterval = Self.intervals[Int(bytes[1]) % Self.intervals.count]
        step = Self.steps[Int(bytes[2]) % Self.steps.count]
        hintsAtOnce = bytes[3] & 1 != 0
        timePressure = bytes[3] & 2 == 0
    }
}

/// The whole path a line takes: framing, decoding, the engine, encoding.
///
/// On the virtual clock or a real one that moves between lines, with small hint intervals; the first
/// four bytes are the setup.
@Sendable func fuzzEngine(_ input: UnsafeRawBufferPointer) {
    let setup = EngineSetup(Array(input.prefix(4)))
    let clock = SteppedClock(virtual: setup.virtual)
    let (session, opening) = startedHost(
        options: EngineOptions(
            hintInterval: setup.hintInterval,
            hintsAtOnce: setup.hintsAtOnce,
            seed: 1,
            timePressure: setup.timePressure
        ),
        clock: clock
    )
    var events = opening
    var framer = LineFramer(maximumLineLength: 4096)
    var frames = framer.feed(UnsafeRawBufferPointer(rebasing: input.dropFirst(4)))
    if let last = framer.finish() { frames.append(last) }
    var dones = 0
    for frame in frames where !session.isFinished {
        let answer = session.handle(frame)
        let count = answer.filter { $0.event == .done }.count
        if setup.virtual {
            precondition(answer.isEmpty || count == 1, "a line was answered with \(count) done events")
        }
        dones += count
        events += answer
        if !setup.virtual && !session.isFinished {
            clock.time += setup.step
            let ticked = session.tick()
            dones += ticked.filter { $0.event == .done }.count
            events += ticked
        }
    }
    let ending = session.finish()
    dones += ending.filter { $0.event == .done }.count
    events += ending
    precondition(dones <= frames.count, "\(dones) done events for \(frames.count) lines")
    check(events)
    checkSnapshotsRestore(events)
}

// MARK: - snapshot

/// Signs `input` as a snapshot's payload, restores it and plays on: a crafted payload is refused or
/// restored to a state the engine plays on, never a trap or a hang.
@Sendable func fuzzSnapshot(_ input: UnsafeRawBufferPointer) {
    let (session, opening) = startedHost(options: EngineOptions(hintInterval: 1000, seed: 1), clock: VirtualClock())
    var events = opening
    let blob = SnapshotCodec.sign(Array(input))
    let lines = ([.restore(blob: blob)] + afterRestore).map(line)
    for line in lines where !session.isFinished {
        let answer = session.handle(.line(Array(line.utf8)))
        let dones = answer.filter { $0.event == .done }.count
        precondition(dones == 1, "a line was answered with \(dones) done events")
        events += answer
    }
    check(events)
    checkSnapshotsRestore(events)
}

/// Every snapshot the engine takes restores in a fresh session: the engine never reaches a state its own
/// restore check calls impossible, even from a crafted snapshot it accepted (issue 26 D's invariant, both
/// ways: what `restore` accepts plays on only to states `restore` accepts).
private func checkSnapshotsRestore(_ events: [StampedEvent]) {
    for case .snapshot(let blob) in events.map(\.event) {
        let (fresh, _) = startedHost(options: EngineOptions(hintInterval: 1000, seed: 1), clock: VirtualClock())
        for stamped in fresh.handle(.line(Array(line(.restore(blob: blob)).utf8))) {
            if case .error(let error) = stamped.event {
                preconditionFailure("the engine's own snapshot is refused: \(error.message)")
            }
        }
    }
}

/// What is played after a restore: focus, activation, hints, a day of time, the rotor, the menu, a snapshot.
private let afterRestore: [Command] = [
    .game(.next), .game(.activate(element: nil)), .game(.hint), .wait(milliseconds: 86_400_000),
    .game(.rotor(.next)), .game(.menu), .game(.escape), .snapshot,
]

/// The protocol line of `command`, as a client writes it.
private func line(_ command: Command) -> String {
    JSONWriter.string(RequestEncoder.json(Request(command: command)))
}

// MARK: - save

/// The save loader on a real file.
///
/// The input is written as the save, opened as a game opens it (lock, read, move aside), saved as the
/// session saves and read back. A save is refused, moved aside or played from; what is written reads back
/// with this adventure's record and every other one kept.
@Sendable func fuzzSave(_ input: UnsafeRawBufferPointer) {
    let path = scratch + "/progress.json"
    for name in SystemNames.entries(of: scratch) { unlink(scratch + "/" + name) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0, "cannot write the save: \(String(cString: strerror(errno)))")
    var offset = 0
    while offset < input.count, let base = input.baseAddress {
        let written = write(descriptor, base + offset, input.count - offset)
        precondition(written > 0, "cannot write the save")
        offset += written
    }
    close(descriptor)
    let before = try? SaveFile.decode(Array(input))
    let store = FileSaveStore(path: path)
    let keeper = SaveKeeper(store: store)
    let startup: SaveStartup
    do {
        startup = try keeper.open(for: adventure, whenLocked: .refuse)
    } catch .notASave {
        precondition(!SaveFile.mayBeOurs(Array(input)), "a file that may be ours was refused")
        return
    } catch {
        preconditionFailure("opening a save failed: \(error)")
    }
    // The session is not started (the engine target fuzzes that): the progress found is saved back as
    // the session would save it, beside the other adventures' records.
    guard startup.writable else { return }
    let progress = startup.progress ?? Progress(completed: [], current: LevelPosition(chapter: 0, level: 0))
    if let problem = keeper.save(SaveData(progress, in: adventure)) {
        preconditionFailure("a writable save could not be written: \(problem)")
    }
    guard let after = try? store.load() else { preconditionFailure("a save written by the engine does not read back") }
    precondition(after[adventure: adventure.id] != nil, "the adventure's record is missing after a save")
    if let before {
        for (id, record) in before.records where id != adventure.id {
            precondition(after[adventure: id] == record, "the record of \(id) was lost")
        }
    }
}

/// The names in a folder.
private enum SystemNames {
    static func entries(of folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
}

// MARK: - adventure

/// The adventure loader: the input is an adventure file, read from a real file; an accepted one is
/// played (intro, the first level's elements, hints, the menu, a wait) without a trap.
@Sendable func fuzzAdventure(_ input: UnsafeRawBufferPointer) {
    let path = scratch + "/adventure.json"
    guard FileManager.default.createFile(atPath: path, contents: Data(input)) else {
        preconditionFailure("cannot write the adventure file")
    }
    let story: Adventure
    do {
        story = try AdventureLoader.load(path: path)
    } catch {
        precondition(!error.problems.isEmpty, "an adventure was refused without a problem")
        return
    }
    let session = SessionHost(
        adventure: story,
        options: EngineOptions(hintInterval: 5, seed: 1),
        store: InMemorySaveStore(),
        clock: VirtualClock()
    )
    var events = session.start()
    for line in playedOnAdventures where !session.isFinished {
        let answer = session.handle(.line(Array(line.utf8)))
        let dones = answer.filter { $0.event == .done }.count
        precondition(dones == 1, "a line was answered with \(dones) done events")
        events += answer
    }
    check(events)
}

/// What is played on an accepted adventure.
private let playedOnAdventures: [String] = [
    .game(.escape), .game(.activate(element: "begin")), .state, .game(.next), .game(.activate(element: nil)),
    .game(.next), .game(.activate(element: nil)), .wait(milliseconds: 60_000), .game(.hint), .game(.rotor(.next)),
    .game(.magicTap), .game(.menu), .game(.last), .game(.activate(element: nil)), .validActions(ifChanged: false),
    .validActions(ifChanged: true), .game(.escape), .validActions(ifChanged: true), .observe(maxActions: nil),
    .game(.next), .observe(maxActions: 1),
].map(line)

// MARK: - checks

/// The events already checked, by a hash of all they say but their `seq` and `gen`.
///
/// Most events (the shipped adventure's screens, `done`, `idle`) come again input after input,
/// numbered anew, and a number is written the same way whatever its value (the lines target and the
/// protocol tests check numbers). So an event is encoded and read back the first time only, which was
/// a third of the engine target's time. Two events with one 64-bit hash would share a check: odds of
/// about 2^-64 a pair.
///
/// Bounded: emptied when full, so a long run's memory stays flat.
nonisolated(unsafe) private var eventsChecked = Set<Int>()
private let eventsCheckedLimit = 100_000

/// Every event must encode as one line the strict reader reads back.
func check(_ events: [StampedEvent]) {
    var output: [UInt8] = []
    for event in events {
        var hasher = Hasher()
        hasher.combine(event.event)
        hasher.combine(event.replyTo)
        hasher.combine(event.protocolMinor)
        let key = hasher.finalize()
        if eventsChecked.contains(key) { continue }
        output.removeAll(keepingCapacity: true)
        EventEncoder.encode(event, into: &output)
        precondition(output.last == 10 && output.dropLast().firstIndex(of: 10) == nil, "an event is not one line")
        do {
            _ = try JSONReader.read(output.dropLast())
        } catch {
            preconditionFailure("an event does not read back: \(error)")
        }
        if eventsChecked.count >= eventsCheckedLimit { eventsChecked.removeAll(keepingCapacity: true) }
        eventsChecked.insert(key)
    }
}
