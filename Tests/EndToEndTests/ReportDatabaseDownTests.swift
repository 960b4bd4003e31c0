import Foundation
import Testing
import TestSupport

/// With the report database unreachable the server serves as before, says so on /reports, and
/// logs the trouble once rather than at every retry.
@Suite struct ReportDatabaseDownTests {
    /// Runs `body` with a server whose report database is a port nobody listens on, its folder
    /// kept until `body` is done.
    static func withServer(_ name: String, _ body: (ServerProcess) throws -> Void) throws {
        let folder = try TemporaryDirectory(name)
        let closed = try FreePort.find()
        let server = try ServerProcess(arguments: [
            "--port", "0", "--report-log", folder.path("reports"), "--secret", "a-secret-of-sixteen-bytes-or-more",
            "--report-database", "postgresql://nobody@127.0.0.1:\(closed)/reports", "--instance", "lonely",
        ])
        try withExtendedLifetime(folder) { try body(server) }
    }

    @Test func pagesGoOnTheReportPageSaysSoAndTheLogSaysItOnce() throws {
        try Self.withServer("database-down") { server in
            for _ in 0..<5 { #expect(try server.client.get("/").status == 200) }
            // Several retries (backoff 0.1 s, 0.2 s, 0.4 s, …), each counted.
            func errors() throws -> Double {
                let metrics = try server.client.get("/metrics").text
                return metrics.split(separator: "\n").first { $0.hasPrefix("dynamic_home_report_shipper_errors_total ") }
                    .flatMap { Double($0.split(separator: " ")[1]) } ?? 0
            }
            try eventually("three failed attempts counted") { try errors() >= 3 }
            let page = try server.client.get("/reports")
            #expect(page.status == 200)
            #expect(page.text.contains("data-shared-unavailable"))
            let json = try JSONSerialization.jsonObject(with: Data(try server.client.get("/reports.json").body)) as? [String: Any]
            #expect((json?["database"] as? [String: Any])?["unavailable"] is String)
            #expect(server.log.components(separatedBy: "report database unavailable").count - 1 == 1, "\(server.log)")
        }
    }

    /// The page of this instance's log is not live: the stream follows the database, and would
    /// bring nothing until it answers, then every instance's events.
    @Test func theReportPageOfThisInstancesLogIsNotLive() throws {
        try Self.withServer("database-down-live") { server in
            let page = try server.client.get("/reports")
            #expect(page.status == 200)
            #expect(page.text.contains("data-shared-unavailable"))
            #expect(!page.text.contains("data-live-reports"), "the page says it updates when reloaded")
        }
    }

    /// The experiments page's figures are then this instance's alone, and it says so as /reports does.
    @Test func theExperimentsPageSaysItShowsThisInstancesLogOnly() throws {
        try Self.withServer("database-down-experiments") { server in
            let page = try server.client.get("/reports/experiments")
            #expect(page.status == 200)
            let says = page.text.contains("data-shared-unavailable") && page.text.contains("this instance's own log only")
            #expect(says)
        }
    }
}
