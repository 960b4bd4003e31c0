import Testing
@testable import MicroHTTP

@Suite struct RouterTests {
    let router: Router = {
        var router = Router()
        router.get("/") { _ in .text("home") }
        router.get("/long/:id") { request in .text("long " + request.parameters["id"]!) }
        router.post("/long/:id") { _ in .text("posted") }
        router.get("/assets/*path") { request in .text(request.parameters["path"]!) }
        router.post("/report") { _ in .text("report") }
        return router
    }()

    func body(_ method: Method, _ path: [String]) throws -> String? {
        guard case .found(let handler, let parameters) = router.resolve(method, path) else { return nil }
        var request = Request(method: method, target: "/", pathSegments: path)
        request.parameters = parameters
        guard case .bytes(let bytes) = try handler(request).body else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func matchesLiteralsAndNamedParameters() throws {
        #expect(try body(.get, []) == "home")
        #expect(try body(.get, ["long", "m-017"]) == "long m-017")
        #expect(try body(.post, ["long", "m-017"]) == "posted")
        #expect(try body(.get, ["long"]) == nil)
        #expect(try body(.get, ["long", "a", "b"]) == nil)
    }

    @Test func remainderTakesTheRestOfThePath() throws {
        #expect(try body(.get, ["assets", "images", "a.svg"]) == "images/a.svg")
        #expect(try body(.get, ["assets"]) == nil)
    }

    @Test func headIsAnsweredByTheGetRoute() throws {
        #expect(try body(.head, ["long", "x"]) == "long x")
    }

    @Test func wrongMethodListsTheAllowedOnes() {
        guard case .methodNotAllowed(let allowed) = router.resolve(.delete, ["long", "x"]) else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == [.get, .head, .post])
        guard case .methodNotAllowed(let postOnly) = router.resolve(.get, ["report"]) else {
            Issue.record("expected 405")
            return
        }
        #expect(postOnly == [.post])
    }

    @Test func unknownPathIsNotFound() {
        guard case .notFound = router.resolve(.get, ["nowhere"]) else {
            Issue.record("expected 404")
            return
        }
    }

    @Test func groupsRunTheirMiddlewareOutermostFirstAndOnlyOnTheirRoutes() throws {
        /// Middleware that notes its name in the `X-Trail` header on the way in.
        func trail(_ name: String) -> Middleware {
            { request, next in
                let trail = (request.headers["X-Trail"].map { $0 + " " } ?? "") + name
                var response = try next(Request(method: request.method, target: request.target,
                                                 pathSegments: request.pathSegments, headers: Headers([("X-Trail", trail)])))
                response.headers.add("X-Trail", trail)
                return response
            }
        }
        let refuse: Middleware = { _, _ in throw HTTPError(.forbidden, "refused") }
        var router = Router()
        router.get("/open") { _ in .text("open") }
        router.group([trail("a"), trail("b")]) { outer in
            outer.get("/outer") { request in .text(request.headers["X-Trail"] ?? "") }
            outer.group(trail("c")) { inner in
                inner.get("/inner") { request in .text(request.headers["X-Trail"] ?? "") }
            }
            outer.get("/after") { request in .text(request.headers["X-Trail"] ?? "") }
        }
        router.group(refuse) { $0.post("/closed") { _ in .text("reached") } }
        router.get("/last") { request in .text(request.headers["X-Trail"] ?? "none") }

        func run(_ method: Method, _ path: String) throws -> Response {
            guard case .found(let handler, _) = router.resolve(method, [path]) else { throw HTTPError(.notFound, path) }
            return try handler(Request(method: method, target: "/" + path, pathSegments: [path]))
        }
        func body(_ response: Response) -> String {
            guard case .bytes(let bytes) = response.body else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(body(try run(.get, "open")) == "open")
        #expect(body(try run(.get, "outer")) == "a b")
        #expect(body(try run(.get, "inner")) == "a b c")
        #expect(try run(.get, "inner").headers.values("X-Trail") == ["a b c", "a b", "a"], "unwound innermost first")
        #expect(body(try run(.get, "after")) == "a b", "the inner group ended with its closure")
        #expect(body(try run(.get, "last")) == "none", "routes after a group run without its middleware")
        #expect(throws: HTTPError.self) { try run(.post, "closed") }
    }
}

/// The method as libmicrohttpd passes it: the common three told by their bytes, any other kept as sent.
@Suite struct MethodReadingTests {
    @Test func theCommonMethodsAreToldByTheirBytesAndLookalikesKeptAsSent() {
        for name in ["GET", "POST", "HEAD", "PUT", "GETS", "GE", "G", "", "POSTS", "HEADS", "POS", "HEA", "get", "Post",
                     "DELETE", "OPTIONS", "GET\u{7F}"] {
            let method = name.withCString { Method(cString: $0) }
            #expect(method.rawValue == name, "\(name)")
            #expect(method == Method(name), "\(name)")
        }
    }
}
