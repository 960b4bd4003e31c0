import Basics

/// A `WorkPool` that answers requests: the handler's work runs on a pool thread and is answered
/// later; a full pool is a 503 with `Retry-After` at once, in the words the app gives.
public struct RequestPool: Sendable {
    public let pool: WorkPool
    /// Seconds a refused client is told to wait.
    public let retryAfter: Int
    /// What a client refused because the pool is full reads.
    public let busyMessage: String

    public init(_ pool: WorkPool, retryAfter: Int = 1, busyMessage: String) {
        self.pool = pool
        self.retryAfter = max(1, retryAfter)
        self.busyMessage = busyMessage
    }

    /// Answers the request later with what `job` returns on a pool thread (or the page for what it
    /// throws); throws 503 with `Retry-After` at once when the pool is full.
    public func respond(_ job: @escaping @Sendable () throws -> Response) throws(HTTPError) -> Response {
        guard pool.admit() else { throw busy }
        return .deferred { [pool] responder in
            pool.run(admitted: {
                // Answered already (503 at shutdown): the work would be thrown away.
                guard !responder.hasResponse else { return }
                responder.run(job)
            }, cancel: { responder.fail(Self.stopping) })
        }
    }

    /// The 503 for a client the pool has no room for.
    public var busy: HTTPError {
        HTTPError(.serviceUnavailable, busyMessage, headers: Headers([("Retry-After", "\(retryAfter)")]))
    }

    public func shutdown() { pool.shutdown() }

    public var counts: WorkPool.Counts { pool.counts }

    static let stopping = HTTPError(.serviceUnavailable, ServerCore.shuttingDownMessage,
                                    headers: Headers([("Retry-After", "5")]))
}
