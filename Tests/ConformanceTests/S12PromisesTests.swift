// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// §12 The socket keeps the pipe's promises: every line gets exactly one `done`, an unterminated last
/// line is answered, a refused `hello` is still answered, and what one client asks stays its own.
@Suite struct S12PromisesTests {
    /// The issue's reproduction sent 2,000 state lines (163 dones came back); 500 are already about
    /// 465 KB of replies (a state is about 930 bytes), seven times the client's 64 KiB buffer, and every
    /// line is checked against the schemas afterwards.
    @Test("§12 Back-pressure: a controller pipelining 500 lines without reading gets 501 dones, in order")
    func aControllerThatDoesNotReadGetsEveryDone() throws {
        let served = try Served(["--memory-save", "--client-buffer", "65536"])
        defer { served.stop() }
        let controller = try served.connect()
        _ = try controller.read { $0.type == "idle" }
        // Each state reply is kilobytes: far more than the 64 KiB the client may have waiting.
        controller.send((0..<500).map { #"{"type":"state","id":\#($0)}"# } + [#"{"type":"next","id":"X"}"#])
        let replies = try controller.read(timeout: 120) { $0.type == "done" && $0["replyTo"] == .string("X") }
        let dones = replies.filter { $0.type == "done" }.compactMap { $0["replyTo"] }
        #expect(dones == (0..<500).map { JSONValue.int($0) } + [.string("X")])
        #expect(!replies.contains { $0.type == "error" })
        #expect(replies.last?.int("gen") == 1)
        try served.finish([controller])
    }

    @Test("§12 An observer reading while the controller pipelines gets its ping's done")
    func anObserversPingIsAlwaysAnswered() throws {
        let served = try Served(["--memory-save", "--client-buffer", "65536"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        // Every next and previous is copied to the observer (focus and valid actions).
        controller.send((0..<500).map { #"{"type":"\#($0 % 2 == 0 ? "next" : "previous")","id":\#($0)}"# })
        observer.send(#"{"type":"ping","id":"p"}"#)
        let seen = try observer.read(timeout: 120) { $0.type == "done" && $0["replyTo"] == .string("p") }
        #expect(seen.filter { $0.type == "done" }.count == 1)
        let replies = try controller.read(timeout: 120) { $0.type == "done" && $0["replyTo"] == .int(499) }
        #expect(replies.filter { $0.type == "done" }.compactMap { $0["replyTo"] } == (0..<500).map { .int($0) })
        controller.send(#"{"type":"quit","id":"end"}"#)
        _ = try observer.read(timeout: 120) { $0.type == "bye" }
        try EFB.expectValid(observer.bytes)
        _ = try controller.read { $0.type == "bye" }
        try EFB.expectValid(controller.bytes)
    }

    @Test("§12 An observer that fell behind is told overflow once, still gets its ping's done and the end")
    func anObserverPastOverflowIsToldAndAnswered() throws {
        let served = try Served(["--memory-save", "--client-buffer", "65536"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        // The observer reads nothing while 2,000 moves are copied to it: far past its 64 KiB.
        controller.send((0..<2000).map { #"{"type":"\#($0 % 2 == 0 ? "next" : "previous")","id":\#($0)}"# })
        let replies = try controller.read(timeout: 120) { $0.type == "done" && $0["replyTo"] == .int(1999) }
        #expect(replies.filter { $0.type == "done" }.compactMap { $0["replyTo"] } == (0..<2000).map { .int($0) })
        observer.send(#"{"type":"ping","id":"p"}"#)
        let seen = try observer.read(timeout: 120) { $0.type == "done" && $0["replyTo"] == .string("p") }
        #expect(seen.filter { $0.type == "done" }.count == 1)
        let overflows = seen.filter { $0.type == "error" && $0["code"] == .string("overflow") }
        #expect(overflows.count == 1, "told \(overflows.count) times")
        // An observer that fell behind still learns that the game ended.
        controller.send(#"{"type":"quit","id":"end"}"#)
        _ = try observer.read(timeout: 120) { $0.type == "bye" }
        try EFB.expectValid(observer.bytes)
        _ = try controller.read { $0.type == "bye" }
        try EFB.expectValid(controller.bytes)
    }

    @Test("§12 An unterminated last line before the client half-closes is answered, as on the pipe")
    func anUnterminatedLastLineIsAnswered() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.write(
            Array(#"{"type":"next","id":1}"#.utf8) + [UInt8(ascii: "\n")] + Array(#"{"type":"ping","id":"last"}"#.utf8)
        )
        controller.shutdownWrite()
        let replies = try controller.read { $0.type == "done" && $0["replyTo"] == .string("last") }
        #expect(replies.filter { $0.type == "done" }.compactMap { $0["replyTo"] } == [.int(1), .string("last")])
        try waitUntil("the half-closed client to be let go") { controller.isClosedByPeer() }
        try EFB.expectValid(controller.bytes)
        _ = try observer.read { $0.type == "role" && $0["controlFree"] == .bool(true) }
        let next = try served.connect()
        _ = try next.read { $0.type == "idle" }
        try served.finish([next, observer])
    }

    @Test("§12 A hello refused for its protocol is still answered with the engine's hello, as §4.3 says")
    func aRefusedHelloIsAnswered() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        for client in [observer, controller] {
            client.send(#"{"type":"hello","id":"h","protocol":2}"#)
            let reply = try client.read { $0.type == "done" }
            #expect(reply.compactMap(\.type) == ["error", "hello", "done"])
            #expect(reply.first?.string("code") == "unsupported_protocol")
            #expect(reply.first?.string("message") == "this engine speaks protocol 1.0, 1.1, 1.2, 1.3, not 2.0")
            // The client goes on in the version it spoke: 1.1 until it agrees on another.
            #expect(reply[1]["version"] == .array([.int(1), .int(1)]))
            #expect(reply.allSatisfy { $0["gen"] != nil })
        }
        try served.finish([controller, observer])
    }

    /// The lines of the 1.1 example game, its `hello` asking for `versions` instead.
    private static func exampleGame(asking versions: String) throws -> [String] {
        let file = packageRoot.appendingPathComponent("Protocol/examples/full-game-1.1.commands.ndjson")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let hello = try #require(lines.first)
        #expect(hello.contains(#""protocol":[1,1]"#))
        return [hello.replacingOccurrences(of: #""protocol":[1,1]"#, with: #""protocol":\#(versions)"#)]
            + lines.dropFirst()
    }

    @Test(
        "§12 Each client speaks the version its hello agreed: a controller's game says on the socket what it says on the pipe",
        arguments: ["1", "[1,1]", #"{"min":[1,0],"max":[1,2]}"#]
    )
    func theSocketSaysWhatThePipeSays(versions: String) async throws {
        let lines = try Self.exampleGame(asking: versions)
        let piped = try await EFB.run(lines)
        // The pipe's opening ends before the first reply to the hello.
        let start = try #require(piped.events.firstIndex { $0["replyTo"] != nil })
        let expected = piped.events[start...].map(Self.withoutSeq)
        #expect(expected.contains { $0.type == "elementChanged" } == (versions != "1"))
        #expect(expected.contains { $0["chapterId"] != nil } == versions.contains("max"))

        let served = try Served()
        defer { served.stop() }
        let controller = try served.connect()
        _ = try controller.read { $0.type == "idle" }
        controller.send(lines)
        let seen = try controller.read(timeout: 120) { $0.type == "bye" }.map(Self.withoutSeq)
        #expect(seen.count == expected.count)
        for (offset, (socket, pipe)) in zip(seen, expected).enumerated() where socket != pipe {
            Issue.record("event \(offset) differs: socket \(socket), pipe \(pipe)")
            break
        }
        try EFB.expectValid(controller.bytes)
        served.process.finish()
        #expect(served.process.process.terminationStatus == 0)
    }

    @Test("§12 Versions are per client: a 1.3 client's dials carry range, copies included; 1.2's adjust only steps")
    func rangesArePerClient() throws {
        let save = try EFB.save(completed: Array(EFB.lanternLevels.dropLast()), current: "room-wheels")
        let served = try Served(["--adventure", EFB.lanternPath, "--save", save.path])
        defer { served.stop() }
        let (controller, newer) = try served.pair()
        controller.send(#"{"type":"hello","id":"h","protocol":[1,2]}"#)
        _ = try controller.read { $0.type == "done" }
        newer.send(#"{"type":"hello","id":"h","protocol":{"min":[1,0],"max":[1,3]}}"#)
        let hello = try newer.read { $0.type == "done" }
        #expect(hello.first?["version"] == .array([.int(1), .int(3)]))
        #expect(Self.capabilities(hello[0]).contains("ranges"))
        // The 1.2 controller's first is a bad direction, refused before it reaches the game.
        controller.send(#"{"type":"adjust","id":1,"element":"left-wheel","direction":"last"}"#)
        let refused = try controller.read { $0.type == "done" }
        #expect(refused.compactMap(\.type) == ["error", "done"])
        #expect(refused.first?.string("code") == "invalid_params")
        #expect(refused.first?.string("field") == "direction")
        #expect(refused.first?.string("message") == "direction must be increment or decrement")
        // Its step is taken: said to it without range, copied to the 1.3 observer with it.
        controller.send(#"{"type":"adjust","id":2,"element":"left-wheel","direction":"decrement"}"#)
        let turned = try controller.read { $0.type == "done" }
        let own = try #require(turned.first { $0.type == "elementChanged" })
        guard case .object(let element)? = own["element"] else {
            Issue.record("no element")
            return
        }
        #expect(element["value"] == "9" && element["range"] == nil)
        let copies = try newer.read { $0.type == "idle" }
        let copy = try #require(copies.first { $0.type == "elementChanged" })
        guard case .object(let copied)? = copy["element"] else {
            Issue.record("no element")
            return
        }
        #expect(copied["value"] == "9")
        #expect(copied["range"] == ["count": 10, "position": 10])
        // The 1.3 client may not play (it observes), but it may ask: its state carries the ranges too.
        newer.send(#"{"type":"state","id":"s"}"#)
        let state = try newer.read { $0.type == "done" }
        let screen = try #require(state.first { $0.type == "screen" })
        guard case .array(let elements)? = screen["elements"] else {
            Issue.record("no elements")
            return
        }
        let ranged = elements.filter { if case .object(let item) = $0 { item["range"] != nil } else { false } }
        #expect(ranged.count == 2)
        try served.finish([controller, newer])
    }

    @Test("§12 Versions are per client: chapter ids go to the 1.2 clients only, copies included; 1.0 gets no idle")
    func versionsArePerClient() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, newer) = try served.pair()
        let older = try served.connect()
        _ = try older.read { $0.type == "idle" }
        newer.send(#"{"type":"hello","id":"h","protocol":{"min":[1,0],"max":[1,2]}}"#)
        let hello = try newer.read { $0.type == "done" }
        #expect(hello.compactMap(\.type) == ["hello", "done"])
        #expect(hello[0]["version"] == .array([.int(1), .int(2)]))
        #expect(hello[0]["versions"] == .array(Self.pairs(0...3)))
        #expect(Self.capabilities(hello[0]).contains("chapterIds"))
        #expect(!Self.capabilities(hello[0]).contains("ranges"))
        older.send(#"{"type":"hello","id":"h","protocol":1}"#)
        let old = try older.read { $0.type == "done" }
        #expect(old.compactMap(\.type) == ["hello", "done"])
        #expect(old[0]["version"] == .array([.int(1), .int(0)]))
        #expect(old[0]["versions"] == .array(Self.pairs(0...3)))
        #expect(Self.capabilities(old[0]).isDisjoint(with: ["chapterIds", "elementChanged", "idle", "timer"]))

        // Into the first chapter: its page, then its first level.
        controller.send(
            #"{"type":"batch","id":"skip","commands":[{"type":"escape"},{"type":"activate","element":"begin"}]}"#
        )
        let played = try controller.read { $0.type == "done" }
        #expect(played.filter { $0.type == "screen" }.count == 2)
        #expect(!played.contains { $0["chapterId"] != nil || $0["chapters"] != nil })
        let copied = try newer.read { $0.type == "idle" }
        let screens = copied.filter { $0.type == "screen" }
        #expect(screens.map { $0["screen"] } == played.filter { $0.type == "screen" }.map { $0["screen"] })
        let chapter = try #require(screens.first?.string("chapterId"))
        #expect(screens.allSatisfy { $0.string("chapterId") == chapter })
        newer.send(#"{"type":"state","id":"s"}"#)
        let state = try newer.read { $0.type == "done" }
        let progress = try #require(state.first { $0.type == "progress" })
        #expect(progress.string("chapterId") == chapter)
        #expect(progress["chapters"] != nil)

        // 1.0 has no idle: the copies end with the valid actions, and the answer to state with done.
        older.send(#"{"type":"state","id":"s"}"#)
        let oldSeen = try older.read { $0.type == "done" }
        #expect(oldSeen.filter { $0.type == "screen" }.count == 3)
        #expect(!oldSeen.contains { $0.type == "idle" || $0["chapterId"] != nil || $0["chapters"] != nil })
        // 1.0's envelope: gen only on the events that always carried it.
        #expect(oldSeen.first { $0.type == "progress" }?["gen"] == nil)
        #expect(oldSeen.first { $0.type == "focus" }?["gen"] != nil)
        #expect(oldSeen.last?["gen"] != nil)
        try served.finish([controller, newer, older])
        #expect(!controller.events.contains { $0["chapterId"] != nil || $0["chapters"] != nil })
        #expect(!older.events.dropFirst(7).contains { $0.type == "idle" })
    }

    /// The versions of protocol 1 with the minor numbers `minors`, as a hello lists them.
    private static func pairs(_ minors: ClosedRange<Int>) -> [JSONValue] {
        minors.map { .array([.int(1), .int($0)]) }
    }

    /// The capabilities a hello lists.
    private static func capabilities(_ hello: Event) -> Set<String> {
        guard case .array(let items) = hello["capabilities"] else { return [] }
        return Set(items.compactMap { if case .string(let name) = $0 { name } else { nil } })
    }

    /// An event without its `seq`, which differs from one connection to another.
    private static func withoutSeq(_ event: Event) -> Event {
        var event = event
        event["seq"] = nil
        return event
    }

    @Test("§12 A controller's hello is its own: observers get nothing of it unless the screen changed")
    func aControllersHelloIsNotCopied() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(#"{"type":"hello","id":"h","protocol":[1,1],"client":"again"}"#)
        #expect(try controller.read { $0.type == "done" }.compactMap(\.type) == ["hello", "validActions", "done"])
        controller.send(#"{"type":"next","id":1}"#)
        _ = try controller.read { $0.type == "done" }
        #expect(try observer.read { $0.type == "idle" }.compactMap(\.type) == ["focus", "validActions", "idle"])
        try served.finish([controller, observer])
    }

    @Test("§12 Joining a resumed game says Welcome back, until the game moves on")
    func joiningAResumedGameSaysWelcomeBack() throws {
        let save = try EFB.save(completed: ["room-latch"], current: "room-word")
        let served = try Served(["--save", save.path, "--adventure", EFB.lanternPath])
        defer { served.stop() }
        let controller = try served.connect()
        let joined = try controller.read { $0.type == "idle" }
        #expect(
            joined.compactMap(\.type) == [
                "hello", "role", "announce", "screen", "focus", "progress", "validActions", "idle",
            ]
        )
        #expect(joined[2].string("text")?.hasPrefix("Welcome back") == true)
        controller.send(#"{"type":"next","id":1}"#)
        _ = try controller.read { $0.type == "done" }
        let later = try served.connect()
        #expect(try later.read { $0.type == "idle" }.compactMap(\.type).contains("announce") == false)
        try served.finish([controller, later])
    }

    @Test("§12 A burst of connections is queued (backlog SOMAXCONN), not refused with EAGAIN")
    func aBurstOfConnectionsIsQueued() throws {
        let served = try Served()
        defer { served.stop() }
        let first = try served.connect()
        _ = try first.read { $0.type == "idle" }
        // A client that spoke: the burst's idle connections make room among themselves, never it.
        first.send(#"{"type":"ping","id":"here"}"#)
        _ = try first.read { $0.type == "done" }
        // A server that is not accepting just now: connections must wait in the backlog.
        kill(served.process.process.processIdentifier, SIGSTOP)
        var refused = 0
        var descriptors: [Int32] = []
        for _ in 0..<100 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in served.socket.utf8.enumerated() { raw[index] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected != 0 { refused += 1 }
            descriptors.append(descriptor)
        }
        kill(served.process.process.processIdentifier, SIGCONT)
        #expect(refused == 0)
        for descriptor in descriptors { close(descriptor) }
        try served.finish([first])
    }

    @Test("§12 A socket folder reached through a symbolic link is resolved; a missing parent exits 71")
    func linkedAndMissingFolders() throws {
        let real = try temporaryFolder("serve-real")
        chmod(real.path, 0o700)
        let link = try temporaryFolder("serve-link").appendingPathComponent("to-real")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let process = try RunningEFB(["serve", "--socket", link.path + "/game.sock", "--memory-save"])
        defer { process.stop() }
        try waitUntil("the socket") { process.standardError.contains("the game is served on") }
        #expect(FileManager.default.fileExists(atPath: real.path + "/game.sock"))
        let client = try SocketClient(path: link.path + "/game.sock")
        _ = try client.read { $0.type == "idle" }
        client.send(#"{"type":"quit","id":"q"}"#)
        _ = try client.read { $0.type == "bye" }
        process.finish()
        #expect(process.process.terminationStatus == 0)

        let missing = try temporaryFolder("serve-missing").path + "/no/such/folder/game.sock"
        let result = try runEFB(["serve", "--socket", missing, "--memory-save"], input: [])
        #expect(result.status == 71)
        #expect(result.stderr.contains("making the folder"))
    }
}
