import Foundation
import Testing
import TestSupport

/// The `dynamic-home` executable as a person runs it.
@Suite struct CommandLineTests {
    let publicFolder = ServerProcess.publicFolder

    @Test func servesHealthAndAssetsThenStopsCleanlyOnSIGTERM() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder])
        #expect(server.log.contains("listening on http://127.0.0.1:\(server.port)/"))
        let health = try server.client.get("/healthz")
        #expect(health.status == 200)
        #expect(health.text == "ok")
        #expect(try server.client.get("/assets/images/logo.svg").header("Content-Type") == "image/svg+xml")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    @Test func sigtermWhileARequestIsInFlightLetsItComplete() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder])
        let connection = try HTTPConnection(port: server.port)
        // A slow upload: the request is in flight until its last byte arrives.
        try connection.send("POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nhello")
        // In flight: the metrics request itself is the other one.
        try eventually("the upload is in flight") {
            try server.client.get("/metrics").text.contains("dynamic_home_http_requests_in_flight 2\n")
        }
        server.signal(SIGTERM)
        try eventually("the server began shutting down") { server.log.contains("shutting down") }
        try connection.send("world")
        let response = try connection.readResponse()
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        #expect(server.waitForExit() == 0)
        #expect(server.log.contains("stopped"))
    }

    @Test func sigintAlsoStopsItCleanly() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder])
        server.signal(SIGINT)
        #expect(server.waitForExit() == 0)
    }

    @Test func aPortInUseEndsItWithOneLine() throws {
        let first = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder])
        let second = try ServerProcess(arguments: ["--port", "\(first.port)", "--public", publicFolder],
                                       waitForListening: false)
        let status = second.waitForExit()
        #expect(status != 0 && status != nil)
        #expect(Self.errorLine(second.log) == "dynamic-home: cannot listen on 127.0.0.1:\(first.port): the port is already in use",
                "\(second.log)")
    }

    @Test(arguments: [
        (["--public", "/nonexistent/Public"], "dynamic-home: --public: the folder /nonexistent/Public does not exist\n"),
        (["--port", "http"], "dynamic-home: --port must be a whole number between 0 and 65535 (0 picks a free port), not http\n"),
        (["--port", "70000"], "dynamic-home: --port must be a whole number between 0 and 65535 (0 picks a free port), not 70000\n"),
        (["--threads", "0"], "dynamic-home: --threads must be a whole number between 1 and 256, not 0\n"),
        (["--report-segment-bytes", "8GiB"], "dynamic-home: --report-segment-bytes must be a size between 4KiB and 1GiB, like 64MiB, not 8GiB\n"),
        (["--host", "not a host"], "dynamic-home: cannot listen: not a host is not an IP address or localhost\n"),
        (["--toggles", "/nonexistent/toggles.json"], "dynamic-home: --toggles: /nonexistent/toggles.json: does not exist\n"),
        (["--colour"], nil),
        (["--report-database", "postgresql://127.0.0.1:1/reports"],
         "dynamic-home: --database needs --secret (or DYNAMIC_HOME_SECRET) shared by every instance, so a form from one is accepted by another\n"),
        (["--database", "postgresql://127.0.0.1:1/reports"],
         "dynamic-home: --database needs --secret (or DYNAMIC_HOME_SECRET) shared by every instance, so a form from one is accepted by another\n"),
    ] as [([String], String?)])
    func badInputEndsItWithOneLineAndNoTrace(arguments: [String], expected: String?) throws {
        let process = try ServerProcess(arguments: arguments + ["--port", "0"].filter { _ in !arguments.contains("--port") },
                                        waitForListening: false)
        let status = process.waitForExit()
        #expect(status != 0 && status != nil)
        let line = Self.errorLine(process.log)
        #expect(line != nil, "\(process.log)")
        if let expected { #expect(line.map { $0 + "\n" } == expected) }
    }

    /// Negative numbers are values, not flags; values out of range are refused with the flag, its range and the value.
    @Test(arguments: [
        (["--port", "-1"], "--port must be a whole number between 0 and 65535 (0 picks a free port), not -1"),
        (["--report-visitor-rate", "-3"],
         "--report-visitor-rate must be a number between 0 and 1000000 events a second (0 turns the limit off), not -3"),
        (["--report-address-rate", "nan"],
         "--report-address-rate must be a number between 0 and 1000000 events a second (0 turns the limit off), not nan"),
        (["--report-visitor-burst", "0"], "--report-visitor-burst must be a whole number between 1 and 1000000 events, not 0"),
        (["--report-address-burst", "-5"], "--report-address-burst must be a whole number between 1 and 1000000 events, not -5"),
        (["--connection-timeout", "0"], "--connection-timeout must be a whole number between 1 and 86400 seconds, not 0"),
        (["--connection-timeout", "-30"], "--connection-timeout must be a whole number between 1 and 86400 seconds, not -30"),
        (["--connection-limit", "0"], "--connection-limit must be a whole number between 1 and 1000000, not 0"),
        (["--per-address-limit", "-1"], "--per-address-limit must be a whole number between 0 and 1000000 (0: no limit), not -1"),
        (["--per-address-limit", "1024"], "--per-address-limit must be below --connection-limit (1024), not 1024"),
        (["--threads", "-2"], "--threads must be a whole number between 1 and 256, not -2"),
        (["--report-workers", "0"], "--report-workers must be a whole number between 1 and 64, not 0"),
        (["--play-statistics-interval", "0"], "--play-statistics-interval must be a number between 0.1 and 3600 seconds, not 0"),
        (["--report-queue", "-1"], "--report-queue must be a whole number between 0 and 10000, not -1"),
        (["--report-segment-bytes", "-1"], "--report-segment-bytes must be a size between 4KiB and 1GiB, like 64MiB, not -1"),
        (["--report-max-bytes", "0"],
         "--report-max-bytes must be a size of at least --report-segment-bytes (64MiB), like 64MiB, not 0"),
        (["--report-retention", "-1d"],
         "--report-retention must be an age between 1s and 36500d (a number with s, m, h, d or w, like 30d), not -1d"),
        (["--report-retention", "1e300d"],
         "--report-retention must be an age between 1s and 36500d (a number with s, m, h, d or w, like 30d), not 1e300d"),
        (["--report-min-free", "100%"], "--report-min-free must be a size (like 2GiB) or a percentage from 0% to below 100%, not 100%"),
        (["--report-min-free", "-1"], "--report-min-free must be a size (like 2GiB) or a percentage from 0% to below 100%, not -1"),
        (["--report-database-retention", "0"], "--report-database-retention must be a whole number between 1 and 36500 days, not 0"),
        (["--instance", ""], "--instance must be a name of 1 to 128 bytes without control characters, not nothing"),
        (["--report-log", ""], "--report-log must name a path, not nothing"),
        (["reports", "import", "--report-segment-bytes", "-1", "lines.jsonl"],
         "--report-segment-bytes must be a size between 4KiB and 1GiB, like 64MiB, not -1"),
    ] as [([String], String)])
    func aValueOutOfRangeIsNamedWithItsRange(arguments: [String], expected: String) throws {
        let serving = arguments.first != "reports"
        let process = try ServerProcess(arguments: arguments + (serving ? ["--port", "0"] : []).filter { _ in !arguments.contains("--port") },
                                        waitForListening: false)
        let status = process.waitForExit()
        #expect(status == 64, "\(process.log)")
        #expect(Self.errorLine(process.log) == "dynamic-home: " + expected, "\(process.log)")
    }

    /// The error, when the whole output is exactly one `dynamic-home:` line, with no trace.
    static func errorLine(_ log: String) -> String? {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[1].isEmpty, lines[0].hasPrefix("dynamic-home: ") else { return nil }
        return String(lines[0])
    }
}
