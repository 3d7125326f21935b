// SPDX-License-Identifier: Apache-2.0
#if Web
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import EscapeWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import Synchronization
import Testing

/// The server's routes, guards and WebSocket, with the real game behind them on its own event loop.
@Suite(.timeLimit(.minutes(2)))
struct WebServerTests {
    static let token = "00112233445566778899aabbccddeeff"
    /// The server's limits with timeouts no test run reaches.
    ///
    /// The in-process client writes its request from Swift's cooperative pool, which the parallel suite
    /// can keep busy for minutes on two cores: a 5 s first-head limit closed the connection under it
    /// ("I/O on closed channel"). The timeouts are checked against the built program in
    /// Tests/Web/test_limits.py.
    static let patientLimits = WebLimits(
        connections: 64,
        headerTimeout: .seconds(3600),
        idleTimeout: .seconds(3600)
    )
    static let cookie = "efb-web-1=\(token)"

    /// A game on its own thread's event loop, as `efb web` runs it; it ends when `stop` is called.
    final class Game: Sendable {
        let bridge = WebBridge()
        private let input: Int32
        private let finished = DispatchSemaphore(value: 0)

        /// A game in `locale`, resumed from `save` when one is given.
        init(locale: String = "en", save: SaveData? = nil) throws {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw TestFailure("no pipe") }
            input = ends[1]
            let reading = ends[0]
            let adventure = try AdventureLoader.bundled(locale: locale)
            let bridge = bridge
            let finished = finished
            let thread = Thread {
                let host = SessionHost(
                    adventure: adventure,
                    options: EngineOptions(seed: 1),
                    store: InMemorySaveStore(save),
                    clock: VirtualClock()
                )
                let frontEnd = WebFrontEnd(bridge: bridge, input: reading)
                EventLoop(host: host, frontEnd: frontEnd).run()
                frontEnd.closeAll()
                close(reading)
                finished.signal()
            }
            thread.start()
        }

        /// Ends the game as the end of standard input does, and waits for its loop.
        func stop() {
            close(input)
            _ = finished.wait(timeout: .now() + 10)
        }

        func application(otherOrigins: Set<String> = []) -> some ApplicationProtocol {
            let configuration = WebServer.Configuration(
                host: "127.0.0.1",
                port: 0,
                guardian: WebGuard(token: WebServerTests.token, port: 1, otherOrigins: otherOrigins),
                locale: "en",
                soundFolder: nil,
                limits: WebServerTests.patientLimits
            )
            return WebServer.application(configuration: configuration, bridge: bridge, logger: Logger(label: "test"))
        }
    }

    @Test func everyRouteRefusesWithoutTheTokenAndNeverRedirects() async throws {
        let game = try Game()
        defer { game.stop() }
        try await game.application().test(.live) { client in
            for path in ["/", "/app.js", "/style.css", "/ws", "/sounds/cues/wrong.wav", "/nothing"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(path)")
                    #expect(response.headers[.location] == nil)
                }
                try await client.execute(uri: path + "?token=wrong", method: .get) { response in
                    #expect(response.status == .forbidden, "\(path)")
                }
                try await client.execute(uri: path, method: .get, headers: [.cookie: "efb-web-1=wrong"]) { response in
                    #expect(response.status == .forbidden, "\(path)")
                }
            }
        }
    }

    @Test func thePageComesWithTheTokenAndKeepsItInACookie() async throws {
        let game = try Game()
        defer { game.stop() }
        try await game.application().test(.live) { client in
            try await client.execute(uri: "/?token=\(Self.token)", method: .get) { response in
                #expect(response.status == .ok)
                let cookie = response.headers[.setCookie] ?? ""
                #expect(cookie.hasPrefix(Self.cookie))
                #expect(cookie.contains("HttpOnly"))
                let page = String(buffer: response.body)
                #expect(page.contains("<html lang=\"en\">"))
                #expect(page.contains("aria-live=\"polite\""))
                #expect(page.contains("aria-live=\"assertive\""))
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            }
            for (path, type) in [("/app.js", "text/javascript"), ("/style.css", "text/css")] {
                try await client.execute(uri: path, method: .get, headers: [.cookie: Self.cookie]) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true)
                    #expect(response.body.readableBytes > 1000)
                }
            }
            try await client.execute(uri: "/ws", method: .get, headers: [.cookie: Self.cookie]) { response in
                #expect(response.status == .forbidden)  // no Origin: not a page of ours
            }
        }
    }

    @Test func theSoundsAreServedByNameOnly() async throws {
        let game = try Game()
        defer { game.stop() }
        let folder = try temporaryFolder("web-sounds")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("cues"),
            withIntermediateDirectories: true
        )
        try Data("RIFF".utf8).write(to: folder.appendingPathComponent("cues/wrong.wav"))
        let configuration = WebServer.Configuration(
            host: "127.0.0.1",
            port: 0,
            guardian: WebGuard(token: Self.token, port: 1),
            locale: "fr",
            soundFolder: folder.path,
            limits: Self.patientLimits
        )
        let application = WebServer.application(
            configuration: configuration,
            bridge: game.bridge,
            logger: Logger(label: "test")
        )
        try await application.test(.live) { client in
            try await client.execute(uri: "/sounds/cues/wrong.wav", method: .get, headers: [.cookie: Self.cookie]) {
                #expect($0.status == .ok)
                #expect($0.headers[.contentType] == "audio/wav")
            }
            for path in ["/sounds/cues/..%2Fcues%2Fwrong.wav", "/sounds/other/wrong.wav", "/sounds/cues/wrong.txt"] {
                try await client.execute(uri: path, method: .get, headers: [.cookie: Self.cookie]) {
                    #expect($0.status == .notFound, "\(path)")
                }
            }
            try await client.execute(uri: "/", method: .get, headers: [.cookie: Self.cookie]) {
                #expect(String(buffer: $0.body).contains("<html lang=\"fr\">"))
            }
        }
    }

    @Test func aForeignOriginGetsNoWebSocket() async throws {
        let game = try Game()
        defer { game.stop() }
        try await game.application().test(.live) { client in
            // Hummingbird's client says Origin ws://localhost: not the page's own (http://localhost:PORT).
            let configuration = WebSocketClientConfiguration(additionalHeaders: [.cookie: Self.cookie])
            await #expect(throws: (any Error).self) {
                try await client.ws("/ws", configuration: configuration) { _, _, _ in }
            }
        }
    }

    @Test func theControllingTabPlaysAndASecondTabGetsTheChoice() async throws {
        let game = try Game()
        defer { game.stop() }
        let headers: HTTPFields = [.cookie: Self.cookie]
        try await game.application(otherOrigins: ["ws://localhost"]).test(.live) { client in
            let first = Tab()
            let second = Tab()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await first.run(client, headers: headers, name: "one") }
                var firstLines = first.lines.makeAsyncIterator()
                let role = try await Self.next(&firstLines) { $0.contains(#""type":"web.role""#) }
                #expect(role.contains(#""role":"controller""#))
                let screen = try await Self.next(&firstLines) { $0.contains(#""type":"screen""#) }
                #expect(screen.contains(#""screen":"intro-1""#))

                first.send(#"{"type":"next","id":1}"#)
                let focus = try await Self.next(&firstLines) {
                    $0.contains(#""type":"focus""#) && $0.contains(#""replyTo":1,"#)
                }
                #expect(focus.contains(#""replyTo":1"#))

                // The page may not end the game or change the session.
                first.send(#"{"type":"quit","id":"q"}"#)
                let refused = try await Self.next(&firstLines) { $0.contains(#""replyTo":"q""#) }
                #expect(refused.contains(#""type":"error""#))
                // Nor observe: what was said since the last observe is the session's, shared by every tab.
                first.send(#"{"type":"observe","id":"o"}"#)
                let notObserved = try await Self.next(&firstLines) { $0.contains(#""replyTo":"o""#) }
                #expect(notObserved.contains(#""code":"unknown_command""#))

                group.addTask { try await second.run(client, headers: headers, name: "two") }
                var secondLines = second.lines.makeAsyncIterator()
                let choice = try await Self.next(&secondLines) { $0.contains(#""type":"web.role""#) }
                #expect(choice.contains(#""role":"choice""#))

                // Still watching the choice, its commands are refused.
                second.send(#"{"type":"next","id":"x"}"#)
                let readOnly = try await Self.next(&secondLines) { $0.contains(#""replyTo":"x""#) }
                #expect(readOnly.contains("read_only"))

                second.send(#"{"type":"web.takeOver"}"#)
                let taken = try await Self.next(&secondLines) { $0.contains(#""type":"web.role""#) }
                #expect(taken.contains(#""role":"controller""#))
                let caughtUp = try await Self.next(&secondLines) {
                    $0.contains(#""type":"focus""#) && $0.contains(#""replyTo":"web-join""#)
                }
                #expect(caughtUp.contains(#""id":"text""#))  // where the first tab left it
                let told = try await Self.next(&firstLines) { $0.contains(#""type":"web.role""#) }
                #expect(told.contains(#""role":"observer""#))
                #expect(told.contains(#""reason":"takenOver""#))

                // The watching tab follows what the playing one does.
                second.send(#"{"type":"next","id":2}"#)
                let followed = try await Self.next(&firstLines) {
                    $0.contains(#""type":"focus""#) && $0.contains(#""replyTo":2,"#)
                }
                #expect(followed.contains(#""id":"continue""#))

                first.close()
                second.close()
                try await group.waitForAll()
            }
        }
    }

    @Test func validActionsWithIfChangedAlwaysAnswerATab() async throws {
        // Tabs come, go and take over, each having seen other events: before, the second question
        // got done alone, as if the tab had the list.
        let game = try Game()
        defer { game.stop() }
        let headers: HTTPFields = [.cookie: Self.cookie]
        try await game.application(otherOrigins: ["ws://localhost"]).test(.live) { client in
            let tab = Tab()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await tab.run(client, headers: headers, name: "one") }
                var lines = tab.lines.makeAsyncIterator()
                _ = try await Self.next(&lines) { $0.contains(#""type":"screen""#) }
                for id in 1...2 {
                    tab.send(#"{"type":"validActions","id":\#(id),"ifChanged":true}"#)
                    let answer = try await Self.next(&lines) { $0.contains(#""replyTo":\#(id),"#) }
                    #expect(answer.contains(#""type":"validActions""#))
                }
                tab.close()
                try await group.waitForAll()
            }
        }
    }

    @Test func aTabsOwnIdsNeverRouteItsAnswersElsewhere() async throws {
        // Before, the front end routed by id: a state asked as "web-join-2" went to tab 2 (a watcher),
        // its done was dropped, and the asking tab got nothing; "web-hello" lost all but game events.
        let game = try Game()
        defer { game.stop() }
        let headers: HTTPFields = [.cookie: Self.cookie]
        try await game.application(otherOrigins: ["ws://localhost"]).test(.live) { client in
            let first = Tab()
            let second = Tab()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await first.run(client, headers: headers, name: "one") }
                var firstLines = first.lines.makeAsyncIterator()
                _ = try await Self.next(&firstLines) { $0.contains(#""type":"screen""#) }
                group.addTask { try await second.run(client, headers: headers, name: "two") }
                var secondLines = second.lines.makeAsyncIterator()
                _ = try await Self.next(&secondLines) { $0.contains(#""role":"choice""#) }
                second.send(#"{"type":"web.watch"}"#)
                _ = try await Self.next(&secondLines) { $0.contains(#""type":"screen""#) }

                for id in ["web-join", "web-join-2", "web-hello", "web-join-1"] {
                    first.send(#"{"type":"state","id":"\#(id)"}"#)
                    first.send(#"{"type":"ping","id":"after-\#(id)"}"#)
                    var seen: [String] = []
                    while true {
                        let line = try await Self.next(&firstLines) {
                            $0.contains(#""replyTo":"\#(id)""#) || $0.contains(#""replyTo":"after-\#(id)""#)
                        }
                        if line.contains("after-") { break }
                        seen.append(line)
                    }
                    #expect(seen.contains { $0.contains(#""type":"screen""#) }, "the screen, asked as \(id)")
                    #expect(seen.last?.contains(#""type":"done""#) == true, "done, asked as \(id): \(seen)")
                }
                first.close()
                second.close()
                try await group.waitForAll()
            }
        }
    }

    @Test func everyWatchingTabIsToldTrulyWhoControls() async throws {
        // Before, the tab taken over was told that control was free, a watching tab was not told when
        // another took free control, and a tab that chose to watch was told its part twice.
        let game = try Game()
        defer { game.stop() }
        let headers: HTTPFields = [.cookie: Self.cookie]
        try await game.application(otherOrigins: ["ws://localhost"]).test(.live) { client in
            let first = Tab()
            let second = Tab()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await first.run(client, headers: headers, name: "one") }
                var firstLines = first.lines.makeAsyncIterator()
                _ = try await Self.next(&firstLines) { $0.contains(#""type":"screen""#) }
                group.addTask { try await second.run(client, headers: headers, name: "two") }
                var secondLines = second.lines.makeAsyncIterator()
                _ = try await Self.next(&secondLines) { $0.contains(#""role":"choice""#) }
                second.send(#"{"type":"web.watch"}"#)
                var roles: [String] = []
                while true {
                    let line = try await Self.next(&secondLines) {
                        $0.contains(#""type":"web.role""#) || $0.contains(#""type":"screen""#)
                    }
                    if line.contains(#""type":"screen""#) { break }
                    roles.append(line)
                }
                #expect(roles.count == 1, "\(roles)")

                second.send(#"{"type":"web.takeOver"}"#)
                let taken = try await Self.next(&firstLines) { $0.contains(#""type":"web.role""#) }
                #expect(taken.contains(#""reason":"takenOver""#))
                #expect(taken.contains(#""controlFree":false"#))
                _ = try await Self.next(&secondLines) { $0.contains(#""role":"controller""#) }

                second.send(#"{"type":"web.watch"}"#)
                let given = try await Self.next(&secondLines) { $0.contains(#""type":"web.role""#) }
                #expect(given.contains(#""role":"observer""#) && given.contains(#""controlFree":true"#))
                let freed = try await Self.next(&firstLines) { $0.contains(#""type":"web.role""#) }
                #expect(freed.contains(#""controlFree":true"#))
                first.send(#"{"type":"web.takeOver"}"#)
                _ = try await Self.next(&firstLines) { $0.contains(#""role":"controller""#) }
                // A watching tab's question is answered to it; what came before it says control is taken.
                second.send(#"{"type":"ping","id":"p"}"#)
                let seen = try await Self.lines(&secondLines) {
                    $0.contains(#""replyTo":"p""#) && $0.contains(#""type":"done""#)
                }
                #expect(
                    seen.contains { $0.contains(#""type":"web.role""#) && $0.contains(#""controlFree":false"#) },
                    "\(seen)"
                )
                let refused = seen.filter { $0.contains(#""type":"error""#) }
                #expect(refused.isEmpty, "\(seen)")
                first.close()
                second.close()
                try await group.waitForAll()
            }
        }
    }

    @Test func aTabsRepliesAreItsOwnAndItsRefusalsInTheGamesLanguage() async throws {
        // Before, the playing tab's error and done went to every watching tab, a watching tab's bad
        // line was refused as read_only ("it"), and the page's refused commands were told in English.
        let game = try Game(locale: "fr")
        defer { game.stop() }
        let headers: HTTPFields = [.cookie: Self.cookie]
        try await game.application(otherOrigins: ["ws://localhost"]).test(.live) { client in
            let first = Tab()
            let second = Tab()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await first.run(client, headers: headers, name: "one") }
                var firstLines = first.lines.makeAsyncIterator()
                _ = try await Self.next(&firstLines) { $0.contains(#""type":"screen""#) }
                group.addTask { try await second.run(client, headers: headers, name: "two") }
                var secondLines = second.lines.makeAsyncIterator()
                _ = try await Self.next(&secondLines) { $0.contains(#""role":"choice""#) }
                second.send(#"{"type":"web.watch"}"#)
                _ = try await Self.next(&secondLines) { $0.contains(#""type":"screen""#) }

                first.send(#"{"type":"quit","id":"q"}"#)
                let notTaken = try await Self.next(&firstLines) { $0.contains(#""replyTo":"q""#) }
                #expect(notTaken.contains("efb web ne prend pas cette commande"), "\(notTaken)")
                first.send(#"{"type":"next","id":"stale","ifGen":999}"#)
                let stale = try await Self.next(&firstLines) { $0.contains(#""replyTo":"stale""#) }
                #expect(stale.contains(#""code":"stale""#))

                second.send(#"{"type":"nope","id":"x"}"#)
                let seen = try await Self.lines(&secondLines) { $0.contains(#""replyTo":"x""#) }
                #expect(seen.last?.contains(#""code":"unknown_command""#) == true, "\(seen)")
                let leaked = seen.filter { $0.contains(#""replyTo":"stale""#) || $0.contains(#""replyTo":"q""#) }
                #expect(leaked.isEmpty, "\(seen)")
                first.close()
                second.close()
                try await group.waitForAll()
            }
        }
    }

    @Test func aResumedGameSaysWelcomeBackToTabsUntilItMovesOn() async throws {
        // Before, every tab that started watching heard "Welcome back", however long the game had gone on.
        let adventure = try AdventureLoader.bundled(locale: "en")
        let levels = adventure.chapters.flatMap(\.levels).map(\.id)
        let save = SaveData(adventureID: adventure.id, completed: [levels[0]], current: levels[1])
        let game = try Game(save: save)
        defer { game.stop() }
        let headers: HTTPFields = [.cookie: Self.cookie]
        try await game.application(otherOrigins: ["ws://localhost"]).test(.live) { client in
            let first = Tab()
            let second = Tab()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await first.run(client, headers: headers, name: "one") }
                var firstLines = first.lines.makeAsyncIterator()
                let joined = try await Self.lines(&firstLines) { $0.contains(#""type":"screen""#) }
                let welcomed = joined.filter { $0.contains(#""type":"announce""#) }
                #expect(welcomed.count == 1, "\(joined)")
                first.send(#"{"type":"next","id":1}"#)
                _ = try await Self.next(&firstLines) { $0.contains(#""type":"done""#) }
                group.addTask { try await second.run(client, headers: headers, name: "two") }
                var secondLines = second.lines.makeAsyncIterator()
                _ = try await Self.next(&secondLines) { $0.contains(#""role":"choice""#) }
                second.send(#"{"type":"web.watch"}"#)
                let watched = try await Self.lines(&secondLines) { $0.contains(#""type":"screen""#) }
                let told = watched.filter { $0.contains(#""type":"announce""#) }
                #expect(told.isEmpty, "\(watched)")
                first.close()
                second.close()
                try await group.waitForAll()
            }
        }
    }

    /// The next line a tab received that matches, or a failure when its socket closed first.
    static func next(
        _ lines: inout AsyncStream<String>.Iterator,
        where matches: (String) -> Bool
    ) async throws -> String {
        while let line = await lines.next() {
            if matches(line) { return line }
        }
        throw TestFailure("the socket closed before the line expected")
    }

    /// The lines a tab received up to the first that matches, that one included.
    static func lines(
        _ lines: inout AsyncStream<String>.Iterator,
        through matches: (String) -> Bool
    ) async throws -> [String] {
        var seen: [String] = []
        while let line = await lines.next() {
            seen.append(line)
            if matches(line) { return seen }
        }
        throw TestFailure("the socket closed before the line expected")
    }

    /// One browser tab's socket: lines in, messages out.
    final class Tab: Sendable {
        let lines: AsyncStream<String>
        private let linesIn: AsyncStream<String>.Continuation
        private let outgoing: AsyncStream<String>
        private let outgoingIn: AsyncStream<String>.Continuation

        init() {
            (lines, linesIn) = AsyncStream.makeStream(of: String.self)
            (outgoing, outgoingIn) = AsyncStream.makeStream(of: String.self)
        }

        func send(_ text: String) { outgoingIn.yield(text) }
        func close() { outgoingIn.finish() }

        func run(_ client: some TestClientProtocol, headers: HTTPFields, name: String) async throws {
            let linesIn = linesIn
            let outgoing = outgoing
            try await client.ws("/ws?client=\(name)", configuration: .init(additionalHeaders: headers)) {
                inbound,
                outbound,
                _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in outgoing { try await outbound.write(.text(text)) }
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            guard case .text(let text) = message else { continue }
                            for line in text.split(separator: "\n") { linesIn.yield(String(line)) }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
            linesIn.finish()
        }
    }
}
#endif
