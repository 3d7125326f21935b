// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeLaunch

#if Web
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import EscapeSound
import EscapeWeb
#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

/// `efb web`: the game in a web browser, for players of NVDA, JAWS, VoiceOver and Orca.
struct Web: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play in a web browser: prints the address to open (with a screen reader, or without).",
        discussion: """
            Serves the game on this machine (127.0.0.1 by default) and prints one line on standard output, \
            http://127.0.0.1:PORT/?token=TOKEN: open it in a browser. The page plays the whole game from the \
            keyboard with a screen reader; one tab plays, another may take over or watch. The server runs \
            until its standard input ends, SIGINT or SIGTERM. The token is kept beside the save, so a page \
            left open reconnects when the server starts again on the same port (a token file that is not \
            this user's own with mode 0600 is replaced). It holds at most the descriptor limit less 64 \
            connections, and closes one whose request head has not come within 5 s.
            """
    )

    @OptionGroup var game: GameOptions

    @OptionGroup(title: "Sound on this machine") var sound: SoundOptions

    @Option(help: "The address to listen on (loopback by default; anything else is reachable by others).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8742

    @Option(
        help: ArgumentHelp(
            "Join the game efb serve shares on this socket instead of starting one.",
            valueName: "socket"
        ),
        completion: .file()
    )
    var attach: String?

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "Also accept WebSockets from this origin (an embedder's own page), e.g. http://localhost:3000.",
            valueName: "origin"
        )
    )
    var allowedOrigins: [String] = []

    @Flag(help: "Also open the address in the desktop's browser (xdg-open, or open, found on PATH).")
    var open = false

    func validate() throws {
        try game.validate(attach: attach)
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
    }

    func run() throws {
        guard ShippedData.folder(.page) != nil else {
            let message = """
                efb web: the page is missing: \(ShippedData.notFound(.page)). Reinstall the game, or build it \
                again.

                """
            StandardError.write(message)
            throw ExitCode(72)
        }
        let environment = ProcessInfo.processInfo.environment
        let token: String
        // Without a save (or a home for the default one: the game then says why it cannot start) the
        // token is kept nowhere.
        if attach != nil || game.memorySave {
            token = WebToken.random()
        } else if let save = game.save ?? FileSaveStore.defaultPath(environment: environment) {
            let folder = ShippedData.parent(of: save)
            try? FileManager.default.createDirectory(
                atPath: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            token = WebToken.kept(at: (folder.isEmpty ? "." : folder) + "/web-token") { reason in
                StandardError.write("efb web: \(reason)\n")
            }
        } else {
            token = WebToken.random()
        }
        var server: WebServer.Running?
        defer { server?.stop() }
        var frontEnd: WebFrontEnd?
        try game.play(sound: sound, attach: attach) { locale in
            let bridge = WebBridge()
            let made = WebFrontEnd(bridge: bridge, input: 0, keys: WebWords(locale: locale).gestureKeys)
            frontEnd = made
            let configuration = WebServer.Configuration(
                host: host,
                port: port,
                guardian: WebGuard(
                    token: token,
                    port: port == 0 ? nil : port,
                    boundHost: host,
                    otherOrigins: Set(allowedOrigins)
                ),
                locale: locale ?? "en",
                soundFolder: SoundPack.bundled?.folder
            )
            let running: WebServer.Running
            do {
                running = try WebServer.start(configuration: configuration, bridge: bridge)
            } catch {
                StandardError.write("efb web: cannot listen on \(host):\(port): \(error)\n")
                throw ExitCode(71)
            }
            server = running
            let shown = host.contains(":") ? "[\(host)]" : (host == "0.0.0.0" ? "127.0.0.1" : host)
            let url = "http://\(shown):\(running.port)/?token=\(token)"
            _ = FileOutput(descriptor: 1).write(Array("\(url)\n".utf8))
            StandardError.write("efb web: open \(url) in a browser; Ctrl+C stops.\n")
            if open, let opener = Self.opener(searchPath: environment["PATH"] ?? "/usr/bin:/bin") {
                _ = QuietSpawn.start(opener, arguments: [opener, url])
            }
            return made
        }
        frontEnd?.closeAll()
    }

    /// The program that opens an address in the desktop's browser: `xdg-open`, else `open`, on `searchPath`.
    ///
    /// - Parameter searchPath: A `PATH`-style list of folders.
    /// - Returns: The program's path, or `nil` when neither is there.
    static func opener(searchPath: String) -> String? {
        for program in ["xdg-open", "open"] {
            for folder in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
                let candidate = "\(folder)/\(program)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }
}

/// The subcommands this build has: `web` only with the Web trait.
let webCommands: [any ParsableCommand.Type] = [Web.self]
#else
/// The subcommands this build has: none without the Web trait.
let webCommands: [any ParsableCommand.Type] = []
#endif
