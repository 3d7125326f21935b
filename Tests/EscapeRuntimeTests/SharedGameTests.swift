// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import EscapeRuntime
import Testing

/// The shared-game machine that `efb serve` and `efb web` both follow.
///
/// Roles, claim and hand-over, what an observer may send, and where each answer goes; each step states
/// the exact notices and actions.
struct SharedGameTests {
    typealias Notice = SharedGame.RoleNotice

    /// A game where member 1 controls and member 2 observes, both following.
    static func pair() -> SharedGame {
        var game = SharedGame()
        _ = game.join(1, follows: true)
        _ = game.join(2, follows: true)
        return game
    }

    static let announce = Event.game(.announce(Announcement("a clock ticks", category: .narrative)))
    static let focus = Event.game(
        .focus(
            FocusState(
                screen: "intro-1",
                element: Element(id: "text", label: "Text", traits: [.staticText]),
                index: 0,
                count: 2
            )
        )
    )
    static let validActions = Event.validActions(screen: "intro-1", actions: [])
    static let clientHello = ClientHello(client: "test", acceptedVersions: .versions([.v1_1]))
    static let serverHello = ServerHello(
        protocolVersion: 1,
        version: .v1_1,
        versions: [.v1_1],
        engineVersion: "0.1.0",
        locale: "en",
        adventureID: "escape-from-blindness",
        adventureTitle: "Escape",
        capabilities: []
    )

    @Test func theFirstToJoinControlsAndTheNextObserves() {
        var game = SharedGame()
        #expect(
            game.join(1, follows: true)
                == SharedGame.Change(
                    notices: [Notice(member: 1, role: .controller, controlFree: false, cause: .joined)],
                    startsFollowing: 1
                )
        )
        #expect(
            game.join(2, follows: true)
                == SharedGame.Change(
                    notices: [Notice(member: 2, role: .observer, controlFree: false, cause: .joined)],
                    startsFollowing: 2
                )
        )
        #expect(game.role(of: 1) == .controller)
        #expect(game.role(of: 2) == .observer)
        #expect(game.role(of: 3) == nil)
        #expect(game.controllingMember == 1)
        #expect(game.followers == [1, 2])
    }

    @Test func aClaimWhileAnotherControlsIsRefusedAndChangesNothing() {
        var game = Self.pair()
        let before = game
        #expect(game.claim(2) == .refused(.controlled))
        #expect(game == before)
        #expect(game.claim(1) == .alreadyHeld)
        #expect(game == before)
    }

    @Test func handingOverFreesControlForAClaimAndEveryoneIsTold() {
        var game = Self.pair()
        _ = game.join(3, follows: true)
        #expect(
            game.release(1).notices == [
                Notice(member: 1, role: .observer, controlFree: true, cause: .asked),
                Notice(member: 2, role: .observer, controlFree: true, cause: .controlChanged),
                Notice(member: 3, role: .observer, controlFree: true, cause: .controlChanged),
            ]
        )
        #expect(game.isControlFree)
        // An observer's hand-over changes nothing: nobody is told.
        #expect(game.release(2) == SharedGame.Change())
        #expect(
            game.claim(2)
                == .granted(
                    SharedGame.Change(notices: [
                        Notice(member: 2, role: .controller, controlFree: false, cause: .asked),
                        Notice(member: 1, role: .observer, controlFree: false, cause: .controlChanged),
                        Notice(member: 3, role: .observer, controlFree: false, cause: .controlChanged),
                    ])
                )
        )
        #expect(game.controllingMember == 2)
    }

    @Test func aControllerLeavingFreesControlAndTheNextToJoinTakesItTellingTheOthers() {
        var game = Self.pair()
        // An observer leaving changes nobody's part.
        _ = game.join(3, follows: true)
        #expect(game.leave(3) == SharedGame.Change())
        #expect(
            game.leave(1).notices == [Notice(member: 2, role: .observer, controlFree: true, cause: .controlChanged)]
        )
        #expect(game.role(of: 1) == nil)
        #expect(game.leave(1) == SharedGame.Change())
        // Before, efb serve told the newcomer alone: the observer still believed control was free.
        #expect(
            game.join(4, follows: true)
                == SharedGame.Change(
                    notices: [
                        Notice(member: 4, role: .controller, controlFree: false, cause: .joined),
                        Notice(member: 2, role: .observer, controlFree: false, cause: .controlChanged),
                    ],
                    startsFollowing: 4
                )
        )
    }

    @Test func takingOverTellsThePreviousControllerThatControlIsTaken() {
        var game = SharedGame()
        _ = game.join(1, follows: false)
        let chooser = game.join(2, follows: false)
        // A member that has not chosen does not follow yet.
        #expect(chooser.startsFollowing == nil)
        #expect(game.followers == [1])
        #expect(
            game.takeOver(2)
                == SharedGame.Change(
                    notices: [
                        Notice(member: 1, role: .observer, controlFree: false, cause: .takenOver),
                        Notice(member: 2, role: .controller, controlFree: false, cause: .asked),
                    ],
                    startsFollowing: 2
                )
        )
        #expect(game.takeOver(2) == SharedGame.Change())
    }

    @Test func onlyMembersThatFollowHearOfControl() {
        var game = SharedGame()
        _ = game.join(1, follows: false)
        _ = game.join(2, follows: false)
        // The chooser (2) is not told that control came free; it is told its part once it watches.
        #expect(game.release(1).notices == [Notice(member: 1, role: .observer, controlFree: true, cause: .asked)])
        #expect(
            game.release(2)
                == SharedGame.Change(
                    notices: [Notice(member: 2, role: .observer, controlFree: true, cause: .asked)],
                    startsFollowing: 2
                )
        )
        #expect(
            game.takeOver(2).notices == [
                Notice(member: 2, role: .controller, controlFree: false, cause: .asked),
                Notice(member: 1, role: .observer, controlFree: false, cause: .controlChanged),
            ]
        )
    }

    @Test func anObserverAsksOrLeavesAndIsRefusedAnythingElse() {
        let game = Self.pair()
        #expect(game.command(.game(.next), from: 2) == .refuse(.readOnly(command: "next")))
        #expect(
            game.command(.onElement(element: "continue", .activate(element: nil)), from: 2)
                == .refuse(.readOnly(command: "activate"))
        )
        #expect(game.command(.state, from: 2) == .ask)
        #expect(game.command(.game(.repeatAnnouncement), from: 2) == .ask)
        #expect(game.command(.hello(Self.clientHello), from: 2) == .ask)
        #expect(game.command(.quit, from: 2) == .leave)
        // The controller plays; its questions and its restore and hello are told apart for their answers.
        #expect(game.command(.game(.next), from: 1) == .play(.play))
        #expect(game.command(.state, from: 1) == .play(.question))
        #expect(game.command(.quit, from: 1) == .play(.play))
        #expect(game.command(.hello(Self.clientHello), from: 1) == .play(.hello))
    }

    @Test func anAnswerGoesToItsOriginOnlyAndTheGamesEventsToEveryFollower() {
        var game = Self.pair()
        let play = SharedGame.Purpose.play.origin(1)
        #expect(game.deliver(.done, answering: play) == .asker(1))
        #expect(game.deliver(.error(ProtocolError(.stale, "moved on")), answering: play) == .asker(1))
        #expect(game.deliver(Self.focus, answering: play) == .askerAndFollowers(1))
        // A question's answers, the screen included, are the asker's alone.
        let question = SharedGame.Purpose.question.origin(2)
        #expect(game.deliver(Self.focus, answering: question) == .asker(2))
        #expect(game.deliver(.done, answering: question) == .asker(2))
        let catchUp = SharedGame.Purpose.catchUp.origin(2)
        #expect(game.deliver(Self.focus, answering: catchUp) == .asker(2))
        #expect(game.deliver(.done, answering: catchUp) == .caughtUp(2))
        #expect(game.deliver(.done, answering: SharedGame.Purpose.restore.origin(1)) == .restored(1))
        #expect(game.deliver(.done, answering: SharedGame.Purpose.farewell.origin(2)) == .farewell(2))
        #expect(game.deliver(.hello(Self.serverHello), answering: SharedGame.Purpose.frontEnd.origin(0)) == .nowhere)
        #expect(game.deliver(Self.announce, answering: nil) == .followers)
    }

    @Test func ofTheControllersHelloTheOthersGetOnlyAScreenItChanged() {
        var game = Self.pair()
        let hello = SharedGame.Purpose.hello.origin(1)
        #expect(game.deliver(.hello(Self.serverHello), answering: hello) == .asker(1))
        #expect(game.deliver(Self.validActions, answering: hello) == .asker(1))
        #expect(game.deliver(.done, answering: hello) == .asker(1))
        #expect(game.deliver(Self.focus, answering: hello) == .askerAndFollowers(1))
        #expect(game.deliver(Self.validActions, answering: hello) == .askerAndFollowers(1))
        #expect(game.deliver(.done, answering: hello) == .asker(1))
        // The next hello starts afresh.
        #expect(game.deliver(Self.validActions, answering: hello) == .asker(1))
    }

    @Test func theOpeningsProblemsAreAlwaysToldItsWelcomeBackUntilTheGameMovesOn() {
        var game = SharedGame()
        let locked = Event.error(ProtocolError(.saveLocked, "another game holds the save"))
        game.rememberOpening(.hello(Self.serverHello), generation: 0)
        game.rememberOpening(locked, generation: 0)
        game.rememberOpening(Self.announce, generation: 0)
        game.rememberOpening(Self.focus, generation: 0)
        #expect(game.opening(at: 0) == [locked, Self.announce])
        #expect(game.opening(at: 1) == [locked])
    }

    @Test(arguments: EngineWords.Language.allCases)
    func theRefusalsAreWordedOnceInEveryLanguage(language: EngineWords.Language) {
        let words = SessionWords(language)
        let readOnly = SharedGame.Refusal.readOnly(command: "next").error(in: words)
        #expect(readOnly.code == .readOnly)
        #expect(readOnly.message == words(.errorReadOnly, ["command": "next"]))
        #expect(readOnly.message.contains("next"))
        let controlled = SharedGame.Refusal.controlled.error(in: words)
        #expect(controlled.code == .controlled)
        #expect(controlled.field == "role")
        #expect(SharedGame.Refusal.notTaken.error(in: words).code == .unknownCommand)
        #expect(SharedGame.Refusal.notTaken.error(in: words).message == words(.errorNotTaken))
        #expect(SharedGame.Refusal.madeRoom(limit: 16).error(in: words).code == .tooManyClients)
        #expect(SharedGame.Refusal.tooManyClients(limit: 16).error(in: words).message.contains("16"))
        #expect(SharedGame.Refusal.overflow(limit: 9).error(in: words).code == .overflow)
    }
}
