import MicroHTTP
import Reporting
import Synchronization

/// Joins a report line's write and the reply of the request that made it, in whichever order
/// they come: the writer may finish before the handler has returned its later answer. A line
/// still unwritten when `AcknowledgementDeadlines` says its time is up (the disk is failing) is
/// withdrawn from the log's queue and answered 503: a retry does not make a duplicate. One the
/// writer is writing at that moment is answered by how that write ends.
final class WriteAcknowledgement: Sendable {
    /// The line's place in the log's queue, withdrawn when its time is up.
    let claim = WriteClaim()
    fileprivate struct State {
        var reply: Reply?
        var written: Bool?
        var answered = false
    }

    private let state = Mutex(State())

    /// The writer's outcome for the line.
    func written(_ written: Bool) {
        let reply = state.withLock { state -> Reply? in
            state.written = written
            return state.answered ? nil : state.take()
        }
        if let reply { Self.answer(reply, written) }
    }

    /// The request's reply, once the handler has returned; watched by `deadlines` until written.
    func attach(_ reply: Reply, deadlines: AcknowledgementDeadlines) {
        let written = state.withLock { state -> Bool? in
            guard let written = state.written else {
                state.reply = reply
                return nil
            }
            state.answered = true
            return written
        }
        if let written {
            Self.answer(reply, written)
        } else {
            deadlines.watch(self)
        }
    }

    /// Answered, one way or the other: the deadlines let go of it.
    var isAnswered: Bool { state.withLock { $0.answered } }

    /// The line was not written in time: withdrawn and 503, unless it was written meanwhile or a
    /// write holding it is under way (its outcome answers).
    func timedOut() {
        guard claim.withdraw() else { return }
        let reply = state.withLock { state -> Reply? in state.answered ? nil : state.take() }
        if let reply { Self.answer(reply, false) }
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

private extension WriteAcknowledgement.State {
    /// The reply, once: answered from here on, and not held any longer.
    mutating func take() -> Reply? {
        guard let reply else { return nil }
        self.reply = nil
        answered = true
        return reply
    }
}
