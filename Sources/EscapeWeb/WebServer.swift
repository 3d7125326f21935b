// SPDX-License-Identifier: Apache-2.0
#if Web
import EscapeContent
import EscapeCore
#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import Dispatch
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HTTPTypes
package import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
package import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// The web server of `efb web`: the page, its script, style and sounds, and the WebSocket the page
/// plays through, behind the ``WebGuard``.
///
/// It runs on Hummingbird's threads and never touches the game: a tab's socket is a
/// ``WebBridge/Outbox`` one way and ``WebBridge/receive(_:from:)`` the other.
package enum WebServer {
    /// What the server serves and where.
    package struct Configuration: Sendable {
        /// The address to listen on.
        package var host: String
        /// The port; 0 for any free one.
        package var port: Int
        /// The token and the hosts accepted.
        package var guardian: WebGuard
        /// The page's language until the game says its own (`<html lang>`).
        package var locale: String
        /// The sound pack's folder (`cues/`, `ambiences/`), if there is one.
        package var soundFolder: String?
        /// How many connections are held, and how long one may take to ask.
        package var limits: WebLimits

        /// Creates a configuration.
        package init(
            host: String,
            port: Int,
            guardian: WebGuard,
            locale: String,
            soundFolder: String?,
            limits: WebLimits = .current
        ) {
            self.host = host
            self.port = port
            self.guardian = guardian
            self.locale = locale
            self.soundFolder = soundFolder
            self.limits = limits
        }
    }

    /// The largest message a page may send (a command; typed text is at most 1000 characters).
    static let maximumMessage = 1 << 16

    /// The application: a router for the page and files, another for the WebSocket upgrade.
    ///
    /// - Parameters:
    ///   - configuration: Where and what to serve.
    ///   - bridge: Where tabs' sockets meet the game loop.
    ///   - logger: Where the server logs (standard error: standard output carries the URL only).
    ///   - onRunning: Called with the bound port once the server listens.
    /// - Returns: The application, to run or to test.
    package static func application(
        configuration: Configuration,
        bridge: WebBridge,
        logger: Logger,
        onRunning: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let files = PageFiles(locale: configuration.locale, soundFolder: configuration.soundFolder)
        let guardian = configuration.guardian

        // HEAD answers where GET does, without the body.
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: GuardMiddleware(guardian: guardian))
        router.get("/") { _, _ in files.response(for: "index.html") }
        router.get("/app.js") { _, _ in files.response(for: "app.js") }
        router.get("/style.css") { _, _ in files.response(for: "style.css") }
        router.get("/sounds/:kind/:name") { _, context in
            let kind = context.parameters.get("kind") ?? ""
            let name = context.parameters.get("name") ?? ""
            return files.sound(kind: kind, name: name)
        }
        // Reached only when an upgrade was refused: a foreign Origin, or no upgrade asked at all.
        router.get("/ws") { request, _ in
            let origin = request.headers[.origin]
            if !guardian.originAllowed(origin, host: request.head.authority) {
                return Response(
                    status: .forbidden,
                    headers: Self.plain,
                    body: .init(byteBuffer: .init(string: "foreign origin\n"))
                )
            }
            return Response(
                status: .upgradeRequired,
                headers: Self.plain,
                body: .init(byteBuffer: .init(string: "a WebSocket is expected here\n"))
            )
        }

        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.add(middleware: GuardMiddleware(guardian: guardian))
        sockets.ws("/ws") { request, _ in
            guardian.originAllowed(request.headers[.origin], host: request.head.authority)
                ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            let client = context.request.uri.queryParameters.get("client") ?? WebToken.random()
            let (outbox, stream) = WebBridge.Outbox.make()
            let tab = bridge.open(client: String(client.prefix(64)), outbox: outbox)
            defer { bridge.close(tab: tab) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in stream {
                        do { try await outbound.write(.text(text)) } catch { return }
                    }
                    // The game let this tab go (it ended, or the tab fell too far behind): say goodbye. Not
                    // when cancelled because the page's side ended: begun from the cancelled task, the close
                    // frame did not go out, and hummingbird-websocket's own (1007, 1009) was then not sent
                    // either (the socket waited 15 s for the page's reply to a close it never saw).
                    if !Task.isCancelled { try? await outbound.close(.normalClosure, reason: nil) }
                }
                group.addTask {
                    // What ends the messages with an error (a text frame that is not UTF-8, a message too
                    // large) goes on to hummingbird-websocket, which closes with the code it carries (1007,
                    // 1009): caught here, the socket was left open and silent.
                    for try await message in inbound.messages(maxSize: maximumMessage) {
                        if case .text(let text) = message { bridge.receive(text, from: tab) }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }

        let limits = configuration.limits
        let limiter = ConnectionLimiter(capacity: limits.connections)
        let webSocketResponder = sockets.buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                additionalChannelHandlers: [RequestWatch(limiter: limiter)],
                idleTimeout: TimeAmount(limits.idleTimeout)
            ),
            // A text frame that is not UTF-8 closes the socket with 1007, as RFC 6455 asks.
            ws: .init(validateUTF8: true)
        )
        let server = HTTPServerBuilder { responder in
            LimitedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    webSocketResponder: webSocketResponder,
                    configuration: channelConfiguration
                ),
                limiter: limiter,
                headerTimeout: TimeAmount(limits.headerTimeout)
            )
        }
        return Application(
            router: router,
            server: server,
            // The kernel's queue of connections not yet accepted costs no descriptor: as long as Linux
            // allows by default (net.core.somaxconn, 4096), so that a burst does not overflow it (with
            // Hummingbird's 256 it did) and have the player's connection wait for a SYN retry (1 s, 3 s).
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil,
                backlog: 4096
            ),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
    }

    /// Why the server did not start.
    package struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for a person: one sentence, after "cannot listen on HOST:PORT: ".
        package var description: String

        init(description: String) {
            self.description = description
        }

        /// The sentence for what `bind` or the name lookup said, rather than the call that failed.
        init(_ error: any Error) {
            if let error = error as? IOError {
                description =
                    switch error.errnoCode {
                    case EADDRINUSE:
                        "another program uses this port; choose another with --port, or --port 0 for any free one."
                    case EACCES: "this user may not listen on this port; choose one above 1023 with --port."
                    case EADDRNOTAVAIL: "this machine has no such address; choose another with --host."
                    default: "\(String(cString: strerror(error.errnoCode)))."
                    }
            } else if error is SocketAddressError {
                description = "this host name is unknown; choose an address with --host, such as 127.0.0.1."
            } else {
                description = "\(error)."
            }
        }
    }

    /// Starts the server on its own threads and waits until it listens (or could not).
    ///
    /// - Parameters:
    ///   - configuration: Where and what to serve.
    ///   - bridge: Where tabs' sockets meet the game loop.
    /// - Returns: The running server and its port.
    /// - Throws: ``StartError`` when it cannot listen (the port is taken, say).
    package static func start(configuration: Configuration, bridge: WebBridge) throws(StartError) -> Running {
        var logger = Logger(label: "efb web") { StreamLogHandler.standardError(label: $0) }
        // Shutting down logs the cancellation of the listening task as an error: only worse is worth a line.
        logger.logLevel = .critical
        let outcome = Mutex<Result<Int, StartError>?>(nil)
        let settled = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let application = application(configuration: configuration, bridge: bridge, logger: logger) { port in
            outcome.withLock { $0 = $0 ?? .success(port) }
            settled.signal()
        }
        let task = Task.detached {
            do {
                try await application.run()
            } catch {
                outcome.withLock { $0 = $0 ?? .failure(StartError(error)) }
                settled.signal()
            }
            finished.signal()
        }
        settled.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let port)?:
            return Running(port: port, task: task, finished: finished)
        case .failure(let error)?:
            throw error
        case nil:
            throw StartError(description: "the server stopped before it listened")
        }
    }

    /// A server started with ``start(configuration:bridge:)``.
    package final class Running: Sendable {
        /// The port it listens on.
        package let port: Int
        private let task: Task<Void, Never>
        private let finished: DispatchSemaphore

        init(port: Int, task: Task<Void, Never>, finished: DispatchSemaphore) {
            self.port = port
            self.task = task
            self.finished = finished
        }

        /// Shuts the server down, waiting at most `seconds` for open connections to finish.
        package func stop(seconds: Double = 2) {
            task.cancel()
            _ = finished.wait(timeout: .now() + seconds)
        }
    }

    static let plain: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"]
}

/// Refuses what the ``WebGuard`` refuses, and hands the token's cookie to a page that came with it.
struct GuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let guardian: WebGuard

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let verdict = guardian.check(
            host: request.head.authority,
            queryToken: request.uri.queryParameters.get("token"),
            cookieHeader: request.headers[.cookie]
        )
        switch verdict {
        case .unauthorized:
            return Response(
                status: .unauthorized,
                headers: WebServer.plain,
                body: .init(byteBuffer: .init(string: "the token is missing: open the address efb web printed\n"))
            )
        case .forbidden:
            return Response(
                status: .forbidden,
                headers: WebServer.plain,
                body: .init(byteBuffer: .init(string: "refused\n"))
            )
        case .allowed(let setCookie):
            var response = try await next(request, context)
            if setCookie { response.headers[.setCookie] = guardian.setCookie }
            return response
        }
    }
}

/// The page's files, read once from the shipped data, and the sound pack's files on demand.
///
/// The page is found as the adventures are (``ShippedData``): `../share/games/efb/web` from the binary when
/// installed, SwiftPM's resource folder beside it when built. SwiftPM's `Bundle.module` is not used: an
/// installed binary has no bundle beside it, and the accessor would fall back to the build machine's path.
struct PageFiles: Sendable {
    private let files: [String: [UInt8]]
    private let soundFolder: String?

    /// The page's files.
    static let names = ["index.html", "app.js", "style.css"]

    init(locale: String, soundFolder: String?, pageFolder: String? = ShippedData.folder(.page)) {
        var files: [String: [UInt8]] = [:]
        for name in Self.names {
            guard let pageFolder, let data = FileManager.default.contents(atPath: "\(pageFolder)/\(name)") else {
                continue
            }
            var bytes = [UInt8](data)
            if name == "index.html" {
                let language = LocaleLanguage.code(of: locale)
                let text = String(decoding: bytes, as: UTF8.self)
                    .replacing("{{lang}}", with: language.isEmpty ? "en" : language)
                bytes = Array(text.utf8)
            }
            files[name] = bytes
        }
        self.files = files
        self.soundFolder = soundFolder
    }

    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options") ?? .contentType
    static let referrerPolicy = HTTPField.Name("Referrer-Policy") ?? .contentType

    static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    ]

    func response(for name: String) -> Response {
        guard let bytes = files[name] else { return Response(status: .notFound) }
        let type = Self.types[String(name.split(separator: ".").last ?? "")] ?? "application/octet-stream"
        var headers: HTTPFields = [
            .contentType: type,
            .cacheControl: "no-store",
            Self.contentTypeOptions: "nosniff",
            Self.referrerPolicy: "no-referrer",
        ]
        if name == "index.html" {
            headers[.contentSecurityPolicy] =
                "default-src 'self'; connect-src 'self'; media-src 'self'; img-src 'self'; frame-ancestors 'none'"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A cue or an ambience of the pack, by a name of letters, digits and hyphens only.
    func sound(kind: String, name: String) -> Response {
        guard let soundFolder, ["cues", "ambiences"].contains(kind), name.hasSuffix(".wav"),
            name.dropLast(4).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
            let data = FileManager.default.contents(atPath: "\(soundFolder)/\(kind)/\(name)")
        else { return Response(status: .notFound) }
        let headers: HTTPFields = [.contentType: "audio/wav", .cacheControl: "max-age=3600"]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
#endif
