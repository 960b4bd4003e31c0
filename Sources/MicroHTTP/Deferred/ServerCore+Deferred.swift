import CMicroHTTPD

extension ServerCore {
    static let shuttingDownMessage = "The server is shutting down; try again in a moment."
    static let internalErrorMessage = "Something went wrong on our side. The request id below says where."

    /// Suspends the connection, then lets the handler's work begin: suspended first, so a response
    /// given at once (even before this returns) finds a connection it may resume.
    func startDeferred(_ deferred: Deferred, for context: RequestState, on connection: OpaquePointer,
                       path: Substring) -> MHD_Result {
        let pending = DeferredResponse(core: self, connection: connection, requestID: context.id, path: String(path))
        context.deferredResponse = pending
        MHD_suspend_connection(connection)
        if !owed.add(pending) {
            pending.give(shuttingDown(id: context.id))
        }
        // Started even when already answered, so whoever holds resources for it (a work pool's
        // place) sees the response and lets them go.
        deferred.start(Responder(pending: pending))
        return .YES
    }

    /// The access handler's call after the response resumed the connection.
    func sendDeferred(_ pending: DeferredResponse, method: Method, for context: RequestState,
                      on connection: OpaquePointer) -> MHD_Result {
        guard var response = pending.take() else { return .YES }
        if context.https { response.secureForHTTPS() }
        return queue(method == .head ? HeadResponse.strip(response) : response, for: context, on: connection)
    }

    /// Answers every response still owed with 503 and refuses new ones the same way.
    func respondToOwed() {
        let owedNow = owed.close()
        for pending in owedNow { pending.give(shuttingDown(id: pending.requestID)) }
        if !owedNow.isEmpty {
            logger.notice("answered waiting requests at shutdown", metadata: ["count": "\(owedNow.count)"])
        }
    }

    private func shuttingDown(id: String) -> Response {
        var response = errorResponse(.serviceUnavailable, Self.shuttingDownMessage, id: id)
        response.headers.set("Retry-After", "5")
        return response
    }

    /// The page for an error a handler threw, now or later.
    func response(for error: any Error, requestID: String, path: String, request: Request? = nil) -> Response {
        if let error = error as? HTTPError {
            if error.logged { logger.notice("request refused", metadata: [
                "request": "\(requestID)", "status": "\(error.status.rawValue)", "error": "\(error.message)"]) }
            var response = errorResponse(error.status, error.message, id: requestID, request: request, target: path)
            for (name, value) in error.headers { response.headers.set(name, value) }
            return response
        }
        logger.error("handler failed", metadata: ["request": "\(requestID)", "path": "\(path)", "error": "\(error)"])
        return errorResponse(.internalServerError, Self.internalErrorMessage, id: requestID, request: request, target: path)
    }
}
