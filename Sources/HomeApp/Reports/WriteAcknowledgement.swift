import Dispatch
import MicroHTTP
import Synchronization

/// Joins a report line's write and the reply of the request that made it, in whichever order
/// they come: the writer may finish before the handler has returned its later answer. A line
/// still unwritten after `timeout` (the disk is failing) is answered 503: not acknowledged, though
/// it stays queued and may yet be written.
final class WriteAcknowledgement: Sendable {
    static let timeout: Double = 10

    private struct State {
        var reply: Reply?
        var written: Bool?
    }

    private let state = Mutex(State())

    /// The writer's outcome for the line.
    func written(_ written: Bool) {
        let reply = state.withLock { state -> Reply? in
            state.written = written
            return state.reply
        }
        if let reply { Self.answer(reply, written) }
    }

    /// The request's reply, once the handler has returned.
    func attach(_ reply: Reply) {
        let written = state.withLock { state -> Bool? in
            state.reply = reply
            return state.written
        }
        if let written {
            Self.answer(reply, written)
        } else {
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.timeout) { [self] in
                if state.withLock({ $0.written == nil }) { Self.answer(reply, false) }
            }
        }
    }

    private static func answer(_ reply: Reply, _ written: Bool) {
        if written {
            reply(Response(status: .noContent))
        } else {
            reply.fail(HTTPError(.serviceUnavailable, "The report could not be written; try again in a moment.",
                                 headers: Headers([("Retry-After", "5")])))
        }
    }
}
