import Foundation
import Testing
import TestSupport

/// `HEAD /reports.jsonl` and `HEAD /reports/stream` send headers only: the next response on the
/// same connection starts where the client expects it.
@Suite struct HeadOnReportRoutesTests {
    @Test func headOnTheChunkedReportRoutesKeepsTheConnectionInStep() throws {
        let folder = try TemporaryDirectory("head-reports")
        defer { folder.remove() }
        let server = try ServerProcess(arguments: [
            "--port", "0", "--public", ServerProcess.publicFolder,
            "--report-log", folder.path("reports.jsonl")])
        try Browser(port: server.port).get("/")  // a line in the log
        let connection = try HTTPConnection(port: server.port)
        for path in ["/reports.jsonl", "/reports/stream"] {
            let head = try connection.request("HEAD", path)
            #expect(head.status == 200, "\(path)")
            let next = try connection.request("GET", "/healthz")
            #expect(next.status == 200, "after HEAD \(path)")
            #expect(next.text == "ok")
        }
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}
