import Foundation
import Testing
import TestSupport

/// "Sign out" on the report pages ends the sign-in on the server: the cookie, wherever a copy of
/// it is kept, opens nothing afterwards, across a restart and on every instance of a database.
@Suite(.serialized) final class ReportSignOutTests {
    static let token = "a-report-token-long-enough"
    static let secret = "a-secret-shared-by-every-instance"
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("sign-out") }

    func start(_ name: String, _ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path(name), "--report-token", Self.token,
                                      "--secret", Self.secret] + extra)
    }

    /// Signs in through the form; the cookie it set.
    static func signIn(_ session: Browser) throws -> String {
        try session.get("/reports/login")
        #expect(try session.post("/reports/login", withToken: [("token", token)]).status == 303)
        return try #require(session.cookies["report_access"])
    }

    static func withCookie(_ cookie: String) -> [(String, String)] { [("Cookie", "report_access=\(cookie)")] }

    @Test func signingOutEndsTheSignInForEveryCopyOfTheCookieAndAcrossARestart() throws {
        var server = try start("one")
        let session = Browser(port: server.port)
        let cookie = try Self.signIn(session)
        let (page, html) = try session.page("/reports")
        #expect(page.status == 200)
        let button = try #require(html.all("button").first { $0.text == "Sign out" })
        let signedOut = try session.press(button)
        #expect(signedOut.status == 303)
        #expect(signedOut.header("Location") == "/reports/login?signed-out")
        #expect(signedOut.header("Set-Cookie")?.contains("Max-Age=0") == true)
        // The pages the browser keeps for Back (an admin review) go with it.
        #expect(signedOut.header("Clear-Site-Data") == "\"cache\"")
        #expect(try session.follow(signedOut).text.contains("You are signed out."))
        #expect(try session.get("/reports").status == 401)
        #expect(try server.client.get("/reports", headers: Self.withCookie(cookie)).status == 401, "a kept copy")

        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        server = try start("one")
        #expect(try server.client.get("/reports", headers: Self.withCookie(cookie)).status == 401, "after a restart")
        let again = try Self.signIn(Browser(port: server.port))
        #expect(try server.client.get("/reports", headers: Self.withCookie(again)).status == 200, "a new sign-in works")
    }

    @Test func theExperimentsPageSignsOutToo() throws {
        let server = try start("experiments")
        let session = Browser(port: server.port)
        _ = try Self.signIn(session)
        let (page, html) = try session.page("/reports/experiments")
        #expect(page.status == 200)
        let button = try #require(html.all("button").first { $0.text == "Sign out" }, "an operator page a sign-in opened offers to end it")
        let signedOut = try session.press(button)
        #expect(signedOut.status == 303)
        #expect(signedOut.header("Location") == "/reports/login?signed-out")
        #expect(try session.get("/reports/experiments").status == 401)
    }

    @Test func signingOutWithoutTheFormsTokenIsRefused() throws {
        let server = try start("csrf")
        let session = Browser(port: server.port)
        let cookie = try Self.signIn(session)
        #expect(try session.post("/reports/logout", form: []).status == 403)
        #expect(try server.client.get("/reports", headers: Self.withCookie(cookie)).status == 200)
    }

    @Test(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (scripts/test installs it)"))
    func aSignOutOnOneInstanceEndsTheSessionOnTheOthers() throws {
        let fixture = try DatabaseInstances(2, folder: "sign-out-shared") { _, _ in ["--report-token", Self.token] }
        let (first, second) = (fixture[0], fixture[1])
        let session = Browser(port: first.port)
        let cookie = try Self.signIn(session)
        #expect(try second.client.get("/reports", headers: Self.withCookie(cookie)).status == 200)
        let (_, html) = try session.page("/reports")
        #expect(try session.press(try #require(html.all("button").first { $0.text == "Sign out" })).status == 303)
        try eventually("the other instance learns of the sign-out", timeout: 5) {
            try second.client.get("/reports", headers: Self.withCookie(cookie)).status == 401
        }
    }
}
