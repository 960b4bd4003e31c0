import Foundation
import Testing
import TestSupport

/// `GET /metrics` from the real server: valid Prometheus text by `promtool`, counters that move.
@Suite struct MetricsTests {
    /// The sample's value, e.g. `dynamic_home_http_requests_total{route="GET /",status="200"}`.
    static func value(_ text: String, _ sample: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.dropFirst(sample.count + 1)) }
    }

    @Test(.enabled(if: RealParts.required || FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"),
                   "promtool is not installed (Debian: apt-get install prometheus; scripts/test does)"))
    func promtoolAcceptsTheMetrics() throws {
        let folder = try TemporaryDirectory("metrics")
        let server = try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path("reports")])
        _ = try server.client.get("/")
        let metrics = try server.client.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        try Data(metrics.body).write(to: URL(fileURLWithPath: folder.path("metrics.txt")))
        let check = try Subprocess.run("/bin/sh", ["-c", "/usr/bin/promtool check metrics < '\(folder.path("metrics.txt"))'"])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func countersMoveAsRequestsAreMade() throws {
        let folder = try TemporaryDirectory("metrics")
        let server = try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path("reports")])
        let home = "dynamic_home_http_requests_total{route=\"GET /\",status=\"200\"}"
        let before = try server.client.get("/metrics").text
        for _ in 0..<5 { #expect(try server.client.get("/").status == 200) }
        #expect(try server.client.get("/nowhere").status == 404)
        // The home's report events are written within the log's flush interval.
        var after = ""
        try eventually("five report events written") {
            after = try server.client.get("/metrics").text
            return (Self.value(after, "dynamic_home_report_events_written_total") ?? 0) >= 5
        }
        #expect((Self.value(after, home) ?? 0) - (Self.value(before, home) ?? 0) == 5)
        #expect(Self.value(after, "dynamic_home_http_requests_total{route=\"unmatched\",status=\"404\"}") == 1)
        #expect(Self.value(after, "dynamic_home_http_request_duration_seconds_count{route=\"GET /\"}") ?? 0 >= 5)
        #expect((Self.value(after, "dynamic_home_http_response_body_bytes_total") ?? 0) > (Self.value(before, "dynamic_home_http_response_body_bytes_total") ?? 0))
        #expect((Self.value(after, "dynamic_home_report_events_written_total") ?? 0) >= 5)
        #expect((Self.value(after, "process_resident_memory_bytes") ?? 0) > 0)
        #expect(Self.value(after, "dynamic_home_content_version") == 1)
        #expect((Self.value(after, "dynamic_home_http_open_connections") ?? 0) >= 1)
    }

    @Test func theFlushTimeHistogramMovesAsEventsAreWritten() throws {
        let folder = try TemporaryDirectory("metrics")
        let server = try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path("reports")])
        let count = "dynamic_home_report_flush_duration_seconds_count"
        let before = try server.client.get("/metrics").text
        #expect(before.contains("# TYPE dynamic_home_report_flush_duration_seconds histogram"))
        for _ in 0..<3 { #expect(try server.client.get("/").status == 200) }
        var after = before
        try eventually("a flush counted") {
            after = try server.client.get("/metrics").text
            return (Self.value(after, count) ?? 0) > (Self.value(before, count) ?? 0)
        }
        #expect((Self.value(after, "dynamic_home_report_flush_duration_seconds_sum") ?? 0) > 0)
        #expect(Self.value(after, "dynamic_home_report_flush_duration_seconds_bucket{le=\"+Inf\"}") == Self.value(after, count))
    }

    /// A request the connection closed on before any response is counted under status "none";
    /// libmicrohttpd's own answers under the status it sent. Neither is "1xx".
    @Test func requestsWithoutAResponseAreCountedAsNoneAndTheLibrarysOwnUnderTheirStatus() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--connection-timeout", "3"])
        do {
            // The client leaves in the middle of the body.
            let connection = try HTTPConnection(port: server.port)
            try connection.send("POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\nabc")
            connection.finishSending()
            _ = connection.readToEnd()
        }
        do {
            // libmicrohttpd answers a chunk size beyond 64 bits with its own 413.
            let connection = try HTTPConnection(port: server.port)
            try? connection.send("POST /healthz HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "FFFFFFFFFFFFFFFFFF\r\nhello\r\n")
            #expect(try connection.readResponse().status == 413)
        }
        let none = "dynamic_home_http_requests_total{route=\"unmatched\",status=\"none\"}"
        let tooLarge = "dynamic_home_http_requests_total{route=\"unmatched\",status=\"413\"}"
        // The close is counted when libmicrohttpd reports the request complete, a moment later.
        var metrics = ""
        try eventually("one close and one 413 counted: \(metrics)", timeout: 10) {
            metrics = try server.client.get("/metrics").text
            return Self.value(metrics, none) == 1 && Self.value(metrics, tooLarge) == 1
        }
        #expect(!metrics.contains("status=\"1xx\""))
    }

    @Test func offLoopbackTheMetricsNeedTheReportToken() throws {
        let folder = try TemporaryDirectory("metrics")
        let server = try ServerProcess(arguments: ["--port", "0", "--host", "0.0.0.0", "--report-log", folder.path("reports"),
                                                   "--report-token", "a-report-token-long-enough"])
        #expect(try server.client.get("/metrics").status != 200)
        let signedIn = try server.client.get("/metrics", headers: [("Authorization", "Bearer a-report-token-long-enough")])
        #expect(signedIn.status == 200)
    }
}
