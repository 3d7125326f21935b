// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
import EscapeJSON
package import EscapeProtocol
package import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The browser front end, on the game loop's side: the tabs' commands in, the game's events out.
///
/// The page speaks the pipe's protocol (version 1.3) over its WebSocket, one command per message; the
/// events of each turn of the loop reach every tab that plays or watches as one message of NDJSON
/// lines, so the page sees a whole reply at once and says only what changed. Messages of the page's
/// own (`web.takeOver`, `web.watch`) and of the server's (`web.role`) have types starting with `web.`.
///
/// One tab controls the game. The first tab to connect while nobody controls it does; a later one is
/// offered the choice (`web.role` `choice`): take over (the controlling tab then watches, and is told)
/// or watch. A tab that reloads (the same `client` name) takes its own place back without asking.
/// Each tab that starts playing or watching is caught up: the engine's `hello`, what the opening said
/// (a locked save; "welcome back" while the game has not moved on), then the whole state, asked with
/// `state` for that tab alone.
///
/// Who controls the game, what each tab may send and where each answer goes are a ``SharedGame``'s
/// rules, the same as `efb serve`'s: answers are routed by ``Origin``, never by id, so a tab's own
/// ids, whatever they are, only ever come back to the tab that asked; the game's events its commands
/// cause go to every tab that plays or watches. What is the web's own: a tab takes over rather than
/// waits for control to come free, a new tab chooses before it watches, and the page never ends the
/// game, changes the session or travels in time (``allows(_:)``).
///
/// Standard input is watched: when it ends, so does the game (`ended` `eof`), as with `efb pipe`.
///
/// It is not thread-safe; the ``EventLoop`` alone calls it. The server reaches it through the
/// ``WebBridge``.
package final class WebFrontEnd: FrontEnd {
    /// What a tab does in the game.
    package enum Role: String, Sendable, Hashable {
        /// Plays: its commands go to the game.
        case controller
        /// Follows the game; may take over.
        case observer
        /// Has not chosen yet between taking over and watching.
        case choice
    }

    private final class Tab {
        let client: String
        let outbox: WebBridge.Outbox
        var pending: [UInt8] = []

        init(client: String, outbox: WebBridge.Outbox) {
            self.client = client
            self.outbox = outbox
        }
    }

    private let bridge: WebBridge
    private var input: Int32?
    private let keys: [Gesture: String]
    private var tabs: [Int: Tab] = [:]
    /// Who controls the game, who follows it, and where the answers to each tab's requests go.
    private var game = SharedGame()
    /// The engine's latest `hello`, given to every tab that starts following.
    private var hello: StampedEvent?
    private var opened = false
    /// The game's generation, as its latest event said.
    private var generation = 0
    private var words = EngineWords.english
    private var sessionWords: SessionWords { SessionWords(words.language) }
    /// The `bye` was shown: the game is over.
    package private(set) var saidBye = false

    /// The id of the front end's own `hello` (the tabs see it on the engine's `hello` they are given).
    static let helloID = RequestID.string("web-hello")

    /// Creates a front end.
    ///
    /// - Parameters:
    ///   - bridge: Where the server's tabs arrive.
    ///   - input: A descriptor whose end ends the game (standard input), or `nil`.
    ///   - keys: The page's key names by gesture, shown on the chapter pages (``ClientHello/keys``).
    package init(bridge: WebBridge, input: Int32? = 0, keys: [Gesture: String] = [:]) {
        self.bridge = bridge
        self.input = input
        self.keys = keys
    }

    /// The bridge's self-pipe and standard input, until it ends.
    package var descriptors: [Int32] { [bridge.descriptor] + (input.map { [$0] } ?? []) }

    /// Never: tabs come and go, the game goes on.
    package var isClosed: Bool { false }

    /// How many tabs are connected, and which plays (for tests and the log).
    package var tabCount: Int { tabs.count }

    /// The role of a tab, if it is connected.
    package func role(of tab: Int) -> Role? {
        switch game.role(of: tab) {
        case .controller?: .controller
        case .observer?: game.follows(tab) ? .observer : .choice
        case nil: nil
        }
    }

    /// Protocol 1.3 (a dial's place among its values, and its first and last values), and the page's key
    /// names for the chapter pages.
    package func opening() -> [SessionInput] {
        let hello = ClientHello(client: "efb web", acceptedVersions: .versions([.v1_3]), keys: keys)
        return [
            .request(Request(id: Self.helloID, command: .hello(hello), origin: SharedGame.Purpose.frontEnd.origin(0)))
        ]
    }

    // MARK: - Input

    /// Reads standard input (only to notice its end) and takes what the tabs did.
    package func service(readable: Set<Int32>, now: Int64, submit: (SessionInput) -> Void) {
        if let descriptor = input, readable.contains(descriptor) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
                input = nil
                submit(.endOfInput)
            }
        }
        guard readable.contains(bridge.descriptor) else { return }
        for arrival in bridge.take() {
            switch arrival {
            case .opened(let number, let client, let outbox):
                open(number, client: client, outbox: outbox, submit: submit)
            case .message(let number, let text):
                receive(text, from: number, submit: submit)
            case .closed(let number):
                leave(number)
            }
        }
    }

    private func open(_ number: Int, client: String, outbox: WebBridge.Outbox, submit: (SessionInput) -> Void) {
        let tab = Tab(client: client, outbox: outbox)
        tabs[number] = tab
        if saidBye {
            if let hello { append(hello, to: tab) }
            append(line: webLine(["type": .string("web.ended")]), to: tab)
            return
        }
        if let current = game.controllingMember, tabs[current]?.client == client {
            // The controlling tab reloaded: its new page takes its place, the old socket goes.
            leave(current)
        }
        // Joining while nobody plays, it plays; otherwise it chooses between taking over and watching.
        apply(game.join(number, follows: false), submit: submit)
    }

    private func receive(_ text: String, from number: Int, submit: (SessionInput) -> Void) {
        guard tabs[number] != nil, !saidBye else { return }
        let bytes = Array(text.utf8)
        // Decoded once; the page's own messages (`web.…`) are no command, so only a line the decoder
        // refuses is read again, for its type.
        let outcome = CommandDecoder.decode(bytes)
        if case .failure(let failure, _) = outcome, failure.code == .unknownCommand,
            case .object(let object)? = try? JSONReader.read(bytes), case .string(let type)? = object["type"],
            type.hasPrefix("web.")
        {
            switch type {
            case "web.takeOver": apply(game.takeOver(number), submit: submit)
            case "web.watch": apply(game.release(number), submit: submit)
            default: break
            }
            return
        }
        switch outcome {
        case .blank:
            break
        case .failure(let failure, let replyTo):
            guard game.role(of: number) == .controller else {
                // A watching tab's bad line is answered at once, as efb serve answers an observer's.
                refuse(ProtocolError(failure, in: words), to: number, id: replyTo)
                return
            }
            submit(.decoded(outcome, length: bytes.count, from: SharedGame.Purpose.question.origin(number)))
        case .request(var request):
            let action = game.command(request.command, from: number)
            request.command = request.command.inSharedGame  // (tabs come, go and take over)
            switch action {
            case .refuse(let refusal):
                refuse(refusal.error(in: sessionWords), to: number, id: request.id)
            case .play(let purpose) where Self.allows(request.command):
                request.origin = purpose.origin(number)
                submit(.request(request))
            case .ask where Self.allows(request.command):
                request.origin = SharedGame.Purpose.question.origin(number)
                submit(.question(request))
            case .play, .ask, .leave:
                // A tab leaves by closing; the page never ends the game.
                refuse(SharedGame.Refusal.notTaken.error(in: sessionWords), to: number, id: request.id)
            }
        }
    }

    /// The page plays and asks; it never ends the game, changes the session or travels in time.
    static func allows(_ command: Command) -> Bool {
        switch command {
        case .game, .onElement, .state, .ping, .validActions: true
        case .hello, .wait, .quit, .observe, .snapshot, .restore, .batch, .cancel: false
        }
    }

    /// Answers a tab alone, as the engine would: an `error` then `done`, with the command's id.
    private func refuse(_ error: ProtocolError, to number: Int, id replyTo: RequestID?) {
        guard let tab = tabs[number] else { return }
        for event in [Event.error(error), .done] {
            append(StampedEvent(seq: 0, replyTo: replyTo, generation: 0, event: event, protocolMinor: 1), to: tab)
        }
    }

    /// Tells each tab its new part, and catches up a tab that starts following the game: the engine's
    /// `hello`, what the opening said, then the whole state, asked for that tab alone.
    private func apply(_ change: SharedGame.Change, submit: (SessionInput) -> Void) {
        tell(change.notices)
        guard let number = change.startsFollowing, let tab = tabs[number] else { return }
        if let hello { append(hello, to: tab) }
        let minor = hello?.protocolMinor ?? 0
        for note in game.opening(at: generation) {
            append(
                StampedEvent(seq: 0, replyTo: nil, generation: generation, event: note, protocolMinor: minor),
                to: tab
            )
        }
        // The id tells the page (and a reader of its traffic) what the answer is, the same for every tab;
        // the origin alone routes it.
        let join = Request(
            id: .string("web-join"),
            command: .state,
            origin: SharedGame.Purpose.catchUp.origin(number)
        )
        submit(.request(join))
    }

    private func leave(_ number: Int) {
        guard let tab = tabs.removeValue(forKey: number) else { return }
        tab.outbox.finish()
        tell(game.leave(number).notices)
    }

    /// Tells each tab of `notices` its part (`web.role`): `choice` while it has not chosen, and
    /// `takenOver` when another tab took control from it.
    private func tell(_ notices: [SharedGame.RoleNotice]) {
        for notice in notices {
            guard let tab = tabs[notice.member] else { continue }
            let role: Role =
                switch notice.role {
                case .controller: .controller
                case .observer: game.follows(notice.member) ? .observer : .choice
                }
            var fields: [String: JSONValue] = [
                "type": .string("web.role"),
                "role": .string(role.rawValue),
                "controlFree": .bool(notice.controlFree),
            ]
            switch notice.cause {
            case .takenOver: fields["reason"] = .string("takenOver")
            case .joined, .asked, .controlChanged: break
            }
            append(line: webLine(fields), to: tab)
        }
    }

    private func webLine(_ fields: [String: JSONValue]) -> [UInt8] {
        var line: [UInt8] = []
        JSONWriter.write(.object(fields), into: &line)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    // MARK: - Output

    /// Sends each event to the tabs that play or watch, or to the one tab that asked for it.
    package func show(_ events: [StampedEvent], now: Int64) {
        for event in events {
            generation = event.generation
            if case .hello(let serverHello) = event.event {
                hello = StampedEvent(
                    seq: event.seq,
                    replyTo: nil,
                    generation: event.generation,
                    event: event.event,
                    protocolMinor: event.protocolMinor
                )
                words = EngineWords(locale: serverHello.locale)
            }
            if case .bye = event.event { saidBye = true }
            switch game.deliver(event.event, answering: event.origin) {
            case .nowhere, .caughtUp, .farewell:
                // The front end's own hello (kept above), and the end of a catch-up, which the page needs not.
                break
            case .asker(let number), .restored(let number):
                if let tab = tabs[number] { append(event, to: tab) }
            case .askerAndFollowers(let number):
                // Every tab gets the same lines, the asker's id included: the page shows them alike.
                if let tab = tabs[number] { append(event, to: tab) }
                for other in game.followers where other != number { tabs[other].map { append(event, to: $0) } }
            case .followers:
                guard opened else {
                    game.rememberOpening(event.event, generation: event.generation)
                    continue
                }
                for number in game.followers { tabs[number].map { append(event, to: $0) } }
            }
        }
    }

    private func append(_ event: StampedEvent, to tab: Tab) {
        EventEncoder.encode(event, into: &tab.pending)
    }

    private func append(line: [UInt8], to tab: Tab) {
        tab.pending += line
    }

    /// Hands each tab what was shown to it since the last flush, as one message.
    package func flush(now: Int64) {
        opened = true
        for number in tabs.keys.sorted() {
            guard let tab = tabs[number], !tab.pending.isEmpty else { continue }
            let text = String(decoding: tab.pending, as: UTF8.self)
            tab.pending.removeAll()
            if !tab.outbox.send(text) {
                // It let too much pile up: it goes, and its page reconnects and is caught up afresh.
                leave(number)
            }
        }
    }

    /// Ends every tab's stream once what was queued is written (the game is over or the server stops).
    package func closeAll() {
        for number in tabs.keys.sorted() { leave(number) }
    }
}
