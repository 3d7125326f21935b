// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol

extension Session {
    /// Where a session is in its life, with what each part holds.
    ///
    /// After every ``Session/handle(_:now:)`` the session is playing, waiting or finished: catching up
    /// happens within one handling.
    enum Phase: Sendable {
        /// Nothing sent yet: the opening comes with the first input, with the problems the save had.
        case notStarted(problems: [ProtocolError])
        /// Inputs are carried out as they come.
        case playing(Play)
        /// A real-clock `wait` is being waited out: lines and requests are kept with it (a `cancel`,
        /// an observer's question and a line no game's are answered at once).
        case waiting(Play, PendingWait)
        /// A `wait` was answered: what it kept is carried out, in order, before anything new.
        case catchingUp(Play, InputQueue)
        /// Over (`quit`, a stop or the end of the input): every input is ignored.
        case finished
    }

    /// The game being played, as far as the session tells of it.
    struct Play: Sendable {
        /// Whether `ended` was sent for the game on show.
        var endedSent = false
    }

    /// A real-clock `wait` being waited out.
    struct PendingWait: Sendable {
        /// The request it answers.
        var replyTo: Reply?
        /// When it is over.
        var until: Int64
        /// What arrived meanwhile, to carry out once it is answered.
        var kept = InputQueue()
    }

    /// The session's time.
    enum Clock: Sendable {
        /// Moves only with `wait`.
        case virtual(Int64)
        /// The owner's monotonic clock, as last observed.
        case real(Int64)

        var time: Int64 {
            switch self {
            case .virtual(let time), .real(let time): time
            }
        }

        /// Takes the owner's time on the real clock; a virtual clock does not move with it.
        mutating func observe(_ now: Int64) {
            if case .real(let time) = self { self = .real(max(time, now)) }
        }
    }

    /// A line or requests to carry out, now or once a pending `wait` is answered: a line is decoded
    /// once, as it arrives, and keeps its length.
    enum Incoming: Sendable {
        /// A line, decoded, and who sent it.
        case line(CommandDecoder.Outcome, length: Int, origin: Origin?)
        /// A line longer than the framer takes.
        case tooLong(length: Int, origin: Origin?)
        /// A front end's own request.
        case request(Request)
        /// A front end's run of requests.
        case requests([Request])
        /// A snapshot to keep as a value for a request, then a run of requests.
        case keepingSnapshot(for: RequestID?, then: [Request])
        /// A kept snapshot to bring back as the request numbered so, then a run of requests.
        case restoring(KeptSnapshot, as: RequestID?, then: [Request])

        /// The `cancel` request it is, if it is one.
        var cancel: Request? {
            switch self {
            case .line(.request(var request), _, let origin):
                guard case .cancel = request.command else { return nil }
                request.origin = origin
                return request
            case .request(let request):
                if case .cancel = request.command { return request }
                return nil
            case .line, .tooLong, .requests, .keepingSnapshot, .restoring:
                return nil
            }
        }

        /// The bytes it holds while kept: a line's length.
        var size: Int {
            switch self {
            case .line(_, let length, _): length
            case .tooLong, .request, .requests, .keepingSnapshot, .restoring: 0
            }
        }
    }

    /// The inputs kept during a pending `wait`: first in, first out, each in constant time.
    struct InputQueue: Sendable {
        private var items: [Incoming?] = []
        private var head = 0
        /// The bytes of the lines kept.
        private(set) var bytes = 0

        /// How many inputs are kept.
        var count: Int { items.count - head }

        /// Whether none is kept.
        var isEmpty: Bool { head == items.count }

        mutating func append(_ input: Incoming) {
            items.append(input)
            bytes += input.size
        }

        /// Puts an input back at the front (what is left of a run of requests).
        mutating func putBack(_ input: Incoming) {
            if head > 0 {
                head -= 1
                items[head] = input
            } else {
                items.insert(input, at: 0)
            }
            bytes += input.size
        }

        mutating func removeFirst() -> Incoming? {
            guard head < items.count, let input = items[head] else { return nil }
            items[head] = nil
            head += 1
            bytes -= input.size
            if head == items.count {
                items.removeAll(keepingCapacity: items.count <= 4096)
                head = 0
            }
            return input
        }
    }

    /// Whom the events of a request answer: its id, echoed as `replyTo`, and where it came from.
    struct Reply: Sendable {
        /// The client's id for the request.
        var id: RequestID?
        /// The front end's origin for the request.
        var origin: Origin?

        init(id: RequestID?, origin: Origin?) {
            self.id = id
            self.origin = origin
        }

        init(_ request: Request) {
            self.init(id: request.id, origin: request.origin)
        }
    }

    /// What a command's effects send, decided before the first is sent.
    struct Plan {
        /// What each effect sends, in order.
        var steps: [Step] = []
        /// Whether the valid actions follow the effects: a focus was sent and the client wants them.
        var followedByValidActions = false
    }

    /// One effect as the session carries it out, with what 1.0 says differently about the event it sends.
    struct Step {
        /// What carrying it out does.
        enum Action {
            /// Sends an event.
            case send(Event)
            /// An element changed: `observe` hears of it, and the event that says it, if this version
            /// says anything, is sent.
            case change(Element, send: Event?)
            /// Writes progress, when it may be written, then sends `progress`.
            case save(EscapeCore.Progress)
        }

        /// What carrying it out does.
        var action: Action
        /// What 1.0 says differently about the event it sends.
        var in10 = Version10Wording()
    }
}
