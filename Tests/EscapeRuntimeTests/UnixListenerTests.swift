// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The socket `efb serve` listens on, as a client that races the server's start sees it.
struct UnixListenerTests {
    /// Listeners made per run: on the code before, about one client in a thousand was refused.
    private static let rounds = 3_000

    /// What a client that connects the moment the socket's path appears gets.
    private final class Racer: @unchecked Sendable {
        let path: String
        let spinning = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        /// Set by the racing thread before it signals `done`, read after.
        var refused = false

        init(path: String) { self.path = path }

        /// Starts a thread that spins on the path and connects as soon as it exists.
        func start() {
            let thread = Thread { [self] in
                var status = stat()
                spinning.signal()
                let deadline = Date().addingTimeInterval(5)
                while lstat(path, &status) != 0, Date() < deadline {}
                do throws(ListenError) {
                    close(try UnixListener.connect(to: path))
                } catch {
                    if case .system(_, _, let code) = error, code == ECONNREFUSED { refused = true }
                }
                done.signal()
            }
            thread.start()
            spinning.wait()
        }
    }

    /// A client that connects the moment the socket's path appears is accepted, every time.
    ///
    /// Before, the socket was bound at its path and only then listened on: a client that found the path
    /// in between was refused (ECONNREFUSED), as the protocol's doctest once was in CI when it connected
    /// the moment `efb serve` made its socket. Here a thread spins on the path of each of 3,000 listeners
    /// and connects the moment it appears; none may be refused.
    @Test func aClientThatFindsTheSocketIsNeverRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("efb-listen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700]
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        var refused = 0
        for round in 0..<Self.rounds {
            let racer = Racer(path: folder.appendingPathComponent("game-\(round)").path)
            racer.start()
            let listener = try UnixListener(path: racer.path)
            racer.done.wait()
            if racer.refused { refused += 1 }
            withExtendedLifetime(listener) {}
        }
        #expect(refused == 0, "\(refused) of \(Self.rounds) clients were refused by a socket they found")
    }
}
