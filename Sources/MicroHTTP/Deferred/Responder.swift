/// Where a deferred response goes: any thread may call it, once; copies answer the same request.
public struct Responder: Sendable {
    let pending: DeferredResponse

    /// Sends `response`; ignored if the request was already answered.
    public func callAsFunction(_ response: Response) { pending.give(response) }

    /// Answers with the page for `error`, as if a handler had thrown it: an `HTTPError` says what
    /// was wrong, anything else is a 500 naming the request id.
    public func fail(_ error: any Error) {
        // Checked first: the error page would be rendered and logged for nothing.
        guard !pending.hasResponse else { return }
        pending.give(pending.core.response(for: error, requestID: pending.requestID, path: pending.path))
    }

    /// Answers what `make` returns, or the page for what it throws.
    public func run(_ make: () throws -> Response) {
        do { self(try make()) } catch { fail(error) }
    }

    /// Whether a response was already given (503 at shutdown, say): the work can be skipped.
    public var hasResponse: Bool { pending.hasResponse }
}
