// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``RemoteHost`` against a fake `efb serve`: the test reads what the host sends and writes the events.
struct RemoteHostTests {
    /// The host, the server's end of the connection, and what the host logged.
    private final class Connection {
        let host: RemoteHost
        let server: Int32
        let logged = Locked<[String]>([])
        private var framer = LineFramer()
        private var seq = 0

        init(started: Bool = true) {
            var ends: [Int32] = [0, 0]
            precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            server = ends[1]
            let logged = logged
            host = RemoteHost(descriptor: ends[0], clock: VirtualClock()) { line in logged.withLock { $0.append(line) }
            }
            if started { _ = host.handle(.start) }
        }

        deinit { close(server) }

        /// What the host wrote, as requests, once it flushed.
        func sent() throws -> [Request] {
            host.flush()
            var requests: [Request] = []
            var entry = pollfd(fd: server, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, 0) > 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let count = buffer.withUnsafeMutableBytes { read(server, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                for case .line(let line) in framer.feed(buffer[..<count]) {
                    guard case .request(let request) = CommandDecoder.decode(line) else {
                        throw TestFailure("not a request: \(String(decoding: line, as: UTF8.self))")
                    }
                    requests.append(request)
                }
            }
            return requests
        }

        /// Sends events to the host as the server would, and returns what the host hands the front end.
        func answer(_ events: [(Event, RequestID?)]) throws -> [StampedEvent] {
            var bytes: [UInt8] = []
            for (event, replyTo) in events {
                seq += 1
                let stamped = StampedEvent(seq: seq, replyTo: replyTo, generation: 0, event: event, protocolMinor: 1)
                EventEncoder.encode(stamped, into: &bytes)
            }
            return try write(bytes)
        }

        /// Writes raw bytes to the host and returns what it hands the front end.
        func write(_ bytes: [UInt8]) throws -> [StampedEvent] {
            if !bytes.isEmpty {
                _ = bytes.withUnsafeBytes { Glibc.write(server, $0.baseAddress, $0.count) }
            }
            var entry = pollfd(fd: host.descriptors.first ?? -1, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 5000) > 0 else { throw TestFailure("nothing arrived") }
            return host.service(readable: Set(host.descriptors))
        }
    }

    private static let next = Request(id: .int(7), command: .game(.next))

    @Test func requestsGoUnderIdsOfItsOwnAndAnswersComeBackUnderTheFrontEndsIds() throws {
        let connection = Connection()
        _ = connection.host.handle(.request(Self.next))
        _ = connection.host.handle(.request(Request(command: .ping)))
        let sent = try connection.sent()
        #expect(sent.map(\.command) == [.game(.next), .ping])
        #expect(sent.map(\.id) == [.int(1), .int(2)])
        let shown = try connection.answer([
            (.done, .int(1)), (.done, .int(2)), (.game(.sound(.boundary)), nil),
        ])
        #expect(shown.map(\.replyTo) == [.int(7), nil, nil])
        #expect(shown.map(\.event) == [.done, .done, .game(.sound(.boundary))])
    }

    @Test func beforeTheFrontEndIsReadyOnlyWhatConcernsItIsKeptThenTheWholeStateIsAskedFor() throws {
        let connection = Connection(started: false)
        let heading = Element(id: "title", label: "Darkness", traits: [.header])
        let focus = Event.game(.focus(FocusState(screen: "intro-1", element: heading, index: 1, count: 3)))
        let early = try connection.answer([
            (.role(.observer, controlFree: false), nil), (focus, nil), (.idle, nil),
        ])
        #expect(early.isEmpty, "nothing reaches a front end that is not ready")
        #expect(connection.host.handle(.start).map(\.event) == [.role(.observer, controlFree: false)])
        let asked = try connection.sent()
        #expect(asked.map(\.command) == [.state])
        // What the game says before the state is answered is part of it.
        let shown = try connection.answer([
            (.game(.sound(.boundary)), nil), (focus, asked[0].id), (.done, asked[0].id), (.idle, nil),
        ])
        #expect(shown.map(\.event) == [focus, .idle])
        #expect(shown.allSatisfy { $0.replyTo == nil })
    }

    @Test func aFramedLineIsSentAsTheRequestItIsAndABadOneIsAnsweredAtOnce() throws {
        let connection = Connection()
        _ = connection.host.handle(.frame(.line(Array(#"{"type":"next","id":"n"}"#.utf8))))
        _ = connection.host.handle(.frame(.line(Array("  ".utf8))))
        #expect(try connection.sent() == [Request(id: .int(1), command: .game(.next))])
        #expect(try connection.answer([(.done, .int(1))]).map(\.replyTo) == [.string("n")])
        let refused = connection.host.handle(.frame(.line(Array(#"{"type":"warp","id":1}"#.utf8))))
        #expect(refused.map(\.replyTo) == [.int(1), .int(1)])
        guard case .error(let error) = refused.first?.event else { throw TestFailure("\(refused)") }
        #expect(error.code == .unknownCommand)
        #expect(refused.last?.event == .done)
        #expect(try connection.sent().isEmpty)
    }

    @Test func aHelloAsksForProtocol11() throws {
        let connection = Connection()
        let hello = ClientHello(client: "efb braille", acceptedVersions: .versions([.v1_0]), keys: [.next: "LNDN"])
        _ = connection.host.handle(.request(Request(id: .int(1), command: .hello(hello))))
        let sent = try connection.sent()
        guard case .hello(let wire)? = sent.first?.command else { throw TestFailure("no hello: \(sent)") }
        #expect(wire.acceptedVersions == .versions([.v1_1]))
        #expect(wire.keys == [.next: "LNDN"])
    }

    @Test func aChainGoesOneRequestAtATimeAndStopsAtTheFirstRefused() throws {
        let connection = Connection()
        let chain = [Request(id: .int(1), command: .game(.focus(element: "a"))), Self.next]
        _ = connection.host.handle(.requests(chain))
        #expect(try connection.sent().map(\.command) == [.game(.focus(element: "a"))])
        let refusal = ProtocolError(.notNow, "no")
        let shown = try connection.answer([(.error(refusal), .int(1)), (.done, .int(1))])
        #expect(shown.map(\.event) == [.error(refusal), .done])
        #expect(try connection.sent().isEmpty)

        _ = connection.host.handle(.requests(chain))
        #expect(try connection.sent().map(\.command) == [.game(.focus(element: "a"))])
        _ = try connection.answer([(.done, .int(2))])
        #expect(try connection.sent().map(\.command) == [.game(.next)])
    }

    @Test func anObserversGestureTakesControlWhenItIsFree() throws {
        let connection = Connection()
        let hello = ClientHello(client: "efb braille", acceptedVersions: .versions([.v1_1]), keys: [.next: "LNDN"])
        _ = connection.host.handle(.request(Request(id: .int(1), command: .hello(hello))))
        _ = try connection.sent()
        _ = try connection.answer([(.role(.observer, controlFree: true), nil), (.done, .int(1))])
        #expect(!connection.host.isController)
        _ = connection.host.handle(.request(Self.next))
        let sent = try connection.sent()
        guard sent.count == 2, case .hello(let asked) = sent[0].command else { throw TestFailure("\(sent)") }
        #expect(asked.role == .controller)
        #expect(asked.keys == [.next: "LNDN"])
        #expect(sent[1].command == .game(.next))
        // The answer to the host's own hello is not the front end's business; the role is.
        let shown = try connection.answer([(.role(.controller, controlFree: false), nil), (.done, sent[0].id)])
        #expect(shown.map(\.event) == [.role(.controller, controlFree: false)])
        #expect(connection.host.isController)
    }

    @Test func aGestureRefusedAsReadOnlyIsSentAgainWhenControlCameFreeMeanwhile() throws {
        let connection = Connection()
        _ = try connection.answer([(.role(.observer, controlFree: false), nil)])
        _ = connection.host.handle(.request(Self.next))
        let first = try connection.sent()
        #expect(first.map(\.command) == [.game(.next)])
        let readOnly = ProtocolError(.readOnly, "observer")
        let shown = try connection.answer([
            (.role(.observer, controlFree: true), nil), (.error(readOnly), first[0].id), (.done, first[0].id),
        ])
        #expect(shown.map(\.event) == [.role(.observer, controlFree: true)])
        let again = try connection.sent()
        #expect(again.count == 2)
        #expect(again.last?.command == .game(.next))
        let answered = try connection.answer([(.done, again.last?.id)])
        #expect(answered.map(\.replyTo) == [.int(7)])
    }

    @Test func aGestureRefusedWhileAnotherPlaysIsExplainedInTheGamesLanguage() throws {
        let connection = Connection()
        let hello = ServerHello(
            protocolVersion: 1,
            version: .v1_1,
            versions: [.v1_0, .v1_1],
            engineVersion: "0.1.0",
            locale: "fr",
            adventureID: "escape-from-blindness",
            adventureTitle: "Évasion",
            capabilities: []
        )
        _ = try connection.answer([(.hello(hello), nil), (.role(.observer, controlFree: false), nil)])
        _ = connection.host.handle(.request(Self.next))
        let sent = try connection.sent()
        #expect(sent.map(\.command) == [.game(.next)])
        let refusal = ProtocolError(.readOnly, "you are following this game as an observer, so next is not yours")
        let shown = try connection.answer([(.error(refusal), sent[0].id), (.done, sent[0].id)])
        let explained = ProtocolError(.readOnly, SessionWords(.french)(.attachedReadOnly))
        #expect(shown.map(\.event) == [.error(explained), .done])
        #expect(shown.map(\.replyTo) == [.int(7), .int(7)])
    }

    @Test func anObserverNeverSaysItsDisplayWentAway() throws {
        let connection = Connection()
        _ = try connection.answer([(.role(.observer, controlFree: true), nil)])
        _ = connection.host.handle(.request(Request(command: .game(.assistive(active: false)))))
        #expect(try connection.sent().isEmpty)
    }

    @Test func theEndOfInputWaitsForTheAnswersThenLeaves() throws {
        let connection = Connection()
        _ = connection.host.handle(.request(Self.next))
        _ = connection.host.handle(.endOfInput)
        #expect(!connection.host.isFinished)
        #expect(try connection.sent().map(\.command) == [.game(.next)])
        let shown = try connection.answer([(.done, .int(1))])
        #expect(shown.map(\.replyTo) == [.int(7)])
        #expect(connection.host.ending == .detached)
        var byte: UInt8 = 0
        #expect(read(connection.server, &byte, 1) == 0, "the connection is closed")
    }

    @Test(arguments: [SessionInput.stop, .request(Request(command: .quit))])
    func aStopOrQuitLeavesAtOnceWithoutQuittingTheSharedGame(input: SessionInput) throws {
        let connection = Connection()
        _ = connection.host.handle(.request(Self.next))
        _ = connection.host.handle(input)
        #expect(connection.host.ending == .detached)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(connection.server, $0.baseAddress, $0.count) }
        let written = String(decoding: bytes[..<max(count, 0)], as: UTF8.self)
        #expect(written.contains(#""type":"next""#), "what was sent before still goes")
        #expect(!written.contains("quit"))
    }

    @Test func theServerClosingEndsTheHostAndSaysWhetherTheGameSaidBye() throws {
        let connection = Connection()
        _ = try connection.answer([(.ended(reason: .quit, cutShort: true), nil), (.bye, nil)])
        shutdown(connection.server, Int32(SHUT_WR))
        _ = try connection.write([])
        #expect(connection.host.ending == .closedByServer(saidBye: true))

        let other = Connection()
        shutdown(other.server, Int32(SHUT_WR))
        _ = try other.write([])
        #expect(other.host.ending == .closedByServer(saidBye: false))
    }

    @Test func aLineThatIsNotAnEventIsLoggedAndLeftOut() throws {
        let connection = Connection()
        let shown = try connection.write(Array("{\"type\":\"warp\",\"seq\":1}\n{\"type\":\"bye\",\"seq\":2}\n".utf8))
        #expect(shown.map(\.event) == [.bye])
        #expect(connection.logged.withLock { $0 }.first?.contains("\"warp\" names no event") == true)
    }
}
