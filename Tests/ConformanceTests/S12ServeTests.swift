// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// §12 A shared game: `efb serve`, its roles, routing, slow and leaving clients, the socket's safety.
@Suite struct S12ServeTests {
    @Test("§12 Joining: hello, role, then the whole state ended by idle; the first client controls, the next observes")
    func joiningGivesTheWholeState() throws {
        let served = try Served()
        defer { served.stop() }
        let controller = try served.connect()
        let opening = try controller.read { $0.type == "idle" }
        #expect(opening.compactMap(\.type) == ["hello", "role", "screen", "focus", "progress", "validActions", "idle"])
        #expect(opening[1].string("role") == "controller")
        #expect(opening[1]["controlFree"] == .bool(false))
        #expect(opening.allSatisfy { $0["replyTo"] == nil })
        let observer = try served.connect()
        let joined = try observer.read { $0.type == "idle" }
        #expect(joined[1].string("role") == "observer")
        #expect(joined.compactMap(\.type) == opening.compactMap(\.type))
        try served.finish([controller, observer])
    }

    @Test(
        "§12 Routing: the controller's replies are its own; observers get the game's events without replyTo, then idle"
    )
    func controllerAndObserver() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(#"{"type":"next","id":1}"#)
        let reply = try controller.read { $0.type == "done" }
        #expect(reply.compactMap(\.type) == ["focus", "validActions", "done"])
        #expect(reply.allSatisfy { $0["replyTo"] == .int(1) })
        let seen = try observer.read { $0.type == "idle" }
        #expect(seen.compactMap(\.type) == ["focus", "validActions", "idle"])
        #expect(seen.allSatisfy { $0["replyTo"] == nil })
        #expect(seen[0]["element"] == reply[0]["element"])
        // An observer's question is answered to it alone, with its own id.
        observer.send(#"{"type":"state","id":"s"}"#)
        let state = try observer.read { $0.type == "done" }
        #expect(state.compactMap(\.type) == ["screen", "focus", "progress", "validActions", "done"])
        #expect(state.allSatisfy { $0["replyTo"] == .string("s") })
        controller.send(#"{"type":"ping","id":2}"#)
        #expect(try controller.read { $0.type == "done" }.compactMap(\.type) == ["done"])
        try served.finish([controller, observer])
        #expect(!observer.events.contains { $0["replyTo"] == .int(2) || $0["replyTo"] == .int(1) })
        #expect(!controller.events.contains { $0["replyTo"] == .string("s") })
    }

    @Test("§12 validActions with ifChanged: each client has seen other events, so the list always comes")
    func validActionsIfChangedAlwaysAnswersOnASharedSocket() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        for client in [controller, observer] {
            for id in 1...2 {
                client.send(#"{"type":"validActions","id":\#(id),"ifChanged":true}"#)
                #expect(try client.read { $0.type == "done" }.compactMap(\.type) == ["validActions", "done"])
            }
        }
        try served.finish([controller, observer])
    }

    @Test("§4.16 observe on a shared socket: any client may ask, and only the one that asked is answered")
    func observeAnswersOnlyTheClientThatAsked() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        observer.send(#"{"type":"observe","id":"o"}"#)
        let seen = try observer.read { $0.type == "done" }
        #expect(seen.compactMap(\.type) == ["observation", "done"])
        #expect(seen.first?.string("text")?.hasPrefix("screen: ") == true)
        controller.send(#"{"type":"observe","id":"c"}"#)
        #expect(try controller.read { $0.type == "done" }.compactMap(\.type) == ["observation", "done"])
        try served.finish([controller, observer])
        #expect(!controller.events.contains { $0["replyTo"] == .string("o") })
        #expect(!observer.events.contains { $0["replyTo"] == .string("c") })
    }

    @Test("§4.3 omit on a shared socket: nothing is omitted, for the client that asked or the others")
    func omitIsNotGrantedOnASharedSocket() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(#"{"type":"hello","id":"h","protocol":[1,1],"omit":["sound"]}"#)
        let hello = try controller.read { $0.type == "done" }
        #expect(hello.first { $0.type == "hello" }?["omit"] == nil)
        controller.send(#"{"type":"previous","id":1}"#)  // (the first element: the boundary's cue)
        #expect(try controller.read { $0.type == "done" }.compactMap(\.type).contains("sound"))
        #expect(try observer.read { $0.type == "sound" }.last?.string("name") == "boundary")
        try served.finish([controller, observer])
    }

    @Test("§12 Read-only: an observer's gesture is refused with read_only and changes nothing")
    func observersAreReadOnly() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        for line in [
            #"{"type":"next","id":"n"}"#, #"{"type":"activate","element":"continue","id":"a"}"#,
            #"{"type":"wait","ms":1000,"id":"w"}"#, #"{"type":"batch","commands":[{"type":"next"}],"id":"b"}"#,
        ] {
            observer.send(line)
            let reply = try observer.read { $0.type == "done" }
            #expect(reply.compactMap(\.type) == ["error", "done"])
            #expect(reply.first?.string("code") == "read_only")
        }
        controller.send(#"{"type":"state","id":1}"#)
        let state = try controller.read { $0.type == "done" }
        #expect(state.first { $0.type == "focus" }?.int("index") == 1)
        #expect(state.last?.int("gen") == 0)
        try served.finish([controller, observer])
    }

    @Test("§12 Bad input from an observer is answered to it alone; the game goes on")
    func badInputFromAnObserver() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        observer.send("{oops", #"{"type":"rotor","direction":"sideways","id":7}"#, #"{"type":"nope","id":8}"#)
        observer.write(Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 10) + [UInt8(ascii: "\n")])
        var codes: [String] = []
        for _ in 0..<4 {
            let reply = try observer.read { $0.type == "done" }
            codes += reply.compactMap { $0.string("code") }
        }
        #expect(codes == ["malformed_json", "invalid_params", "unknown_command", "line_too_long"])
        controller.send(#"{"type":"next","id":1}"#)
        #expect(try controller.read { $0.type == "done" }.last?["replyTo"] == .int(1))
        try served.finish([controller, observer])
        #expect(!controller.events.contains { $0.type == "error" })
    }

    @Test("§12 Ten clients: every observer sees the same game as the controller")
    func tenClients() throws {
        let served = try Served()
        defer { served.stop() }
        let clients = try (0..<10).map { _ in try served.connect() }
        for client in clients { _ = try client.read { $0.type == "idle" } }
        let controller = clients[0]
        for (index, line) in [#"{"type":"next"}"#, #"{"type":"next"}"#, #"{"type":"activate"}"#].enumerated() {
            controller.send(line.replacingOccurrences(of: "}", with: ",\"id\":\(index)}"))
            let reply = try controller.read { $0.type == "done" }.filter { $0.type != "done" }
            for observer in clients.dropFirst() {
                let seen = try observer.read { $0.type == "idle" }.filter { $0.type != "idle" }
                #expect(seen.map(Self.withoutEnvelope) == reply.map(Self.withoutEnvelope))
            }
        }
        try served.finish(clients)
    }

    @Test("§12 A slow observer never holds the controller up: it is told overflow and gets the whole state")
    func anObserverThatNeverReads() throws {
        let served = try Served(["--memory-save", "--client-buffer", "65536"])
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        // Far more than the observer's socket and its 64 KiB queue hold; the controller reads as it goes.
        for round in 0..<8 {
            let lines = (0..<100).map { #"{"type":"\#($0 % 2 == 0 ? "next" : "previous")","id":\#(round * 100 + $0)}"# }
            controller.send(lines)
            _ = try controller.read { $0.type == "done" && $0["replyTo"] == .int(round * 100 + 99) }
        }
        controller.send(#"{"type":"ping","id":"last"}"#)
        _ = try controller.read { $0.type == "done" }
        let caughtUp = try observer.read(timeout: 60) { $0.type == "error" && $0.string("code") == "overflow" }
        #expect(caughtUp.last?["replyTo"] == nil)
        let state = try observer.read { $0.type == "idle" }
        #expect(state.compactMap(\.type).prefix(4) == ["screen", "focus", "progress", "validActions"])
        try served.finish([controller, observer])
    }

    @Test("§12 Limits: the seventeenth client is told too_many_clients and closed; the others play on")
    func tooManyClients() throws {
        let served = try Served()
        defer { served.stop() }
        let clients = try (0..<16).map { _ in try served.connect() }
        for client in clients {
            _ = try client.read { $0.type == "idle" }
            // Clients that speak: none is idle, so none makes room.
            client.send(#"{"type":"ping","id":"here"}"#)
            _ = try client.read { $0.type == "done" }
        }
        let extra = try served.connect()
        let refused = try extra.read { $0.type == "error" }
        #expect(refused.compactMap { $0.string("code") } == ["too_many_clients"])
        try waitUntil("the extra connection to close") { extra.isClosedByPeer() }
        try EFB.expectValid(extra.bytes)
        try served.finish(clients)
    }

    /// Before: sixteen connections that never said a line (the first of them the controller) locked every
    /// other client out, of the game and of its control.
    @Test("§12 Limits: at sixteen clients, the oldest that never sent a line makes room for the next")
    func idleConnectionsMakeRoom() throws {
        let served = try Served()
        defer { served.stop() }
        let idle = try (0..<16).map { _ in try served.connect() }
        for client in idle { _ = try client.read { $0.type == "idle" } }
        let player = try served.connect()
        let closed = try idle[0].read { $0.type == "error" }
        #expect(closed.last?.string("code") == "too_many_clients")
        try waitUntil("the oldest idle connection to close") { idle[0].isClosedByPeer() }
        // It held control: control came free, and the newcomer, joining then, controls the game.
        let joined = try player.read { $0.type == "idle" }
        #expect(joined.first { $0.type == "role" }?.string("role") == "controller")
        player.send(#"{"type":"next","id":"n"}"#)
        #expect(try player.read { $0.type == "done" }.last?["replyTo"] == .string("n"))
        try EFB.expectValid(idle[0].bytes)
        try served.finish([player] + idle.dropFirst())
    }

    @Test("§12 A client that leaves mid-burst never stops the game; the next to connect controls it")
    func disconnectMidBurst() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send((0..<500).map { #"{"type":"next","id":\#($0)}"# })
        controller.close()
        let freed = try observer.read { $0.type == "role" && $0["controlFree"] == .bool(true) }
        #expect(freed.last?.string("role") == "observer")
        // A role the client did not ask for is a burst of its own, ended by idle.
        #expect(try observer.read { _ in true }.first?.type == "idle")
        let next = try served.connect()
        let joined = try next.read { $0.type == "idle" }
        #expect(joined[1].string("role") == "controller")
        next.send(#"{"type":"next","id":"n"}"#)
        #expect(try next.read { $0.type == "done" }.last?["replyTo"] == .string("n"))
        #expect(served.process.process.isRunning)
        try served.finish([next, observer])
    }

    @Test("§12 A client that joins while control is free takes it, and every other client is told")
    func joiningWhileControlIsFreeTellsTheOthers() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.close()
        _ = try observer.read { $0.type == "role" && $0["controlFree"] == .bool(true) }
        _ = try observer.read { $0.type == "idle" }
        let next = try served.connect()
        #expect(try next.read { $0.type == "idle" }[1].string("role") == "controller")
        // Before, only the newcomer was told: the observer still believed control was free.
        let taken = try observer.read(timeout: 5) { $0.type == "role" }
        #expect(taken.last?.string("role") == "observer")
        #expect(taken.last?["controlFree"] == .bool(false))
        #expect(try observer.read { _ in true }.first?.type == "idle")
        try served.finish([next, observer])
    }

    @Test("§12 Handing over: hello with role observer frees control; another's hello with role controller takes it")
    func handingOver() throws {
        let served = try Served()
        defer { served.stop() }
        let (first, second) = try served.pair()
        second.send(#"{"type":"hello","protocol":[1,1],"role":"controller","id":"take"}"#)
        let refused = try second.read { $0.type == "done" }
        #expect(refused.first?.string("code") == "controlled")
        first.send(#"{"type":"hello","protocol":[1,1],"role":"observer","id":"give"}"#)
        // Before, the role came first, without replyTo: now it is part of the hello's reply (§12).
        let given = try first.read { $0.type == "done" }
        #expect(given.compactMap(\.type) == ["hello", "role", "done"])
        #expect(given[1]["controlFree"] == .bool(true))
        #expect(given.allSatisfy { $0["replyTo"] == .string("give") })
        _ = try second.read { $0.type == "role" }
        second.send(#"{"type":"hello","protocol":[1,1],"role":"controller","id":"take"}"#)
        let taken = try second.read { $0.type == "done" }.filter { $0["replyTo"] == .string("take") }
        #expect(taken.compactMap(\.type).prefix(2) == ["hello", "role"])
        #expect(taken.last?.type == "done")
        #expect(taken.first { $0.type == "role" }?.string("role") == "controller")
        #expect(try first.read { $0.type == "role" }.last?["controlFree"] == .bool(false))
        second.send(#"{"type":"next","id":1}"#)
        #expect(try second.read { $0.type == "done" }.compactMap(\.type) == ["focus", "validActions", "done"])
        first.send(#"{"type":"hello","protocol":[2,0],"id":"old"}"#)
        let old = try first.read { $0.type == "done" && $0["replyTo"] == .string("old") }
        #expect(old.first { $0.type == "error" }?.string("code") == "unsupported_protocol")
        try served.finish([second, first])
    }

    @Test("§12 Restore: the controller's restore gives every observer the whole state again")
    func restoreResynchronisesObservers() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        controller.send(#"{"type":"snapshot","id":"s"}"#)
        let blob = try #require(
            try controller.read { $0.type == "done" }.first { $0.type == "snapshot" }?.string("blob")
        )
        #expect(!observer.events.contains { $0.type == "snapshot" })
        controller.send(#"{"type":"next","id":1}"#, #"{"type":"restore","blob":"\#(blob)","id":"r"}"#)
        _ = try controller.read { $0.type == "done" && $0["replyTo"] == .string("r") }
        _ = try observer.read { $0.type == "idle" }
        let again = try observer.read { $0.type == "idle" }
        #expect(again.compactMap(\.type) == ["screen", "focus", "progress", "validActions", "idle"])
        #expect(again[1].int("index") == 1)
        try served.finish([controller, observer])
    }

    @Test("§12 An observer's quit says bye to it alone; quit from the controller ends the game for everyone")
    func quitting() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        let third = try served.connect()
        _ = try third.read { $0.type == "idle" }
        observer.send(#"{"type":"quit","id":"q"}"#)
        // Before, bye alone: now one done per line (§3), then bye.
        let left = try observer.read { $0.type == "bye" }
        #expect(left.compactMap(\.type) == ["done", "bye"])
        #expect(left.allSatisfy { $0["replyTo"] == .string("q") })
        try waitUntil("the observer's connection to close") { observer.isClosedByPeer() }
        controller.send(#"{"type":"next","id":1}"#)
        _ = try controller.read { $0.type == "done" }
        try served.finish([controller, third])
        #expect(third.events.suffix(2).compactMap(\.type) == ["ended", "bye"])
        try EFB.expectValid(observer.bytes)
    }

    @Test("§12 SIGTERM ends the game with ended and bye to every client; the socket is removed")
    func stoppedBySignal() throws {
        let served = try Served()
        defer { served.stop() }
        let (controller, observer) = try served.pair()
        kill(served.process.process.processIdentifier, SIGTERM)
        for client in [controller, observer] {
            #expect(try client.read { $0.type == "bye" }.suffix(2).compactMap(\.type) == ["ended", "bye"])
            try EFB.expectValid(client.bytes)
        }
        served.process.finish()
        #expect(served.process.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: served.socket))
    }

    @Test("§12 The socket: mode 0600; a folder open to others is refused; a second serve on it is refused")
    func socketSafety() throws {
        let served = try Served()
        defer { served.stop() }
        var status = stat()
        #expect(lstat(served.socket, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let second = try runEFB(["serve", "--socket", served.socket, "--memory-save"], input: [])
        #expect(second.status == 75)
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.contains("already served"))

        let open = try temporaryFolder("serve-open")
        chmod(open.path, 0o755)
        let refused = try runEFB(["serve", "--socket", open.path + "/game.sock", "--memory-save"], input: [])
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("not yours alone"))
        #expect(!FileManager.default.fileExists(atPath: open.path + "/game.sock"))
    }

    @Test("§12 A second serve on the same save plays read-only: its clients learn it from save_locked")
    func secondServeOnTheSameSave() throws {
        let save = try EFB.save(completed: [], current: nil)
        let first = try Served(["--save", save.path, "--adventure", EFB.lanternPath])
        defer { first.stop() }
        let holder = try first.connect()
        _ = try holder.read { $0.type == "idle" }
        let second = try Served(["--save", save.path, "--adventure", EFB.lanternPath])
        defer { second.stop() }
        let client = try second.connect()
        let joined = try client.read { $0.type == "idle" }
        #expect(joined.compactMap(\.type).prefix(3) == ["hello", "role", "error"])
        #expect(joined[2].string("code") == "save_locked")
        try second.finish([client])
        try first.finish([holder])
    }

    /// An event without what differs from one connection to another.
    private static func withoutEnvelope(_ event: Event) -> Event {
        var event = event
        event["seq"] = nil
        event["replyTo"] = nil
        return event
    }
}

/// `efb serve` running on a socket in a private folder of its own.
final class Served {
    let process: RunningEFB
    let socket: String

    init(_ extra: [String] = ["--memory-save"]) throws {
        let folder = try temporaryFolder("serve")
        chmod(folder.path, 0o700)
        socket = folder.path + "/game.sock"
        process = try RunningEFB(["serve", "--socket", socket, "--seed", "1", "--clock", "virtual"] + extra)
        // The socket's file appears at bind, before listen: efb serve says so once it listens.
        try waitUntil("the socket") { process.standardError.contains("the game is served on") }
    }

    /// A new client.
    func connect() throws -> SocketClient { try SocketClient(path: socket) }

    /// A controller and an observer, both past their joining state.
    func pair() throws -> (SocketClient, SocketClient) {
        let controller = try connect()
        _ = try controller.read { $0.type == "idle" }
        let observer = try connect()
        _ = try observer.read { $0.type == "idle" }
        return (controller, observer)
    }

    /// Ends the game with the first client's `quit`; every client gets `ended` and `bye`, and every
    /// client's whole output is schema-valid with its own `seq`.
    func finish(_ clients: [SocketClient]) throws {
        clients[0].send(#"{"type":"quit","id":"end"}"#)
        for client in clients {
            _ = try client.read { $0.type == "bye" }
            try EFB.expectValid(client.bytes)
        }
        process.finish()
        #expect(process.process.terminationStatus == 0)
        #expect(process.output.data.isEmpty, "efb serve writes nothing on standard output")
    }

    func stop() { process.stop() }
}

/// A client connected to `efb serve`: what it sends, and every line it read, parsed.
final class SocketClient {
    private let descriptor: Int32
    /// Everything read so far.
    private(set) var bytes: [UInt8] = []
    /// Every line read so far, parsed.
    private(set) var events: [Event] = []
    private var consumed = 0
    private var closed = false

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("cannot connect to \(path): errno \(errno)") }
    }

    deinit { close() }

    /// Sends each line, ended with `\n`.
    func send(_ lines: String...) { send(lines) }

    /// Sends each line, ended with `\n`.
    func send(_ lines: [String]) { write(Array(lines.map { $0 + "\n" }.joined().utf8)) }

    /// Sends raw bytes.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The events read after those already returned, up to and including the first that matches.
    func read(timeout: Double = 20, until match: (Event) -> Bool) throws -> [Event] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = events[consumed...].firstIndex(where: match) {
                defer { consumed = index + 1 }
                return Array(events[consumed...index])
            }
            guard Date() < deadline, fill(milliseconds: 100) else {
                throw TestFailure("no matching event; read so far: \(events[consumed...].compactMap(\.type))")
            }
        }
    }

    /// Ends what the client sends (`shutdown(SHUT_WR)`) and keeps reading.
    func shutdownWrite() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// Whether the server closed the connection (reads what is left first).
    func isClosedByPeer() -> Bool { !fill(milliseconds: 10) }

    /// Waits for input and reads it; `false` when the connection ended.
    private func fill(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        let start = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        bytes += buffer[..<count]
        let complete = bytes[start...].lastIndex(of: UInt8(ascii: "\n"))
        guard let complete else { return true }
        for line in bytes[start..<complete].split(separator: UInt8(ascii: "\n")) {
            if case .object(let object) = try? JSONReader.read(line) { events.append(object) }
        }
        return true
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }
}
