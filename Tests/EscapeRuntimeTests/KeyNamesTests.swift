// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// The key names a front end sends in `hello` end up in the chapters' teaching texts.
@Suite struct KeyNamesTests {
    private func chapterText(_ events: [StampedEvent]) -> String? {
        for stamped in events {
            if case .game(.screen(let screen)) = stamped.event, screen.kind == .chapter {
                return screen.elements.first { $0.id == "text" }?.label
            }
        }
        return nil
    }

    private func hello(keys: [Gesture: String]) -> Request {
        Request(
            id: .string("hello"),
            command: .hello(ClientHello(client: "test", acceptedVersions: .versions([.v1_0]), keys: keys))
        )
    }

    @Test func aChapterNamesTheKeysItsInteractionNeeds() {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(hello(keys: [.next: "LNDN", .activate: "ROUTE", .rotor: "NXPGRPH", .menu: "INFO"]))
        let events = session.handle(Request(command: .game(.escape)))
        let text = chapterText(events)
        #expect(text?.hasSuffix("Your keys for this chapter: next: LNDN, activate: ROUTE, level menu: INFO.") == true)
        // The rotor key belongs to a later chapter, not to this one.
        #expect(text?.contains("NXPGRPH") == false)
    }

    @Test func withoutKeyNamesTheTextIsTheDescriptionAlone() {
        let session = Support.session()
        _ = session.start()
        let text = chapterText(session.handle(Request(command: .game(.escape))))
        #expect(text == Support.adventure.chapters[0].description)
    }

    @Test func namingKeysOnAChapterScreenShowsItAgain() {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(Request(command: .game(.escape)))
        let generation = session.engine.generation
        let events = session.handle(hello(keys: [.hint: "HELP"]))
        #expect(chapterText(events)?.hasSuffix("hint: HELP.") == true)
        #expect(session.engine.generation == generation + 1)
        // The same names again change nothing.
        #expect(chapterText(session.handle(hello(keys: [.hint: "HELP"]))) == nil)
    }

    @Test func aSnapshotKeepsTheKeyNamesByTheirWireNames() throws {
        let session = Support.session()
        _ = session.start()
        _ = session.handle(hello(keys: [.magicTap: "HOME", .rotorItem: "NXDIFLN"]))
        let answer = session.handle(Request(command: .snapshot))
        guard case .snapshot(let blob) = answer.first?.event else {
            Issue.record("no snapshot event")
            return
        }
        let payload = String(decoding: try #require(SnapshotCodec.payload(of: blob)), as: UTF8.self)
        #expect(payload.contains(#""keyNames":{"magicTap":"HOME","rotorItem":"NXDIFLN"}"#))

        let restored = Support.session()
        _ = restored.start()
        #expect(restored.handle(Request(command: .restore(blob: blob))).map(\.event) == [.done])
        #expect(restored.engine.keyNames == [.magicTap: "HOME", .rotorItem: "NXDIFLN"])

        // A name of no gesture, in a blob made by hand, is left out.
        let crafted = SnapshotCodec.sign(Array(payload.replacing("magicTap", with: "zz").utf8))
        let other = Support.session()
        _ = other.start()
        #expect(other.handle(Request(command: .restore(blob: crafted))).map(\.event) == [.done])
        #expect(other.engine.keyNames == [.rotorItem: "NXDIFLN"])
    }
}
