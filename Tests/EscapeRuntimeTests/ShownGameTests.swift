// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// The game as a front end folds it from the events: after every command it is what the engine holds.
struct ShownGameTests {
    /// Plays commands a seeded generator picks among what the player can do (and moving, the menu and the
    /// assistive screen), and compares the fold with the engine after each one, in both protocols the
    /// console and the Braille display speak.
    @Test(arguments: [ProtocolVersion.v1_0, .v1_1])
    func agreesWithTheEngineAfterEveryCommand(version: ProtocolVersion) throws {
        let host = Support.session()
        var shown = ShownGame()
        for stamped in host.start() { shown.apply(stamped.event) }
        let hello = ClientHello(client: "test", acceptedVersions: .versions([version]))
        for stamped in host.handle(Request(id: .int(0), command: .hello(hello))) { shown.apply(stamped.event) }
        var random = SeededGenerator(seed: 46)
        let moves: [GameCommand] = [
            .next, .previous, .menu, .escape, .assistive(active: true), .assistive(active: false),
        ]
        for step in 1...600 {
            let actions = host.engine.validActions.filter { !$0.needsText }.map(\.command)
            let command = try #require((actions + moves).randomElement(using: &random))
            for stamped in host.handle(Request(id: .int(step), command: .game(command))) { shown.apply(stamped.event) }
            let engine = host.engine
            #expect(shown.focus == engine.focus, "after \(command), step \(step)")
            #expect(shown.rotor == engine.rotor, "after \(command), step \(step)")
            #expect(shown.actions == engine.actions, "after \(command), step \(step)")
            #expect(shown.screen?.id == engine.screen.id, "after \(command), step \(step)")
            // Protocol 1.0 tells only the focused element's changes: the other items stay as the screen came.
            if version != .v1_0 {
                #expect(shown.screen?.elements == engine.screen.elements, "after \(command), step \(step)")
            }
        }
        #expect(shown.locale == "en")
        #expect(shown.control == nil)
    }

    /// A shared game's `role` events: the last one says this front end's part.
    @Test func keepsTheLastRole() {
        var shown = ShownGame()
        shown.apply(.role(.observer, controlFree: false))
        shown.apply(.role(.observer, controlFree: true))
        #expect(shown.control == ShownGame.SharedControl(role: .observer, isFree: true))
        shown.apply(.role(.controller, controlFree: false))
        #expect(shown.control == ShownGame.SharedControl(role: .controller, isFree: false))
    }
}
