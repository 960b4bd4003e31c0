import Foundation
import Testing
import TestSupport

/// The `dynamic-home` executable as a person runs it.
@Suite struct CommandLineTests {
    let publicFolder = ServerProcess.repositoryRoot.appendingPathComponent("Public").path

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
        Thread.sleep(forTimeInterval: 0.3)
        server.signal(SIGTERM)
        Thread.sleep(forTimeInterval: 0.5)
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
        #expect(Self.errorLine(second.log) == "dynamic-home: cannot listen on 127.0.0.1:\(first.port): the port is already in use")
    }

    @Test(arguments: [
        (["--public", "/nonexistent/Public"], "dynamic-home: --public: the folder /nonexistent/Public does not exist\n"),
        (["--port", "http"], nil),
        (["--port", "70000"], nil),
        (["--threads", "0"], "dynamic-home: --threads must be between 1 and 256, not 0\n"),
        (["--report-segment-bytes", "8GiB"], "dynamic-home: --report-segment-bytes must be between 4KiB and 1GiB, not 8589934592\n"),
        (["--host", "not a host"], "dynamic-home: cannot listen: not a host is not an IP address or localhost\n"),
        (["--colour"], nil),
        (["--report-database", "postgresql://127.0.0.1:1/reports"],
         "dynamic-home: --report-database needs --secret (or DYNAMIC_HOME_SECRET) shared by every instance, so a form from one is accepted by another\n"),
        (["--database", "postgresql://127.0.0.1:1/reports"],
         "dynamic-home: --report-database needs --secret (or DYNAMIC_HOME_SECRET) shared by every instance, so a form from one is accepted by another\n"),
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

    /// The error, when the output ends with exactly one `dynamic-home:` line (info lines about
    /// what was loaded may come first) and shows no crash trace.
    static func errorLine(_ log: String) -> String? {
        let lines = log.split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("dynamic-home: ") }
        let trace = ["Fatal error", "Stack dump", "backtrace", "Current stack trace"].contains { log.contains($0) }
        guard errors.count == 1, lines.last == errors.first, !trace else { return nil }
        return String(errors[0])
    }
}
