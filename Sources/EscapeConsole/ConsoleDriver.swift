// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol
package import EscapeRuntime

/// The console's turn-taking: typed lines in as session inputs, the session's events out as lines.
///
/// Its only I/O is the player's named saves (``SaveSlots``), written and read as `save NAME` and
/// `restore NAME` ask.
///
/// ``ConsoleFrontEnd`` owns one: it hands what ``interpret(_:)`` gives to the session and the session's
/// events to ``render(_:)``. It remembers which command each of its requests carried, so every answer
/// is rendered as an answer to its own command.
package struct ConsoleDriver: Sendable {
    /// What a typed line comes to.
    package enum Interpretation: Sendable, Hashable {
        /// Commands for the session, one request each; the first one refused stops the rest.
        case submit(SessionInput)
        /// Lines the console answers by itself (help, the item list, a typing mistake).
        case lines([ConsoleLine])
    }

    /// How many gestures `undo` can take back on one level.
    static let undoDepth = 50

    private var renderer = ConsoleRenderer()
    private var commands: [RequestID: Command] = [:]
    private var requestNumber = 0
    /// Requests that erase progress, waiting for the player's yes.
    private var unconfirmed: [Request]?
    /// What `undo` brings back: the game before a gesture on a level.
    private enum UndoPoint {
        /// A snapshot the session in this process kept as a value.
        case kept(KeptSnapshot)
        /// The blob of a snapshot, from a game served elsewhere.
        case blob(String)
    }
    /// Snapshots taken before each gesture on a level, the newest last, with the screen they were taken on.
    private var undoPoints: [(screen: String, point: UndoPoint, typed: String)] = []
    /// The `snapshot` requests in flight, with the screen each was asked on and the line typed.
    private var snapshotsAsked: [RequestID: (screen: String, typed: String)] = [:]
    /// The verdict ("Wrong.") of the last lines said, which `again` says again with the announcement.
    private var lastVerdict: ConsoleLine?
    /// What answered the player's last move, from its verdict on: `again` says it when a notice nobody
    /// asked for came since (the engine would repeat the notice).
    private var lastAnswer: [ConsoleLine] = []
    /// Whether a notice nobody asked for was said since the last answer.
    private var noticeSinceAnswer = false
    /// The last lines said (``ConsoleCommandParser/keptLines`` at most), for `history` and `review N`.
    private var said: [ConsoleLine] = []
    /// Where the game's progress is kept, for `save`; named saves are kept beside it (``SaveSlots``), in
    /// memory with `.nowhere`, and not at all in a shared game.
    package var savePlace: SavePlace = .nowhere
    /// The named saves of a game that keeps no files (`--memory-save`): each blob, and when it was kept.
    private var memorySlots: [String: (blob: String, order: Int)] = [:]
    /// How many named saves were kept in memory so far, to list them newest first.
    private var slotsKept = 0
    /// The `snapshot` requests that keep a named save, with its name.
    private var slotSaves: [RequestID: String] = [:]
    /// The `snapshot` requests taken before a replay, with the replay's request: once it is done, the
    /// player hears that the game was kept.
    private var replayKeeps: [RequestID: RequestID] = [:]
    /// The `restore` requests of a named save, with its name and the `state` request that redraws after it.
    private var slotRestores: [RequestID: (name: String, redraw: RequestID?)] = [:]
    /// The `state` requests that redraw after a named save came back, with its name.
    private var slotRedraws: [RequestID: String] = [:]
    /// The named save that keeps the game as it was before `replay`.
    package static let beforeReplay = "before-replay"

    /// Whether the line being interpreted is `history` or `review N`.
    private var reviewing = false

    /// Where a console's game keeps its progress.
    package enum SavePlace: Sendable, Hashable {
        /// In this file.
        case file(String)
        /// Nowhere: `--memory-save`.
        case nowhere
        /// With the `efb serve` that shares the game.
        case server
    }
    /// What the `undo` in flight takes back, by its `state` request.
    private var undoneLines: [RequestID: String] = [:]
    /// The `state` requests that redraw after an undo: only the focus is said.
    private var undoRedraws: Set<RequestID> = []
    /// What to say once a request is settled (the clock turned on or off, a number typed on a text field).
    private var afterwords: [RequestID: String] = [:]
    /// The `state` requests that ask for the time left: only the clock is said.
    private var timeAsks: Set<RequestID> = []
    /// The opening's `state` request: a timed room's clock is said, and nothing else.
    private var arrivalAsks: Set<RequestID> = []
    /// The `wait` not answered yet, if there is one: at a terminal the next key cuts it short.
    package private(set) var pendingWait: RequestID?
    /// The `wait` requests a key cut short: their answer says so.
    private var waitsCutShort: Set<RequestID> = []
    /// The `cancel` requests that cut a `wait` short: their answer is not said (the wait may have ended
    /// by itself meanwhile).
    private var cancels: Set<RequestID> = []
    /// The steps of a many-step turn (`+ 4`) but its last: said only when they change more than the
    /// wheel (a solved door, an error the last step does not repeat).
    private var quietSteps: Set<RequestID> = []
    /// The last step of a many-step turn: its value is said with the wheel's name.
    private var turnEnds: Set<RequestID> = []
    /// What the steps of the turn under way said: each step refused the same way is said once.
    private var turnSaid: Set<String> = []

    /// Creates a driver that has seen nothing yet.
    ///
    /// - Parameter countdownEverySecond: Whether each of a timed room's last ten seconds gets its line
    ///   (for a countdown drawn in place), or only 10, 5, 3 and 1.
    package init(countdownEverySecond: Bool = false) {
        renderer.countdownEverySecond = countdownEverySecond
    }

    /// What the console was shown so far.
    package var context: ShownGame { renderer.context }

    /// The console's `hello`: it asks for protocol 1.1, whose `elementChanged` keeps every item of the
    /// listing as it is now, not only the focused one, and whose `timer` says a timed level's clock; and
    /// it names the console's commands as the keys of the gestures, so chapter pages teach them.
    ///
    /// - Parameters:
    ///   - words: The console's words, for the keys that are words.
    ///   - timePressure: The player's choice for timed levels, when the player made one.
    /// - Returns: The hello.
    package static func hello(in words: ConsoleWords, timePressure: Bool? = nil) -> ClientHello {
        ClientHello(
            client: "efb console",
            acceptedVersions: .versions([.v1_0, .v1_1]),
            capabilities: ["console"],
            keys: Dictionary(
                uniqueKeysWithValues: Gesture.allCases.compactMap { gesture in
                    key(for: gesture, in: words).map { (gesture, $0) }
                }
            ),
            timePressure: timePressure
        )
    }

    /// What the console's `hello` calls the key of `gesture`: the command that makes it, in `words`;
    /// `nil` for the gestures chapter pages need not teach at the console.
    static func key(for gesture: Gesture, in words: ConsoleWords) -> String? {
        switch gesture {
        case .next: "n"
        case .previous: "p"
        case .activate: words(.keyActivate)
        case .rotor: "r"
        case .rotorItem: words(.keyRotorItem)
        case .action: "action"
        case .adjust: words(.keyAdjust)
        case .magicTap: words(.keyMagicTap)
        case .hint: "h"
        case .menu: "m"
        case .first, .last, .pan, .escape, .repeat: nil
        }
    }

    /// What the console says right after the session's opening: its ``hello(in:timePressure:)``, in the
    /// words of the adventure the opening named.
    ///
    /// - Parameter timePressure: The player's kept choice for timed levels, if there is one.
    /// - Returns: The hello, numbered like every request of the console, so its reply is rendered as one.
    package mutating func opening(timePressure: Bool? = nil) -> SessionInput {
        let words = renderer.context.words
        let hello = number(Request(command: .hello(Self.hello(in: words, timePressure: timePressure))))
        // A game resumed in a timed room got its clock before the hello agreed on 1.1: ask for it.
        let state = number(Request(command: .state))
        if let id = state.id { arrivalAsks.insert(id) }
        return .requests([hello, state])
    }

    /// Interprets one typed line.
    ///
    /// - Parameter line: The line, without its terminator.
    /// - Returns: Requests for the session, or lines to write at once.
    package mutating func interpret(_ line: String) -> Interpretation {
        reviewing = false
        let interpretation = interpreting(line)
        if case .lines(let lines) = interpretation, !reviewing { keep(lines) }
        return interpretation
    }

    private mutating func interpreting(_ line: String) -> Interpretation {
        let words = renderer.context.words
        if let requests = unconfirmed {
            unconfirmed = nil
            let yes = words(.yesWords).split(separator: " ").map(String.init) + ["y", "yes"]
            guard yes.contains(AnswerFolding.fold(line).filter { !$0.isWhitespace }) else {
                return .lines([ConsoleLine(words(.progressKept))])
            }
            return .submit(.requests(keepingTheGame(before: requests.map { number($0) })))
        }
        switch ConsoleCommandParser.parse(line, in: renderer.context) {
        case .send(let requests):
            if requests.map(\.command) == [.game(.repeatAnnouncement)], !renderer.announcedSinceScreen {
                // Nothing said here yet: the room's opening, as it was on arrival.
                return .lines(renderer.listing())
            }
            if requests.map(\.command) == [.game(.repeatAnnouncement)], noticeSinceAnswer, !lastAnswer.isEmpty {
                // `again` is about the player's last move, not about time passing meanwhile.
                return .lines(lastAnswer)
            }
            if requests.contains(where: { erasesProgress($0.command) }) {
                unconfirmed = requests
                return .lines([ConsoleLine(words(.confirmStartOver))])
            }
            let undoPoint = undoPoint(before: requests, typed: line)
            let numbered = requests.map { number($0) }
            let typed = line.trimmingPrefix(" ")
            if renderer.context.isOnTextField, !typed.isEmpty, typed.allSatisfy({ $0.isASCII && $0.isNumber }),
                let focus = numbered.last, case .game(.focus) = focus.command, let id = focus.id
            {
                // On a text field a bare number moves, as everywhere: the player is told nothing was answered.
                afterwords[id] = words(.numberMoved, ["number": String(typed)])
            }
            if let wait = numbered.last(where: { if case .wait = $0.command { true } else { false } }) {
                pendingWait = wait.id
            }
            let steps = numbered.filter { if case .game(.adjust) = $0.command { true } else { false } }.compactMap(\.id)
            if steps.count > 1, let last = steps.last {
                quietSteps.formUnion(steps.dropLast())
                turnEnds.insert(last)
            }
            return .submit(undoPoint.map { .keepingSnapshot(for: $0, then: numbered) } ?? .requests(numbered))
        case .undo:
            return undo()
        case .timeLeft:
            // The engine's state holds the clock as it stands (protocol 1.1).
            let state = number(Request(command: .state))
            if let id = state.id { timeAsks.insert(id) }
            return .submit(.requests([state]))
        case .timePressure(let on):
            let hello = number(Request(command: .hello(Self.hello(in: words, timePressure: on))))
            if let id = hello.id { afterwords[id] = words(on ? .clockOn : .clockOff) }
            return .submit(.requests([hello]))
        case .help:
            return .lines(renderer.help())
        case .helpMore:
            return .lines(renderer.help(more: true))
        case .list:
            return .lines(renderer.listing())
        case .actions:
            return .lines(renderer.actionsListing())
        case .examine:
            return .lines(renderer.focusLines())
        case .review(let count):
            // Said again as they were; what `history` says is not kept itself.
            reviewing = true
            let lines = said.suffix(count)
            return .lines(lines.isEmpty ? [ConsoleLine(words(.nothingToReview))] : Array(lines))
        case .save:
            let line: String =
                switch savePlace {
                case .file(let path): words(.savedIn, ["path": path])
                case .nowhere: words(.savedNowhere)
                case .server: words(.savedByServer)
                }
            return .lines([ConsoleLine(savePlace == .server ? line : line + " " + words(.saveSlotHint))])
        case .saveSlot(let name):
            guard savePlace != .server else { return .lines([ConsoleLine(words(.slotsShared))]) }
            let snapshot = number(Request(command: .snapshot))
            if let id = snapshot.id { slotSaves[id] = name }
            return .submit(.requests([snapshot]))
        case .listSlots:
            return .lines(slotList())
        case .restoreSlot(let name):
            return restoreSlot(name)
        case .failure(let message):
            return .lines([ConsoleLine(message)])
        }
    }

    /// Keeps `lines` for `history` and `review N`.
    private mutating func keep(_ lines: [ConsoleLine]) {
        said += lines
        if said.count > ConsoleCommandParser.keptLines { said.removeFirst(said.count - ConsoleCommandParser.keptLines) }
    }

    /// What a console at a terminal says as `input` starts a `wait`: how long, and how to stop it.
    ///
    /// - Parameter input: What ``interpret(_:)`` gave.
    /// - Returns: The line, or `nil` when `input` makes no `wait`.
    package func waitLine(for input: SessionInput) -> ConsoleLine? {
        let requests: [Request]
        switch input {
        case .requests(let run), .keepingSnapshot(_, let run): requests = run
        default: return nil
        }
        for case .wait(let milliseconds) in requests.map(\.command) {
            let words = renderer.context.words
            return ConsoleLine(words(.waiting, ["time": words.duration(milliseconds: Int64(milliseconds))]))
        }
        return nil
    }

    /// Cuts the pending `wait` short, when there is one: a key was pressed.
    ///
    /// - Returns: The `cancel` to hand to the session, or `nil` when no `wait` is pending.
    package mutating func cutWaitShort() -> SessionInput? {
        guard let wait = pendingWait else { return nil }
        pendingWait = nil
        waitsCutShort.insert(wait)
        let cancel = number(Request(command: .cancel(target: wait)))
        if let id = cancel.id { cancels.insert(id) }
        // On its own, a `cancel` is answered ahead of what waits behind the `wait`.
        return .request(cancel)
    }

    /// The last `timer` of `events`, if there is one.
    private static func timer(in events: [StampedEvent]) -> TimerState? {
        events.lazy.compactMap { stamped -> TimerState? in
            if case .game(.timer(let timer)) = stamped.event { return timer }
            return nil
        }.last
    }

    /// How long the clock of the timed level still runs, in words, from a `state` reply's `timer`.
    private func timeLeft(in events: [StampedEvent]) -> String {
        let words = renderer.context.words
        guard let timer = Self.timer(in: events) else { return words(.noClock) }
        let time = words.duration(milliseconds: timer.remainingMs)
        return words(timer.paused ? .timeStopped : .timeLeft, ["time": time])
    }

    /// Whether `event`, in the answer to one step of a turn, says more than where the wheel is: a new
    /// screen, a verdict, an error, the end.
    private static func changesMoreThanAWheel(_ stamped: StampedEvent) -> Bool {
        switch stamped.event {
        case .game(.screen), .game(.result), .game(.ended), .error, .ended, .bye: true
        default: false
        }
    }

    private static func isWait(_ command: Command) -> Bool {
        if case .wait = command { return true }
        return false
    }

    /// Whether `command` starts the game over: `replay`, or the end screen's gestures and button.
    private func erasesProgress(_ command: Command) -> Bool {
        let screen = renderer.context.screen
        switch command {
        case .game(.replay): return true
        case .game(.magicTap): return screen?.magicTap?.action == .replay
        case .game(.escape): return screen?.escape?.action == .replay
        case .game(.activate(let element)):
            // The end screen's button starts over (the engine's `replay` element).
            return screen?.kind == .end && (element ?? renderer.context.focusedElement?.id) == "replay"
        default: return false
        }
    }

    /// `requests` (numbered), after a `snapshot` kept as ``beforeReplay`` when they start the game over, so
    /// that the game before it can be brought back; in a shared game, as they are.
    private mutating func keepingTheGame(before requests: [Request]) -> [Request] {
        guard savePlace != .server, let replay = requests.first(where: { erasesProgress($0.command) })?.id else {
            return requests
        }
        let snapshot = number(Request(command: .snapshot))
        if let id = snapshot.id {
            slotSaves[id] = Self.beforeReplay
            replayKeeps[id] = replay
        }
        return [snapshot] + requests
    }

    /// Keeps `blob` as the named save `name`, in a file beside the save or in memory.
    ///
    /// - Parameters:
    ///   - blob: The snapshot.
    ///   - name: The save's name.
    ///   - replay: The replay it was taken before, if any: said once the replay is done.
    /// - Returns: What to say now.
    private mutating func keepSlot(_ blob: String, as name: String, before replay: RequestID?) -> [ConsoleLine] {
        let words = renderer.context.words
        let kept: String
        switch savePlace {
        case .server:
            // Never asked for: a shared game keeps no named save.
            return []
        case .nowhere:
            slotsKept += 1
            memorySlots[name] = (blob, slotsKept)
            kept = words(.slotKeptInMemory, ["name": name])
        case .file(let save):
            let slots = SaveSlots.beside(save: save)
            do {
                try slots.keep(blob, as: name)
                kept = words(.slotKept, ["name": name, "path": slots.path(of: name)])
            } catch {
                let reason = placeProblem(error)
                if replay != nil {
                    return [ConsoleLine(words(.notKeptBeforeReplay, ["reason": reason]), style: .error)]
                }
                return [ConsoleLine(words(.slotNotKept, ["name": name, "reason": reason]), style: .error)]
            }
        }
        guard let replay else { return [ConsoleLine(kept)] }
        afterwords[replay] = words(.keptBeforeReplay, ["name": name])
        return []
    }

    /// Why the folder of the named saves or one of them cannot be used.
    private func placeProblem(_ failure: SaveSlots.Failure) -> String {
        let words = renderer.context.words
        return switch failure {
        case .notYours(let path): words(.slotPlaceNotYours, ["path": path])
        case .system(let path, let reason): words(.slotPlaceFailed, ["path": path, "error": reason])
        case .missing, .tooLarge, .damaged: words(.slotPlaceFailed, ["path": savePlaceFolder, "error": "\(failure)"])
        }
    }

    /// The folder of the named saves, as said in a message.
    private var savePlaceFolder: String {
        if case .file(let save) = savePlace { return SaveSlots.beside(save: save).folder }
        return ""
    }

    /// `restore` alone: the named saves, newest first, and that progress comes back by itself.
    private func slotList() -> [ConsoleLine] {
        let words = renderer.context.words
        let names: [String]
        switch savePlace {
        case .server: return [ConsoleLine(words(.slotsShared))]
        case .nowhere: names = memorySlots.sorted { $0.value.order > $1.value.order }.map(\.key)
        case .file(let save): names = SaveSlots.beside(save: save).names()
        }
        let list = names.isEmpty ? words(.noSlots) : words(.slotsListed, ["list": names.joined(separator: ", ")])
        return [ConsoleLine(list), ConsoleLine(words(.restoreHow))]
    }

    /// `restore NAME`: the named save read, then brought back and the screen redrawn; a save that cannot be
    /// read gets one line and the game goes on untouched.
    private mutating func restoreSlot(_ name: String) -> Interpretation {
        let words = renderer.context.words
        let blob: String
        switch savePlace {
        case .server:
            return .lines([ConsoleLine(words(.slotsShared))])
        case .nowhere:
            guard let slot = memorySlots[name] else {
                return .lines([ConsoleLine(words(.slotMissing, ["name": name]))])
            }
            blob = slot.blob
        case .file(let save):
            do {
                blob = try SaveSlots.beside(save: save).blob(name)
            } catch {
                let line: String =
                    switch error {
                    case .missing: words(.slotMissing, ["name": name])
                    case .tooLarge: words(.slotTooLarge, ["name": name, "most": words(.slotSizeLimit)])
                    case .damaged: words(.slotDamaged, ["name": name])
                    case .notYours, .system: words(.slotUnreadable, ["name": name, "reason": placeProblem(error)])
                    }
                return .lines([ConsoleLine(line, style: error == .missing ? .plain : .error)])
            }
        }
        // The moves taken back by `undo` belong to the game being left.
        undoPoints = []
        let restore = number(Request(command: .restore(blob: blob)))
        let redraw = number(Request(command: .state))
        if let id = restore.id { slotRestores[id] = (name, redraw.id) }
        if let id = redraw.id { slotRedraws[id] = name }
        return .submit(.requests([restore, redraw]))
    }

    /// The id of the snapshot to take before `requests` when they make a gesture on a level, so that
    /// `undo` can take it back: kept as a value by a game in this process, sent as a blob by a served one.
    private mutating func undoPoint(before requests: [Request], typed: String) -> RequestID? {
        guard let screen = renderer.context.screen, screen.kind == .level,
            requests.contains(where: { Self.isGesture($0.command) })
        else { return nil }
        undoPoints.removeAll { $0.screen != screen.id }
        let snapshot = number(Request(command: .snapshot))
        if let id = snapshot.id { snapshotsAsked[id] = (screen.id, typed) }
        return snapshot.id
    }

    /// Keeps a snapshot the game in this process took as a value before a gesture, for `undo`.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot.
    ///   - request: The id ``interpret(_:)`` gave it.
    package mutating func keep(_ snapshot: KeptSnapshot, for request: RequestID?) {
        guard let request, let asked = snapshotsAsked.removeValue(forKey: request) else { return }
        // No event answers it: it is settled now.
        commands[request] = nil
        keepUndoPoint((asked.screen, .kept(snapshot), asked.typed))
    }

    /// Keeps `point` as the newest undo point, the oldest let go beyond ``undoDepth``.
    private mutating func keepUndoPoint(_ point: (screen: String, point: UndoPoint, typed: String)) {
        undoPoints.append(point)
        if undoPoints.count > Self.undoDepth { undoPoints.removeFirst() }
    }

    /// Whether `command` changes a level's state (and so can be taken back).
    private static func isGesture(_ command: Command) -> Bool {
        guard case .game(let gesture) = command else { return false }
        switch gesture {
        case .activate, .input, .rotor, .rotorItem, .action, .adjust, .magicTap: return true
        default: return false
        }
    }

    /// Brings back the state before the last gesture on this level, and says where the focus is.
    private mutating func undo() -> Interpretation {
        guard let screen = renderer.context.screen, let point = undoPoints.last, point.screen == screen.id else {
            return .lines([ConsoleLine(renderer.context.words(.nothingToUndo))])
        }
        undoPoints.removeLast()
        switch point.point {
        case .kept(let snapshot):
            // Numbered as a `restore` whose blob the value stands for, so its answer is rendered as one.
            let restore = number(Request(command: .restore(blob: "")))
            let redraw = undoRedraw(typed: point.typed)
            return .submit(.restoring(snapshot, as: restore.id, then: [redraw]))
        case .blob(let blob):
            let restore = number(Request(command: .restore(blob: blob)))
            let redraw = undoRedraw(typed: point.typed)
            return .submit(.requests([restore, redraw]))
        }
    }

    /// The `state` request that redraws after an undo, which says it took back `typed`.
    private mutating func undoRedraw(typed: String) -> Request {
        let redraw = number(Request(command: .state))
        if let id = redraw.id {
            undoRedraws.insert(id)
            undoneLines[id] = typed
        }
        return redraw
    }

    /// Gives `request` the next id and remembers its command, to render its answer with it.
    private mutating func number(_ request: Request) -> Request {
        requestNumber += 1
        var numbered = request
        numbered.id = .int(requestNumber)
        commands[.int(requestNumber)] = request.command
        return numbered
    }

    /// Renders the session's events: each request's answer with its command, unasked news as such.
    ///
    /// - Parameter events: The events, in order.
    /// - Returns: The lines to write.
    package mutating func render(_ events: [StampedEvent]) -> [ConsoleLine] {
        var lines: [ConsoleLine] = []
        var start = events.startIndex
        while start < events.endIndex {
            let replyTo = events[start].replyTo
            let end = events[start...].firstIndex { $0.replyTo != replyTo } ?? events.endIndex
            let command = replyTo.flatMap { commands[$0] }
            let group = Array(events[start..<end])
            if let replyTo, let asked = snapshotsAsked[replyTo] {
                for case .snapshot(let blob) in group.map(\.event) {
                    keepUndoPoint((asked.screen, .blob(blob), asked.typed))
                }
            }
            if let replyTo, let name = slotSaves[replyTo] {
                lines += renderer.render(group, answering: command)
                for case .snapshot(let blob) in group.map(\.event) {
                    lines += keepSlot(blob, as: name, before: replayKeeps[replyTo])
                }
            } else if let replyTo, let restore = slotRestores[replyTo] {
                // A refused save: one line, and the `state` after it is never answered.
                _ = renderer.render(group, answering: command)
                for case .error(let error) in group.map(\.event) {
                    let words = renderer.context.words
                    let said = words(.slotRefused, ["name": restore.name, "reason": error.message])
                    lines.append(ConsoleLine(said, style: .error))
                    if let redraw = restore.redraw {
                        slotRedraws[redraw] = nil
                        commands[redraw] = nil
                    }
                }
            } else if let replyTo, let name = slotRedraws[replyTo] {
                // The screen the save was kept on, said in full, after the news that it is back.
                let drawn = renderer.render(group, answering: .state)
                let words = renderer.context.words
                let isFile = if case .file = savePlace { true } else { false }
                lines += [ConsoleLine(words(isFile ? .slotRestored : .slotRestoredInMemory, ["name": name]))] + drawn
            } else if let replyTo, arrivalAsks.contains(replyTo) {
                _ = renderer.render(group, answering: nil)
                if let timer = Self.timer(in: group), !timer.paused {
                    let time = renderer.context.words.duration(milliseconds: timer.remainingMs)
                    lines.append(ConsoleLine(renderer.context.words(.timedRoom, ["time": time])))
                }
            } else if let replyTo, timeAsks.contains(replyTo) {
                // The screen has not changed: only the time left is said.
                _ = renderer.render(group, answering: nil)
                if !group.contains(where: { if case .error = $0.event { true } else { false } }) {
                    lines.append(ConsoleLine(timeLeft(in: group)))
                }
            } else if let replyTo, cancels.contains(replyTo) {
                // The wait it ended says so; a wait that had ended by itself needs no refusal.
                _ = renderer.render(group, answering: nil)
            } else if let replyTo, waitsCutShort.contains(replyTo) {
                let said = renderer.render(group, answering: command)
                let stopped = ConsoleLine(renderer.context.words(.waitStopped))
                lines += said == [ConsoleLine(renderer.context.words(.timePasses))] ? [stopped] : said + [stopped]
            } else if let replyTo, undoRedraws.contains(replyTo) {
                // After an undo the screen is the one the player knows: say that it worked and where the focus is.
                _ = renderer.render(group, answering: nil)
                let words = renderer.context.words
                let typed = undoneLines[replyTo].map { String($0.trimmingPrefix(" ").prefix(60)) } ?? ""
                let said = typed.isEmpty ? words(.undone) : words(.undoneWhat, ["command": typed])
                lines += [ConsoleLine(said)] + renderer.focusLines()
            } else if let replyTo, quietSteps.contains(replyTo) {
                // One step of many: what only moved the wheel waits for the last step.
                let said = renderer.render(group, answering: command)
                if group.contains(where: Self.changesMoreThanAWheel) {
                    lines += said.filter { turnSaid.insert($0.text).inserted }
                }
            } else if let replyTo, turnEnds.contains(replyTo) {
                let said = renderer.render(group, answering: command)
                if group.contains(where: Self.changesMoreThanAWheel) {
                    lines += said.filter { !turnSaid.contains($0.text) }
                } else if let wheel = renderer.context.focusedElement, let value = wheel.value, !value.isEmpty {
                    let words = renderer.context.words
                    lines.append(ConsoleLine(words(.turnedTo, ["name": wheel.label, "value": value])))
                }
                turnSaid = []
            } else {
                let said = renderer.render(group, answering: command)
                if command == .game(.repeatAnnouncement) {
                    // `again` after a wrong answer keeps its verdict, not only the story's words.
                    if let lastVerdict, !said.isEmpty, !said.contains(lastVerdict) { lines.append(lastVerdict) }
                } else if !said.isEmpty {
                    lastVerdict = said.first { $0.style == .wrong || $0.style == .correct }
                }
                if command == nil || command.map(Self.isWait) == true {
                    // Time passing: a notice, which `again` passes over.
                    if !said.isEmpty { noticeSinceAnswer = true }
                } else if command != .game(.repeatAnnouncement), !said.isEmpty {
                    lastAnswer = lastVerdict.map { verdict in Array(said.drop { $0 != verdict }) } ?? []
                    noticeSinceAnswer = false
                }
                lines += said
            }
            if let replyTo, let said = afterwords[replyTo], group.contains(where: { $0.event == .done }) {
                lines.append(ConsoleLine(said))
                afterwords[replyTo] = nil
            }
            if let replyTo, group.contains(where: { $0.event == .done }) {
                commands[replyTo] = nil
                snapshotsAsked[replyTo] = nil
                slotSaves[replyTo] = nil
                replayKeeps[replyTo] = nil
                slotRestores[replyTo] = nil
                slotRedraws[replyTo] = nil
                undoRedraws.remove(replyTo)
                undoneLines[replyTo] = nil
                timeAsks.remove(replyTo)
                arrivalAsks.remove(replyTo)
                waitsCutShort.remove(replyTo)
                cancels.remove(replyTo)
                quietSteps.remove(replyTo)
                turnEnds.remove(replyTo)
                if pendingWait == replyTo { pendingWait = nil }
            }
            start = end
        }
        keep(lines)
        return lines
    }

    /// Carries out one typed line on `host` at once, for programs and tests that drive a console
    /// without the event loop.
    ///
    /// - Parameters:
    ///   - line: The line, without its terminator.
    ///   - host: The game.
    /// - Returns: The lines to write in answer.
    package mutating func enter(_ line: String, on host: SessionHost) -> [ConsoleLine] {
        switch interpret(line) {
        case .submit(let input): carryOut(input, on: host)
        case .lines(let lines): lines
        }
    }

    /// Hands `input` to `host` at once and renders its answer, keeping the snapshots it takes for `undo`.
    ///
    /// - Parameters:
    ///   - input: What ``interpret(_:)`` gave.
    ///   - host: The game.
    /// - Returns: The lines to write in answer.
    package mutating func carryOut(_ input: SessionInput, on host: SessionHost) -> [ConsoleLine] {
        var kept: [(KeptSnapshot, RequestID?)] = []
        host.keepSnapshot = { kept.append(($0, $1)) }
        let events = host.handle(input)
        host.keepSnapshot = nil
        for (snapshot, request) in kept { keep(snapshot, for: request) }
        return render(events)
    }
}
