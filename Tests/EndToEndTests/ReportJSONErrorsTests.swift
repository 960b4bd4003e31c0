import Foundation
import Testing
import TestSupport

/// The JSON and JSON Lines report URLs answer their errors as JSON, with the status an HTML page
/// would have had and its headers; `/reports` keeps the page for browsers.
@Suite struct ReportJSONErrorsTests {
    static let publicFolder = ServerProcess.publicFolder
    static let token = "a-report-token-long-enough"

    func start(_ extra: [String] = []) throws -> (ServerProcess, TemporaryDirectory) {
        let folder = try TemporaryDirectory("report-json-errors")
        let server = try ServerProcess(arguments: ["--port", "0", "--public", Self.publicFolder,
                                                   "--report-log", folder.path("reports")] + extra)
        return (server, folder)
    }

    /// The error's message, checked to be the whole response: JSON, not cached, naming the request.
    func jsonError(_ response: HTTPResponse, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                                  "\(response.text)", sourceLocation: sourceLocation)
        #expect(object["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect((object["request"] as? String) == response.header("X-Request-Id"), sourceLocation: sourceLocation)
        return try #require(object["error"] as? String, sourceLocation: sourceLocation)
    }

    @Test func malformedTimesAndPositionsAreAnsweredAsJSON() throws {
        let (server, _) = try start()
        let from = try jsonError(server.client.get("/reports.json?from=bad"), 400)
        #expect(from.contains("\"from\" must be a UTC day"))
        #expect(try jsonError(server.client.get("/reports.json?last=fortnight"), 400).contains("\"last\" must be one of"))
        #expect(try jsonError(server.client.get("/reports.json?from=2026-11-24&to=2026-11-20"), 400).contains("\"to\" must be after"))
        let since = try jsonError(server.client.get("/reports.jsonl?since=yesterday"), 400)
        #expect(since.contains("\"since\" must be a UTC time"))
        // HEAD has the same status and type, without a body.
        let head = try server.client.head("/reports.jsonl?since=yesterday")
        #expect(head.status == 400 && head.header("Content-Type") == "application/json")
        // The page for browsers stays a page.
        let page = try server.client.get("/reports?from=bad")
        #expect(page.status == 400)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
    }

    /// Refused before any handler (an address it cannot decode, a method the route does not
    /// take, too many arguments): still JSON at a JSON URL.
    @Test func refusalsBeforeTheHandlerAreAnsweredAsJSONToo() throws {
        let (server, _) = try start()
        #expect(try jsonError(server.client.get("/reports.jsonl?since=%FF"), 400).contains("since"))
        _ = try jsonError(server.client.get("/reports.json?from=%ZZ"), 400)
        let post = try server.client.post("/reports.json", form: [("a", "b")])
        #expect(try jsonError(post, 405).contains("does not accept POST") && post.header("Allow") != nil)
        let many = (0..<150).map { "a\($0)=1" }.joined(separator: "&")
        _ = try jsonError(server.client.get("/reports.json?" + many), 414)
        #expect(try server.client.get("/reports?from=%ZZ").header("Content-Type")?.hasPrefix("text/html") == true)
    }

    @Test func theAccessCheckAnswersJSONURLsAsJSON() throws {
        let (open, _) = try start()
        for path in ["/reports.json", "/reports.jsonl"] {
            let forwarded = try open.client.get(path, headers: [("X-Forwarded-For", "203.0.113.9")])
            #expect(try jsonError(forwarded, 403).contains("--report-token"), "\(path)")
        }
        let (closed, _) = try start(["--report-token", Self.token])
        for path in ["/reports.json", "/reports.jsonl?since=2026-11-20"] {
            let refused = try closed.client.get(path)
            #expect(try jsonError(refused, 401).contains("Sign in with the report token"), "\(path)")
            #expect(refused.header("WWW-Authenticate") == "Bearer realm=\"reports\"")
            let allowed = try closed.client.get(path, headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(allowed.status == 200, "\(path)")
        }
        let page = try closed.client.get("/reports")
        #expect(page.status == 401)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
    }
}
