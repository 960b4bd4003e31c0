import Foundation
import Testing
import TestSupport

/// Who may read the report pages and `/metrics`, decided per request: the shipped deployment
/// (instances on 127.0.0.1 behind the repository's nginx, `--trusted-proxy 127.0.0.1`) must not
/// open them to the internet because the instances bind loopback.
@Suite(.serialized) final class OperatorAccessTests {
    static let token = "a-report-token-long-enough"
    static let operatorPaths = ["/reports", "/reports.jsonl", "/reports.json", "/reports/stream", "/reports/experiments",
                                "/reports/login", "/metrics", "/admin", "/%72eports.jsonl"]
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("operator-access") }

    func start(_ name: String, _ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path(name)] + arguments)
    }

    @Test func withoutATokenOnlyARequestMadeOnThisMachineMayRead() throws {
        let server = try start("open")
        #expect(try server.client.get("/reports.jsonl").status == 200)
        #expect(try server.client.get("/metrics").status == 200)
        // The peer is loopback, but a proxy passed the request on: it is not local.
        let forwarded = try server.client.get("/reports.jsonl", headers: [("X-Forwarded-For", "203.0.113.9")])
        #expect(forwarded.status == 403)
        #expect(forwarded.text.contains("--report-token"))
        #expect(try server.client.get("/metrics", headers: [("Forwarded", "for=203.0.113.9")]).status == 403)
        #expect(try server.client.get("/", headers: [("X-Forwarded-For", "203.0.113.9")]).status == 200)
    }

    @Test func whatATrustedProxySendsIsNeverLocal() throws {
        // Even without a forwarding header: the proxy may simply not add one.
        let server = try start("trusted", ["--trusted-proxy", "127.0.0.1"])
        #expect(try server.client.get("/reports.jsonl").status == 403)
        #expect(try server.client.get("/metrics").status == 403)
        #expect(try server.client.get("/").status == 200)
    }

    @Test func anUntrustedProxyOnThisMachineOpensNothingEither() throws {
        let server = try start("untrusted")
        #expect(try server.client.get("/reports.jsonl", headers: [("X-Forwarded-For", "127.0.0.1")]).status == 403)
        #expect(try server.client.get("/reports", headers: [("X-Real-IP", "198.51.100.4")]).status == 403)
    }

    @Test func aConfiguredTokenIsRequiredEvenOnLoopback() throws {
        let server = try start("token", ["--report-token", Self.token])
        for path in ["/reports", "/reports.jsonl", "/metrics"] {
            let refused = try server.client.get(path)
            #expect(refused.status == 401, "\(path)")
            #expect(!refused.text.contains("\"visitor\""), "\(path)")
        }
        #expect(try server.client.get("/reports.jsonl", headers: [("Authorization", "Bearer \(Self.token)")]).status == 200)
        // The part of `/admin` its script follows, as `/admin`: without a database there is no list.
        let part = try server.client.get("/admin/instances?kind=toggles")
        #expect(part.status == 401 && !part.text.contains("report database"), "\(part.status)")
        let signedIn = try server.client.get("/admin/instances?kind=toggles", headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(signedIn.status == 404 && signedIn.text.contains("no list of instances"), "\(signedIn.status)")
    }

    @Test func theShippedProxyRefusesTheOperatorPagesUntilOpened() throws {
        let server = try start("behind", ["--trusted-proxy", "127.0.0.1", "--report-token", Self.token])
        // A visitor's search, so the log holds something private.
        #expect(try server.client.get("/search?q=private+medical+query").status == 200)
        // A page is answered a moment before its event is written.
        try eventually(timeout: 5) {
            ((try? server.client.get("/reports.jsonl", headers: [("Authorization", "Bearer \(Self.token)")]).text) ?? "").contains("medical")
        }
        let shipped = try TemporaryNginx(upstreams: [server.port])
        let front = HTTPClient(port: shipped.port)
        #expect(try front.get("/").status == 200)
        for path in Self.operatorPaths {
            let refused = try front.get(path, headers: [("X-Forwarded-For", "203.0.113.9")])
            #expect(refused.status == 403, "\(path)")
            #expect(refused.text.contains("operators"), "\(path)")
            #expect(!refused.text.contains("medical"), "\(path)")
        }

        // Opened to the operators' network, the instance still asks for the token.
        let opened = try TemporaryNginx(upstreams: [server.port], operators: ["127.0.0.1"])
        let operatorFront = HTTPClient(port: opened.port)
        for path in ["/reports", "/reports.jsonl", "/metrics"] {
            let refused = try operatorFront.get(path, headers: [("X-Forwarded-For", "203.0.113.9")])
            #expect(refused.status == 401, "\(path)")
            #expect(!refused.text.contains("medical"), "\(path)")
        }
        let signedIn = try operatorFront.get("/reports.jsonl", headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(signedIn.status == 200)
        #expect(signedIn.text.contains("private medical query"))
    }

    @Test func behindTheProxyWithoutATokenTheReportsStayClosed() throws {
        // nginx in front but not declared a trusted proxy: its forwarding header still tells.
        let server = try start("no-token-behind")
        let opened = try TemporaryNginx(upstreams: [server.port], operators: ["127.0.0.1"])
        let front = HTTPClient(port: opened.port)
        #expect(try front.get("/reports.jsonl").status == 403)
        #expect(try front.get("/metrics").status == 403)
        #expect(try server.client.get("/reports.jsonl").status == 200, "still open on the machine itself")
    }
}
