/// An error a handler throws to answer with a 4xx page that says what was wrong.
/// Any other error becomes a 500 page naming the request id.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public let status: Status
    /// Shown to the person on the error page; must not leak internals.
    public let message: String
    /// Extra headers, such as `Allow` on a 405.
    public var headers: Headers
    /// Whether the server logs the refusal; false where the handler logs it sparingly itself
    /// (a rate limit logs one line per client a minute, not one per request).
    public var logged = true

    public init(_ status: Status, _ message: String, headers: Headers = .init()) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.rawValue) \(message)" }
}
