/// Answers a request.
public typealias Handler = @Sendable (Request) throws -> Response

/// Maps method and path patterns to handlers. Routes are tried in the order they were added.
/// Routes added inside `group` run behind its middleware.
public struct Router: Sendable {
    struct Route: Sendable {
        let method: Method
        let pattern: RoutePattern
        let handler: Handler
    }

    /// What the router decided for one request.
    public enum Resolution: Sendable {
        case found(Handler, parameters: [String: String])
        /// The path exists for other methods; `allowed` becomes the `Allow` header.
        case methodNotAllowed(allowed: [Method])
        case notFound
    }

    private var routes: [Route] = []
    /// The middleware of the groups being built, outermost first.
    private var middleware: [Middleware] = []

    public init() {}

    /// Adds a route; inside a group, `handler` is wrapped once here, so a route outside every
    /// group runs its handler as it was given. Wrapped in a loop: through a generic function
    /// (`reduce`) every handler came back inside two reabstraction thunks, run on every request.
    public mutating func add(_ method: Method, _ pattern: String, _ handler: @escaping Handler) {
        var wrapped = handler
        for middleware in middleware.reversed() {
            let next = wrapped
            wrapped = { request in try middleware(request, next) }
        }
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: wrapped))
    }

    /// Adds the routes `build` adds behind `middleware`, which runs in the order given. Groups
    /// nest: an outer group's middleware runs before an inner one's. Paths stay whole.
    public mutating func group(_ middleware: [Middleware], routes build: (inout Router) -> Void) {
        let outer = self.middleware
        self.middleware += middleware
        build(&self)
        self.middleware = outer
    }

    /// A group behind one middleware.
    public mutating func group(_ middleware: @escaping Middleware, routes build: (inout Router) -> Void) {
        group([middleware], routes: build)
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }

    /// Each route's method and pattern, in the order added: the labels of `/metrics`.
    public var labels: [String] { routes.map { "\($0.method.rawValue) \($0.pattern.description)" } }

    /// Finds the handler; `HEAD` is answered by the `GET` route (the server drops the body).
    public func resolve(_ method: Method, _ path: [String]) -> Resolution {
        resolveNumbered(method, path).resolution
    }

    /// The same, with the index of the route found (its label in `labels`).
    func resolveNumbered(_ method: Method, _ path: [String]) -> (resolution: Resolution, route: Int?) {
        var allowed: [Method] = []
        // By index, not `enumerated()`: each route looked at was copied (its references retained and released).
        for index in routes.indices {
            guard let parameters = routes[index].pattern.match(path) else { continue }
            let routeMethod = routes[index].method
            if routeMethod == method || (method == .head && routeMethod == .get) {
                return (.found(routes[index].handler, parameters: parameters), index)
            }
            if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
        }
        guard !allowed.isEmpty else { return (.notFound, nil) }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.insert(.head, at: allowed.firstIndex(of: .get)! + 1) }
        return (.methodNotAllowed(allowed: allowed), nil)
    }
}
