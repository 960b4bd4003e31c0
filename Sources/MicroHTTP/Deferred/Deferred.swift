/// The start of a response given later: what `Response.deferred` was handed.
public struct Deferred: Sendable {
    let start: @Sendable (Responder) -> Void
}

extension Response {
    /// A response given later, from any thread. The server suspends the connection (a waiting
    /// request holds no thread), calls `start` with the `Responder` to answer through, and sends what
    /// it is given. `start` runs on a libmicrohttpd thread, so it only hands the work on (to a
    /// `WorkPool`, say). The first response counts, later ones are ignored; a response still owed when
    /// the server shuts down is answered 503, so no connection waits forever.
    public static func deferred(_ start: @escaping @Sendable (Responder) -> Void) -> Response {
        var response = Response()
        response.deferred = Deferred(start: start)
        return response
    }
}
