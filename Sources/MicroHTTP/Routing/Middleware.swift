/// Runs around a route's handler: answers or throws itself (a failed check), or passes the
/// request on with `next`. Given to `Router.group`, so a check that many routes share is
/// written once and cannot be forgotten in one of them.
public typealias Middleware = @Sendable (_ request: Request, _ next: Handler) throws -> Response
