import CMicroHTTPD
import Synchronization

/// One request waiting for its deferred response, its connection suspended meanwhile. The first
/// answer resumes the connection; libmicrohttpd then calls the access handler once more, which
/// takes the response and queues it on the connection's own thread.
final class DeferredResponse: Sendable {
    private struct State {
        var responded = false
        var response: Response?
    }

    let core: ServerCore
    let requestID: String
    let path: String
    /// The suspended connection, as an address: pointers are not Sendable.
    private let connection: UInt
    private let state = Mutex(State())

    init(core: ServerCore, connection: OpaquePointer, requestID: String, path: String) {
        self.core = core
        self.connection = UInt(bitPattern: connection)
        self.requestID = requestID
        self.path = path
    }

    var hasResponse: Bool { state.withLock { $0.responded } }

    /// Keeps the first response and resumes the connection, exactly once: libmicrohttpd's resume of
    /// a connection that is not suspended is undefined behaviour.
    func give(_ response: Response) {
        var response = response
        if response.deferred != nil {
            core.logger.error("a later answer was itself later", metadata: ["request": "\(requestID)"])
            response = core.errorResponse(.internalServerError, ServerCore.internalErrorMessage, id: requestID)
        }
        let first = state.withLock { state in
            guard !state.responded else { return false }
            state.responded = true
            state.response = response
            return true
        }
        guard first else { return }
        core.owed.remove(self)
        MHD_resume_connection(OpaquePointer(bitPattern: connection))
    }

    /// The answer, once; nil if there is none yet.
    func take() -> Response? {
        state.withLock { state in
            defer { state.response = nil }
            return state.response
        }
    }
}
