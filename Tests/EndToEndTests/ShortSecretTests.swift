import Foundation
import Testing
import TestSupport

/// An empty or short `--secret` or report token is refused at start; an empty bearer or a
/// sign-in without a token never opens the report pages.
@Suite struct ShortSecretTests {
    let publicFolder = ServerProcess.publicFolder

    @Test(arguments: [
        (["--report-token", ""], [:], "--report-token must be at least 16 bytes, and this one has 0"),
        (["--report-token", "x"], [:], "--report-token must be at least 16 bytes, and this one has 1"),
        ([], ["DYNAMIC_HOME_REPORT_TOKEN": ""], "--report-token must be at least 16 bytes, and this one has 0"),
        (["--secret", ""], [:], "--secret must be at least 16 bytes, and this one has 0"),
        (["--secret", "123456789012345"], [:], "--secret must be at least 16 bytes, and this one has 15"),
        ([], ["DYNAMIC_HOME_SECRET": "k"], "--secret must be at least 16 bytes, and this one has 1"),
    ] as [([String], [String: String], String)])
    func aShortSecretOrTokenIsRefusedAtStartWithOneLine(arguments: [String], environment: [String: String],
                                                        expected: String) throws {
        let process = try ServerProcess(
            arguments: ["--port", "0", "--host", "0.0.0.0", "--public", publicFolder] + arguments,
            environment: environment, waitForListening: false)
        let status = process.waitForExit()
        #expect(status == 64, "a bad value, as one out of its range")
        let line = CommandLineTests.errorLine(process.log)
        #expect(line?.hasPrefix("dynamic-home: " + expected) == true, "\(process.log)")
    }

    @Test func anEmptyBearerOrATokenlessSignInOpensNothing() throws {
        let folder = try TemporaryDirectory("short-secret")
        defer { folder.remove() }
        let server = try ServerProcess(arguments: [
            "--port", "0", "--host", "0.0.0.0", "--public", publicFolder, "--report-log", folder.path("reports.jsonl"),
            "--report-token", "a-report-token-long-enough"])
        for path in ["/reports", "/reports.jsonl"] {
            #expect(try server.client.get(path, headers: [("Authorization", "Bearer ")]).status == 401)
            #expect(try server.client.get(path, headers: [("Authorization", "Bearer")]).status == 401)
        }
        let session = Browser(port: server.port)
        try session.get("/reports/login")
        let posted = try session.post("/reports/login", withToken: [])
        #expect(posted.status == 303 && posted.header("Location") == "/reports/login?refused")
        #expect(posted.header("Set-Cookie") == nil)
        #expect(try session.get("/reports").status == 401)
    }
}
