// SPDX-License-Identifier: Apache-2.0
#if Web
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The connections the server holds (a ``ConnectionTable``) and their channels, shared by the event loops.
final class ConnectionLimiter: Sendable {
    private struct State {
        var table: ConnectionTable
        var channels: [Int: any Channel] = [:]
        var ids: [ObjectIdentifier: Int] = [:]
        var lastID = 0

        mutating func forget(_ id: Int) -> (any Channel)? {
            table.release(id)
            guard let channel = channels.removeValue(forKey: id) else { return nil }
            ids[ObjectIdentifier(channel)] = nil
            return channel
        }
    }

    private let state: Mutex<State>

    init(capacity: Int) {
        state = Mutex(State(table: ConnectionTable(capacity: capacity)))
    }

    /// Holds `channel` if there is room, closing the oldest idle connection to make room when full.
    ///
    /// - Returns: The connection's id, or `nil` when it is refused (the caller closes it at once).
    func admit(_ channel: any Channel) -> Int? {
        let (id, evicted): (Int?, (any Channel)?) = state.withLock { state in
            state.lastID += 1
            let id = state.lastID
            let admission = state.table.admit(id)
            if admission != .refused {
                state.channels[id] = channel
                state.ids[ObjectIdentifier(channel)] = id
            }
            switch admission {
            case .admitted: return (id, nil)
            case .admittedInPlaceOf(let old): return (id, state.forget(old))
            case .refused: return (nil, nil)
            }
        }
        evicted?.close(promise: nil)
        return id
    }

    /// The id of a held channel.
    func id(of channel: any Channel) -> Int? {
        state.withLock { $0.ids[ObjectIdentifier(channel)] }
    }

    /// Connection `id` sent a request head: it keeps its place.
    func asked(_ id: Int) {
        state.withLock { $0.table.asked(id) }
    }

    /// Connection `id` was answered: its place may be taken until it asks again.
    func answered(_ id: Int) {
        state.withLock { $0.table.answered(id) }
    }

    /// Connection `id` closed.
    func release(_ id: Int) {
        _ = state.withLock { $0.forget(id) }
    }
}

/// Closes a connection whose first request head has not arrived by its deadline, and tells when it has.
///
/// It sits first in the pipeline, before the HTTP decoder, and looks for the blank line that ends the
/// head (after a request line: blank lines before one do not count). Once it has seen it, it leaves the
/// pipeline: Hummingbird's idle timeout watches the later requests and a WebSocket's pings the socket.
final class FirstHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let onHead: @Sendable () -> Void
    private var deadline: Scheduled<Void>?
    /// How much of CR LF CR LF was just seen.
    private var matched = 0
    /// Whether a byte other than CR and LF came: the head has begun.
    private var begun = false

    init(timeout: TimeAmount, onHead: @escaping @Sendable () -> Void) {
        self.timeout = timeout
        self.onHead = onHead
    }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let complete = endsHead(Self.unwrapInboundIn(data).readableBytesView)
        context.fireChannelRead(data)
        if complete {
            deadline?.cancel()
            deadline = nil
            onHead()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// Whether `bytes` end the head, given what came before them.
    private func endsHead(_ bytes: ByteBufferView) -> Bool {
        let carriageReturn = UInt8(ascii: "\r")
        let lineFeed = UInt8(ascii: "\n")
        for byte in bytes {
            switch (matched, byte) {
            case (0, carriageReturn), (2, carriageReturn):
                matched += 1
            case (1, lineFeed):
                matched = 2
            case (3, lineFeed):
                if begun { return true }
                matched = 0
            default:
                matched = byte == carriageReturn ? 1 : 0
                if byte != carriageReturn && byte != lineFeed { begun = true }
            }
        }
        return false
    }
}

/// Tells the ``ConnectionLimiter`` when a connection has a request in hand and when it was answered.
///
/// Added by Hummingbird after the first request head (not to a WebSocket, which keeps its place).
final class RequestWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limiter: ConnectionLimiter
    private var id: Int?
    /// Requests read and not yet answered (HTTP/1.1 may pipeline them).
    private var inHand = 0

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        id = limiter.id(of: context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = Self.unwrapInboundIn(data) {
            inHand += 1
            if let id { limiter.asked(id) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ends = if case .end = Self.unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if ends {
            inHand = max(0, inHand - 1)
            if inHand == 0, let id { limiter.answered(id) }
        }
    }
}

/// Hummingbird's child channel (HTTP/1 with the WebSocket upgrade) behind the ``ConnectionLimiter`` and
/// the ``FirstHeadDeadline``.
struct LimitedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let limiter: ConnectionLimiter
    let headerTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = limiter.admit(channel)
        if let id = admitted {
            let limiter = limiter
            channel.closeFuture.whenComplete { _ in limiter.release(id) }
        }
        // A refused connection is set up as any other, with no time to ask, and closed as any other is.
        let deadline = FirstHeadDeadline(timeout: admitted == nil ? .zero : headerTimeout) { [limiter] in
            if let admitted { limiter.asked(admitted) }
        }
        do {
            try channel.pipeline.syncOperations.addHandler(deadline, position: .first)
        } catch {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
#endif
