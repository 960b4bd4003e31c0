/// The start of an answer given later: what `Response.later` was handed.
public struct Later: Sendable {
    let start: @Sendable (Reply) -> Void
}

extension Response {
    /// An answer given later, from any thread. The server suspends the connection (a waiting
    /// request holds no thread), calls `start` with the `Reply` to answer through, and sends what
    /// it is given. `start` runs on a libmicrohttpd thread, so it only hands the work on (to a
    /// `WorkPool`, say). The first answer counts, later ones are ignored; a reply still owed when
    /// the server shuts down is answered 503, so no connection waits forever.
    public static func later(_ start: @escaping @Sendable (Reply) -> Void) -> Response {
        var response = Response()
        response.later = Later(start: start)
        return response
    }
}
