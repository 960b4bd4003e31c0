import MicroHTTP
import Reporting
import Synchronization

/// Joins a report line's write and the response of the request that made it, in whichever order
/// they come: the writer may finish before the handler has returned its deferred response. A line
/// still unwritten when `AcknowledgementDeadlines` says its time is up (the disk is failing) is
/// withdrawn from the log's queue and answered 503: a retry does not make a duplicate. One the
/// writer is writing at that moment is answered by how that write ends.
final class WriteAcknowledgement: Sendable {
    /// The line's place in the log's queue, withdrawn when its time is up.
    let claim = WriteClaim()
    fileprivate struct State {
        var responder: Responder?
        var written: Bool?
        var answered = false
    }

    private let state = Mutex(State())

    /// The writer's outcome for the line.
    func written(_ written: Bool) {
        let responder = state.withLock { state -> Responder? in
            state.written = written
            return state.answered ? nil : state.take()
        }
        if let responder { Self.answer(responder, written) }
    }

    /// The request's response, once the handler has returned; watched by `deadlines` until written.
    func attach(_ responder: Responder, deadlines: AcknowledgementDeadlines) {
        let written = state.withLock { state -> Bool? in
            guard let written = state.written else {
                state.responder = responder
                return nil
            }
            state.answered = true
            return written
        }
        if let written {
            Self.answer(responder, written)
        } else {
            deadlines.watch(self)
        }
    }

    /// Answered, one way or the other: the deadlines let go of it.
    var hasResponse: Bool { state.withLock { $0.answered } }

    /// The line was not written in time: withdrawn and 503, unless it was written meanwhile or a
    /// write holding it is under way (its outcome answers).
    func timedOut() {
        guard claim.withdraw() else { return }
        let responder = state.withLock { state -> Responder? in state.answered ? nil : state.take() }
        if let responder { Self.answer(responder, false) }
    }

    private static func answer(_ responder: Responder, _ written: Bool) {
        if written {
            responder(Response(status: .noContent))
        } else {
            responder.fail(HTTPError(.serviceUnavailable, "The report could not be written; try again in a moment.",
                                     headers: Headers([("Retry-After", "5")])))
        }
    }
}

private extension WriteAcknowledgement.State {
    /// The response, once: answered from here on, and not held any longer.
    mutating func take() -> Responder? {
        guard let responder else { return nil }
        self.responder = nil
        answered = true
        return responder
    }
}
