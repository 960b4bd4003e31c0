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
}
