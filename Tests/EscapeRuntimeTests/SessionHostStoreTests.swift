// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Issue 24: the short `SessionHost` initialiser passes a store's refusal on instead of trapping, so a
/// program embedding the engine can tell its player that the path is someone else's file.
@Suite struct SessionHostStoreTests {
    @Test func aFileThatIsNotASaveIsRefusedUntouched() throws {
        let folder = try temporaryFolder("host-store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.txt").path
        let text = Array("export PATH=$HOME/bin:$PATH\n".utf8)
        try Data(text).write(to: URL(fileURLWithPath: path))
        let refusal = #expect(throws: SaveError.self) {
            _ = try SessionHost(
                adventure: Support.adventure,
                options: EngineOptions(seed: 1),
                store: FileSaveStore(path: path),
                clock: VirtualClock()
            )
        }
        guard case .notASave(let refused, _) = refusal else {
            Issue.record("expected notASave, got \(String(describing: refusal))")
            return
        }
        #expect(refused == path)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    @Test func aFileSaveOpensAndPlays() throws {
        let folder = try temporaryFolder("host-store")
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = try SessionHost(
            adventure: Support.adventure,
            options: EngineOptions(seed: 1),
            store: FileSaveStore(path: folder.appendingPathComponent("progress.json").path),
            clock: VirtualClock()
        )
        #expect(host.start().contains { $0.event == .done } == false)
        #expect(host.handle(Request(command: .ping)).last?.event == .done)
    }
}
