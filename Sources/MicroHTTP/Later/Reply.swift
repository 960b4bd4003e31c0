/// Where a later answer goes: any thread may call it, once; copies answer the same request.
public struct Reply: Sendable {
    let answer: LaterAnswer

    /// Sends `response`; ignored if the request was already answered.
    public func callAsFunction(_ response: Response) { answer.give(response) }

    /// Answers with the page for `error`, as if a handler had thrown it: an `HTTPError` says what
    /// was wrong, anything else is a 500 naming the request id.
    public func fail(_ error: any Error) {
        // Checked first: the error page would be rendered and logged for nothing.
        guard !answer.isAnswered else { return }
        answer.give(answer.core.response(for: error, requestID: answer.requestID, path: answer.path))
    }

    /// Answers what `make` returns, or the page for what it throws.
    public func run(_ make: () throws -> Response) {
        do { self(try make()) } catch { fail(error) }
    }

    /// Whether an answer was already given (503 at shutdown, say): the work can be skipped.
    public var isAnswered: Bool { answer.isAnswered }
}
