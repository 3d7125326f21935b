// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeCore
import EscapeLaunch
import EscapeRuntime

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `efb serve`: one game shared by many clients over a Unix domain socket.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Share one game with several clients over a local socket (a Braille display beside speech, say).",
        discussion: """
            Each connection speaks the pipe's JSON protocol (version 1.1). The first client to connect \
            controls the game; the others follow it as observers and may only ask (state, ping, \
            validActions, repeat, snapshot). A client that leaves never stops the game; quit from the \
            controller, SIGINT or SIGTERM ends it. efb play --attach SOCKET and efb braille --attach SOCKET \
            join it. See /usr/share/doc/efb/protocol/README.md.gz, section 12.
            """
    )

    @OptionGroup var game: GameOptions

    @Option(
        help: "The socket (default: $XDG_RUNTIME_DIR/escape-from-blindness/game.sock); its folder must be yours alone.",
        completion: .file()
    )
    var socket: String?

    @Option(
        help: "The most bytes of output that may wait for one client (64 KiB to 256 MiB) before it is not read."
    )
    var clientBuffer = 1 << 20

    func validate() throws {
        guard (1 << 16)...(1 << 28) ~= clientBuffer else {
            throw ValidationError("--client-buffer must be between 65536 and 268435456 bytes.")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let path = socket ?? UnixListener.defaultPath(environment: ProcessInfo.processInfo.environment)
        // Another game on the same save makes this one read-only: its clients learn it from save_locked.
        let host = try game.makeHost(whenLocked: .readOnly)
        let listener: UnixListener
        do {
            listener = try UnixListener(path: path)
        } catch {
            StandardError.write("efb serve: \(error)\n")
            switch error {
            case .alreadyServed: throw ExitCode(75)
            case .folderNotPrivate, .linkNotYours, .servedByAnotherUser: throw ExitCode(77)
            case .pathTooLong, .notASocket: throw ExitCode(64)
            case .system: throw ExitCode(71)
            }
        }
        StandardError.write("efb serve: the game is served on \(path)\n")
        StopSignals.install()
        let frontEnd = ServeFrontEnd(
            listener: listener,
            words: host.engine.words,
            limits: .init(pendingBytes: clientBuffer)
        )
        EventLoop(host: host, frontEnd: frontEnd).run()
        frontEnd.closeAll()
    }
}
