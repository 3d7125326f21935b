// SPDX-License-Identifier: Apache-2.0
import EscapeCore
package import EscapeProtocol

/// One game shared by many members (`efb serve`'s clients, `efb web`'s tabs): who controls it, who
/// follows it, what each may send, and where the answers to each request go.
///
/// A value with no I/O, in the style of swift-nio's state machines: each input (a member joins,
/// claims control, takes it over, hands it over, leaves, sends a command, an answer arrives) changes
/// the state and returns what the owner must do, which the front end performs in its own words on its
/// own transport. What a front end does differently on purpose stays outside: `efb serve` refuses a
/// claim while another member controls (``claim(_:)``), `efb web` lets a tab take over
/// (``takeOver(_:)``); a web tab first chooses before it follows the game (`follows: false`).
///
/// The rules it keeps, for every front end alike:
/// - At most one member controls the game, and it follows it. A member that joins while nobody
///   controls takes control.
/// - Whenever a member's part or the control's availability changes, every member that follows is
///   told (a ``RoleNotice``), the one whose own request changed it among them.
/// - The controller's commands go to the game; an observer may only ask (its questions are answered
///   to it alone, at once) or leave; anything else of an observer's is refused with ``Refusal/readOnly(command:)``.
/// - The answers to a request go to the member that asked alone, but for the game's events its
///   command caused, which every member that follows receives too.
package struct SharedGame: Sendable, Hashable {
    /// What a request a front end hands the session is for: the ``Origin/mark`` that routes its answers.
    package enum Purpose: Int, Sendable, Hashable, CaseIterable {
        /// The front end's own request (its `hello` at the opening): its answers go to no member.
        case frontEnd
        /// Catching a member up with the whole state: its answers go to that member alone.
        case catchUp
        /// A question, or a line the session could not read: the answers are the asker's alone.
        case question
        /// The controller's command: replies to it, the game's events to every member that follows.
        case play
        /// The controller's `restore`: as ``play``, and every other member is caught up after it.
        case restore
        /// The controller's `hello`: replies to it; the others get only a screen it changed.
        case hello
        /// A request asked for a member whose input ended: its `done` says every line was answered.
        case farewell

        /// The origin of a request of `member` for this purpose.
        package func origin(_ member: Int) -> Origin { Origin(client: member, mark: rawValue) }
    }

    /// A member to tell its part.
    package struct RoleNotice: Sendable, Hashable {
        /// Why the member is told.
        package enum Cause: Sendable, Hashable {
            /// It joined.
            case joined
            /// Its own request changed its part (a claim, a hand-over, a take-over, a choice to watch).
            case asked
            /// Another member took control from it.
            case takenOver
            /// The control changed hands or came free.
            case controlChanged
        }

        /// The member.
        package var member: Int
        /// Its part.
        package var role: ClientRole
        /// Whether nobody controls the game.
        package var controlFree: Bool
        /// Why it is told.
        package var cause: Cause

        /// Creates a notice.
        package init(member: Int, role: ClientRole, controlFree: Bool, cause: Cause) {
            self.member = member
            self.role = role
            self.controlFree = controlFree
            self.cause = cause
        }
    }

    /// What an input changed that members must hear.
    package struct Change: Sendable, Hashable {
        /// The members to tell their part, in order: the one the input is about first.
        package var notices: [RoleNotice]
        /// A member that starts following the game: it is caught up with the whole state.
        package var startsFollowing: Int?

        /// Creates a change.
        package init(notices: [RoleNotice] = [], startsFollowing: Int? = nil) {
            self.notices = notices
            self.startsFollowing = startsFollowing
        }
    }

    /// The answer to a member's claim of control.
    package enum Claim: Sendable, Hashable {
        /// It controls the game now.
        case granted(Change)
        /// It already controlled the game: nothing changed.
        case alreadyHeld
        /// Another member controls the game.
        case refused(Refusal)
    }

    /// What to do with a member's command.
    package enum CommandAction: Sendable, Hashable {
        /// The controller's: to the session in its turn, its answers routed for `purpose`.
        case play(Purpose)
        /// An observer's question: answered at once, to it alone (``Purpose/question``).
        case ask
        /// An observer's `quit`: it leaves; the game goes on.
        case leave
        /// Refused, and nothing changes.
        case refuse(Refusal)
    }

    /// Where an event the session sent goes.
    package enum Delivery: Sendable, Hashable {
        /// To no member.
        case nowhere
        /// To the member that asked, alone.
        case asker(Int)
        /// To the member that asked, and a copy to every other member that follows.
        case askerAndFollowers(Int)
        /// To every member that follows: what no request asked for (time passing, a failed save).
        case followers
        /// The `done` of a catch-up: the member has the whole state.
        case caughtUp(Int)
        /// The `done` of a farewell: every line the member sent is answered; it may go.
        case farewell(Int)
        /// The `done` of the controller's `restore`: to it, and every other member that follows is caught up.
        case restored(Int)
    }

    /// Why a shared game refuses a member something; worded by ``error(in:)``, the same for every front end.
    package enum Refusal: Sendable, Hashable {
        /// An observer's command that would change the game.
        case readOnly(command: String)
        /// A claim of control while another member controls the game.
        case controlled
        /// A command this front end never takes (`efb web`: the page never ends the game).
        case notTaken
        /// A member past the limit of `limit` members.
        case tooManyClients(limit: Int)
        /// A member that never sent a line, let go to make room for a newer one at the limit of `limit`.
        case madeRoom(limit: Int)
        /// A member's unread output over `limit` bytes: the game's events are dropped until it reads.
        case overflow(limit: Int)

        /// The refusal as the protocol's `error`, in `words`.
        package func error(in words: SessionWords) -> ProtocolError {
            switch self {
            case .readOnly(let command): ProtocolError(.readOnly, words(.errorReadOnly, ["command": command]))
            case .controlled: ProtocolError(.controlled, words(.errorControlled), field: "role")
            case .notTaken: ProtocolError(.unknownCommand, words(.errorNotTaken))
            case .tooManyClients(let limit):
                ProtocolError(.tooManyClients, words(.errorTooManyClients, ["limit": "\(limit)"]))
            case .madeRoom(let limit): ProtocolError(.tooManyClients, words(.errorMadeRoom, ["limit": "\(limit)"]))
            case .overflow(let limit): ProtocolError(.overflow, words(.errorOverflow, ["limit": "\(limit)"]))
            }
        }
    }

    /// Every member, and whether it follows the game (receives its events).
    private var following: [Int: Bool] = [:]
    /// The member that controls the game; it always follows.
    private var controller: Int?
    /// The controller's `hello` being answered changed the screen on show: the others get the new
    /// screen and its valid actions, and nothing else of the reply.
    private var helloMovedScreen = false

    /// What the opening said unasked that every member starting to follow is told: problems (a locked
    /// save) always.
    private var openingProblems: [Event] = []
    /// The opening's announcements (a resumed game's "Welcome back"), told only while the game has not
    /// moved on from ``openingGeneration``.
    private var openingAnnouncements: [Event] = []
    private var openingGeneration = 0

    /// A game with no members.
    package init() {}

    /// The member that controls the game, if any.
    package var controllingMember: Int? { controller }

    /// Whether nobody controls the game.
    package var isControlFree: Bool { controller == nil }

    /// Every member that follows the game, in order.
    package var followers: [Int] { following.filter(\.value).keys.sorted() }

    /// The part of `member`, or `nil` when it is not a member.
    package func role(of member: Int) -> ClientRole? {
        guard following[member] != nil else { return nil }
        return controller == member ? .controller : .observer
    }

    /// Whether `member` follows the game.
    package func follows(_ member: Int) -> Bool { following[member] ?? false }

    // MARK: - Members

    /// A member joins; it takes control when nobody has it, and then follows the game whatever `follows` says.
    ///
    /// - Parameters:
    ///   - member: The new member's number, not a member's yet.
    ///   - follows: Whether it follows the game from now on (a web tab first chooses).
    /// - Returns: Its own notice first, then the others' when it took control.
    package mutating func join(_ member: Int, follows: Bool) -> Change {
        precondition(following[member] == nil, "member \(member) joined twice")
        following[member] = follows
        var change = Change()
        if controller == nil {
            following[member] = true
            change = takeControl(member, cause: .joined)
        } else {
            change.notices = [notice(member, .joined)]
        }
        if self.follows(member) { change.startsFollowing = member }
        return change
    }

    /// A member asks for control, which it gets only while nobody has it (`efb serve`'s `hello` with
    /// `role: "controller"`).
    package mutating func claim(_ member: Int) -> Claim {
        precondition(following[member] != nil, "member \(member) is not in the game")
        switch controller {
        case member?: return .alreadyHeld
        case nil: return .granted(startFollowing(member, takeControl(member, cause: .asked)))
        case .some: return .refused(.controlled)
        }
    }

    /// A member takes control, from whoever has it (`efb web`'s `web.takeOver`).
    ///
    /// - Returns: The previous controller's notice first (``RoleNotice/Cause/takenOver``), then the
    ///   member's own, then the others' when control was free.
    package mutating func takeOver(_ member: Int) -> Change {
        precondition(following[member] != nil, "member \(member) is not in the game")
        guard controller != member else { return Change() }
        var change = Change()
        if let previous = controller {
            controller = member
            change.notices = [notice(previous, .takenOver), notice(member, .asked)]
        } else {
            change = takeControl(member, cause: .asked)
        }
        return startFollowing(member, change)
    }

    /// A member gives control up if it has it, and follows the game as an observer (`efb serve`'s
    /// `hello` with `role: "observer"`, `efb web`'s `web.watch`).
    ///
    /// - Returns: The member's notice when its part changed (it had control, or did not follow yet),
    ///   then the others' when control came free.
    package mutating func release(_ member: Int) -> Change {
        precondition(following[member] != nil, "member \(member) is not in the game")
        var change = Change()
        if controller == member {
            controller = nil
            change.notices = [notice(member, .asked)] + noticesOfOthers(but: member)
        } else if !follows(member) {
            change.notices = [notice(member, .asked)]
        }
        return startFollowing(member, change)
    }

    /// A member leaves; control comes free when it had it.
    ///
    /// - Returns: The notices of every member that follows when control came free.
    package mutating func leave(_ member: Int) -> Change {
        guard following.removeValue(forKey: member) != nil else { return Change() }
        guard controller == member else { return Change() }
        controller = nil
        helloMovedScreen = false
        return Change(notices: noticesOfOthers(but: member))
    }

    private mutating func takeControl(_ member: Int, cause: RoleNotice.Cause) -> Change {
        controller = member
        return Change(notices: [notice(member, cause)] + noticesOfOthers(but: member))
    }

    private mutating func startFollowing(_ member: Int, _ change: Change) -> Change {
        guard !follows(member) else { return change }
        following[member] = true
        var change = change
        change.startsFollowing = member
        return change
    }

    private func notice(_ member: Int, _ cause: RoleNotice.Cause) -> RoleNotice {
        RoleNotice(
            member: member,
            role: controller == member ? .controller : .observer,
            controlFree: controller == nil,
            cause: cause
        )
    }

    private func noticesOfOthers(but member: Int) -> [RoleNotice] {
        followers.filter { $0 != member }.map { notice($0, .controlChanged) }
    }

    // MARK: - The opening

    /// Keeps what the opening said unasked at `generation`, for the members that start following later.
    package mutating func rememberOpening(_ event: Event, generation: Int) {
        switch event {
        case .error:
            openingProblems.append(event)
        case .game(.announce):
            openingAnnouncements.append(event)
            openingGeneration = generation
        case .game, .hello, .progress, .done, .bye, .ended, .validActions, .observation, .snapshot, .idle, .role:
            break
        }
    }

    /// What the opening said that a member starting to follow at `generation` is told: its problems,
    /// then its announcements while the game has not moved on.
    package func opening(at generation: Int) -> [Event] {
        openingProblems + (generation == openingGeneration ? openingAnnouncements : [])
    }

    // MARK: - Commands

    /// What to do with `command` from `member`: the controller plays, an observer asks or leaves.
    ///
    /// A `hello` changes nothing of the game, so an observer's is a question here: a front end that
    /// lets a `hello` claim or hand over control calls ``claim(_:)`` or ``release(_:)`` first.
    package func command(_ command: Command, from member: Int) -> CommandAction {
        guard controller == member else {
            guard !command.changesGame else { return .refuse(.readOnly(command: command.wireName)) }
            switch command {
            case .quit: return .leave
            case .hello, .game, .onElement, .state, .ping, .wait, .validActions, .observe, .snapshot, .restore,
                .batch, .cancel:
                return .ask
            }
        }
        switch command {
        case .restore: return .play(.restore)
        case .hello: return .play(.hello)
        case .game, .onElement, .state, .ping, .wait, .quit, .validActions, .observe, .snapshot, .batch, .cancel:
            return .play(command.isQuestion ? .question : .play)
        }
    }

    // MARK: - Answers

    /// Where `event` goes, the session having stamped it with the origin of the request it answers.
    ///
    /// - Parameters:
    ///   - event: The session's event.
    ///   - origin: The origin of the request it answers (its ``Origin/mark`` a ``Purpose``), or `nil`
    ///     for what no request asked for.
    /// - Returns: The members it goes to, and what its arrival means.
    package mutating func deliver(_ event: Event, answering origin: Origin?) -> Delivery {
        guard let origin, let purpose = Purpose(rawValue: origin.mark) else { return .followers }
        let asker = origin.client
        switch purpose {
        case .frontEnd:
            return .nowhere
        case .catchUp:
            return event == .done ? .caughtUp(asker) : .asker(asker)
        case .question:
            return .asker(asker)
        case .farewell:
            return event == .done ? .farewell(asker) : .nowhere
        case .play:
            return Self.isReply(event) ? .asker(asker) : .askerAndFollowers(asker)
        case .restore:
            if event == .done { return .restored(asker) }
            return Self.isReply(event) ? .asker(asker) : .askerAndFollowers(asker)
        case .hello:
            switch event {
            case .done:
                helloMovedScreen = false
                return .asker(asker)
            case .game(.timer):
                // Time pressure turned off: every member's countdown stops.
                return .askerAndFollowers(asker)
            case .game(.screen), .game(.focus):
                helloMovedScreen = true
                return .askerAndFollowers(asker)
            case .validActions where helloMovedScreen:
                return .askerAndFollowers(asker)
            case .game, .hello, .error, .snapshot, .observation, .role, .progress, .bye, .ended, .validActions, .idle:
                return .asker(asker)
            }
        }
    }

    /// Events that answer one member and mean nothing to the others.
    private static func isReply(_ event: Event) -> Bool {
        switch event {
        case .hello, .error, .done, .snapshot, .observation, .role: true
        case .game, .progress, .bye, .ended, .validActions, .idle: false
        }
    }
}
