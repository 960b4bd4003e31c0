import MicroHTTP
import Testing
import TestSupport

/// X-Forwarded-For and X-Forwarded-Proto are believed from the proxies named, never from others;
/// behind HTTPS every cookie is Secure and responses carry HSTS.
@Suite struct TrustedProxyTests {
    static func server(trusting proxies: [String]) throws -> TestServer {
        var router = Router()
        router.get("/who") { request in
            var response = Response.text(request.remoteAddress)
            response.setCookie(SetCookie(name: "visitor", value: "v1"))
            return response
        }
        return try TestServer(router: router) { $0.trustedProxies = try! TrustedProxies(proxies) }
    }

    static let forwarded = [("X-Forwarded-For", "198.51.100.7, 203.0.113.9"), ("X-Forwarded-Proto", "https")]

    @Test func aTrustedProxyNamesTheClientAndTheScheme() throws {
        let server = try Self.server(trusting: ["127.0.0.1"])
        let response = try server.client.get("/who", headers: Self.forwarded)
        #expect(response.text == "203.0.113.9")
        #expect(response.header("Set-Cookie")?.hasSuffix("; Secure") == true)
        #expect(response.header("Strict-Transport-Security") == "max-age=31536000")
        // Over plain HTTP through the proxy: no Secure, no HSTS.
        let plain = try server.client.get("/who", headers: [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "http")])
        #expect(plain.text == "203.0.113.9")
        #expect(plain.header("Set-Cookie")?.contains("Secure") == false)
        #expect(plain.header("Strict-Transport-Security") == nil)
    }

    @Test func anyoneElseIsTakenAtTheirSocketAddress() throws {
        let server = try Self.server(trusting: ["10.0.0.1"])
        let response = try server.client.get("/who", headers: Self.forwarded)
        #expect(response.text == "127.0.0.1")
        #expect(response.header("Set-Cookie")?.contains("Secure") == false)
        #expect(response.header("Strict-Transport-Security") == nil)
    }

    @Test func proxiesInTheChainAreSkippedAndGarbageStopsTheWalk() throws {
        let server = try Self.server(trusting: ["127.0.0.1", "10.0.0.2"])
        #expect(try server.client.get("/who", headers: [("X-Forwarded-For", "203.0.113.9, 10.0.0.2")]).text == "203.0.113.9")
        #expect(try server.client.get("/who", headers: [("X-Forwarded-For", "not-an-address")]).text == "127.0.0.1")
        #expect(throws: TrustedProxies.InvalidAddress.self) { try TrustedProxies(["example.com"]) }
    }
}
