import Foundation
import Testing
import TestSupport

/// The deployment's own TLS server (`deploy/nginx/dynamic-home.conf`) for real: nginx with a
/// throwaway self-signed certificate in front of three instances that trust it as their proxy
/// and share a report database, spoken to by curl over HTTPS with HTTP/2.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil && FileManager.default.isExecutableFile(atPath: TemporaryNginx.binary)
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
                             && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
                             "PostgreSQL, nginx, curl and openssl are not installed (scripts/test installs them)"))
final class NginxTLSTests {
    static let curl = "/usr/bin/curl"
    static let openssl = "/usr/bin/openssl"
    static let token = "a-report-token-for-the-operators"
    struct Failure: Error, CustomStringConvertible { let description: String }
    let fixture: DatabaseInstances
    var folder: TemporaryDirectory { fixture.folder }
    let nginx: TemporaryNginx

    init() throws {
        let fixture = try DatabaseInstances(3, folder: "nginx-tls") { _, _ in ["--trusted-proxy", "127.0.0.1", "--report-token", Self.token] }
        let folder = fixture.folder
        self.fixture = fixture
        let made = try Subprocess.run(Self.openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-keyout", folder.path("key.pem"), "-out", folder.path("certificate.pem"),
        ])
        guard made.status == 0 else { throw Failure(description: "openssl: \(made.output)") }
        nginx = try TemporaryNginx(upstreams: fixture.instances.map(\.port),
                                   tls: .init(certificate: folder.path("certificate.pem"), key: folder.path("key.pem")),
                                   operators: ["127.0.0.1"])
    }

    /// A response as curl saw it: the HTTP version it spoke, the status, the header lines, the body.
    struct CurlResponse {
        let version: String
        let status: Int
        let headers: [String]
        let body: String

        func headers(_ name: String) -> [String] {
            headers.filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        }
    }

    /// One request through nginx over HTTPS with HTTP/2, cookies kept in the visitor's jar.
    func request(_ target: String, form: [(String, String)]? = nil, jar: String = "jar") throws -> CurlResponse {
        let head = folder.path("head"), body = folder.path("body")
        var arguments = ["--http2", "-k", "-s", "--max-time", "10", "-D", head, "-o", body, "-w", "%{http_version} %{http_code}",
                         "-b", folder.path(jar), "-c", folder.path(jar)]
        for (name, value) in form ?? [] { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        let result = try Subprocess.run(Self.curl, arguments + ["https://127.0.0.1:\(nginx.port)\(target)"])
        let written = result.output.split(separator: " ")
        return CurlResponse(version: written.first.map(String.init) ?? "", status: written.count > 1 ? Int(written[1]) ?? 0 : 0,
                            headers: ((try? String(contentsOfFile: head, encoding: .utf8)) ?? "").components(separatedBy: "\r\n"),
                            body: (try? String(contentsOfFile: body, encoding: .utf8)) ?? "")
    }

    @Test func theHomePageComesOverHTTP2WithHSTSAndSecureCookies() throws {
        let home = try request("/")
        #expect(home.version == "2" && home.status == 200, "\(home.version) \(home.status) \(nginx.errorLog)")
        #expect(home.headers("strict-transport-security").first?.contains("max-age=31536000") == true)
        let cookies = home.headers("set-cookie")
        #expect(!cookies.isEmpty)
        #expect(cookies.allSatisfy { $0.lowercased().contains("; secure") }, "\(cookies)")
    }

    @Test func aFormDrawnByOneInstanceIsAcceptedByEveryOther() throws {
        let settings = try request("/settings")
        let token = try #require(Browser.csrfToken(in: settings.body))
        // nginx takes the instances in turn: three posts reach all three, two of them not the one that drew the form.
        for _ in 0..<3 {
            let saved = try request("/settings", form: [("layout", "grid"), ("_csrf", token)])
            #expect(saved.version == "2" && saved.status == 303)
        }
        #expect(try request("/").body.contains("data-controller=\"GridHome\""))
    }

    /// A stream through nginx, its bytes in the file `log`.
    func watch(_ log: String, lastEventID: String? = nil) throws -> BackgroundProcess {
        let resume = lastEventID.map { ["-H", "Last-Event-ID: \($0)"] } ?? []
        return try BackgroundProcess(Self.curl, ["--http2", "-k", "-sN", "--max-time", "40",
                                                 "-H", "Authorization: Bearer \(Self.token)"] + resume
                                    + ["https://127.0.0.1:\(nginx.port)/reports/stream"], log: log)
    }

    /// The request id of a home view through nginx by a new visitor.
    func launch() throws -> String {
        let home = try request("/", jar: "visitor-\(UUID().uuidString)")
        return try #require(home.headers("x-request-id").first?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
    }

    static func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Waits until the file at `path` holds the event of every request in `requests`.
    static func waitForEvents(of requests: [String], in path: String) -> Bool {
        (try? eventually(timeout: 20) { requests.allSatisfy { contents(path).contains("\"request\":\"\($0)\"") } }) != nil
    }

    @Test func theReportStreamPassesThroughUnbufferedAndResumesThroughIt() throws {
        let log = folder.path("stream")
        let watcher = try watch(log)
        // The stream's opening comment comes at once, not when a buffer fills.
        try eventually("the stream's opening comment arrived", timeout: 10) { Self.contents(log).contains("watching the report log") }
        let first = try launch()
        #expect(Self.waitForEvents(of: [first], in: log), "the line written shows up while the stream is open")
        #expect(watcher.isRunning, "the stream is still open")

        // Gone; two views meanwhile; back with its last id, through nginx to whichever instance.
        watcher.stop()
        let lastID = try #require(Self.contents(log).components(separatedBy: "\n").last { $0.hasPrefix("id: ") }?.dropFirst(4))
        let missed = try [launch(), launch()]
        let resumedLog = folder.path("resumed")
        let resumed = try watch(resumedLog, lastEventID: String(lastID))
        #expect(Self.waitForEvents(of: missed, in: resumedLog), "what it missed comes on reconnecting")
        #expect(!Self.contents(resumedLog).contains("\"request\":\"\(first)\""), "and not what it had")
        resumed.stop()
    }
}
