import Foundation
import Testing
import TestSupport

/// `POST /report` past the limit per visitor and per address: 429 with Retry-After, logged once;
/// every page that writes an event as it is served draws on the same budget, and is served.
@Suite struct ReportRateLimitTests {
    let folder: TemporaryDirectory
    let publicFolder = ServerProcess.publicFolder

    init() throws { folder = try TemporaryDirectory("report-rate-limit") }

    func start(_ limits: [String]) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log",
                                      folder.path("reports")] + limits)
    }

    /// A visitor's swipes; the statuses, and the last 429's Retry-After.
    static func swipes(_ session: Browser, _ count: Int) throws -> (statuses: [Int], retryAfter: String?) {
        var statuses: [Int] = [], retryAfter: String?
        for _ in 0..<count {
            let response = try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "0")])
            statuses.append(response.status)
            if response.status == 429 { retryAfter = response.header("Retry-After") }
        }
        return (statuses, retryAfter)
    }

    @Test func aVisitorPastItsBurstGets429AndOthersGoOn() throws {
        // One token a hundred seconds: nothing refills while the test runs.
        let server = try start(["--report-visitor-rate", "0.01", "--report-visitor-burst", "3", "--report-address-rate", "0"])
        let first = Browser(port: server.port)
        try first.get("/")
        let (statuses, retryAfter) = try Self.swipes(first, 10)
        #expect(statuses == [204, 204, 204] + Array(repeating: 429, count: 7))
        #expect(retryAfter.flatMap(Int.init).map { (1...100).contains($0) } == true)
        let second = Browser(port: server.port)
        try second.get("/")
        #expect(try Self.swipes(second, 3).statuses == [204, 204, 204])
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        #expect(server.log.components(separatedBy: "report posts limited").count - 1 == 1, "one line, not seven")
        #expect(server.log.contains("refused=1"))
    }

    @Test func anAddressPastItsBurstGets429WhateverVisitorsItUses() throws {
        let server = try start(["--report-visitor-rate", "0", "--report-address-rate", "0.01", "--report-address-burst", "5"])
        var statuses: [Int] = []
        for _ in 0..<3 {
            let session = Browser(port: server.port)
            try session.get("/")
            statuses += try Self.swipes(session, 3).statuses
        }
        #expect(statuses == Array(repeating: 204, count: 5) + Array(repeating: 429, count: 4))
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let swipes = try ReportSegments.text(of: folder.path("reports"))
            .components(separatedBy: "horizontal_swipe").count - 1
        #expect(swipes == 5, "refused posts write nothing")
    }

    @Test func searchesPastTheLimitAreAnsweredButWriteNoEvent() throws {
        // One token a hundred seconds per address: nothing refills while the test runs.
        let server = try start(["--report-visitor-rate", "0", "--report-address-rate", "0.01", "--report-address-burst", "5"])
        let session = Browser(port: server.port)
        for _ in 0..<40 {
            let response = try session.get("/search?q=harbour")
            #expect(response.status == 200)
            #expect(response.text.contains("Results for \u{201C}<bdi>harbour</bdi>\u{201D}"), "the visitor still gets results")
        }
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let searches = try ReportSegments.text(of: folder.path("reports"))
            .components(separatedBy: "\"event\":\"search_submitted\"").count - 1
        #expect(searches == 5, "the burst, then nothing past the limit")
        #expect(server.log.components(separatedBy: "events limited").count - 1 == 1, "one line, not thirty-five")
        #expect(server.log.contains("refused=1"))
    }

    /// Every page that writes an event as it is served draws on the same budget: a flood of home
    /// views (a new visitor each, as a load tool sends them) is served, and writes the burst only.
    @Test func homeViewsAndSelectionsPastTheLimitAreServedButWriteNoEvent() throws {
        let server = try start(["--report-visitor-rate", "0", "--report-address-rate", "0.01", "--report-address-burst", "5"])
        for _ in 0..<30 {
            let response = try server.client.get("/?layout=list")
            #expect(response.status == 200)
            #expect(response.text.contains("data-controller=\"ListHome\""))
        }
        let session = Browser(port: server.port)
        let (_, html) = try session.page("/?layout=list")
        let select = try #require(html.all("button").first { $0.closest("form")?["action"] == "/home/actions" })
        #expect(try session.press(select).status == 303, "a selection is answered as always")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let events = try ReportSegments.text(of: folder.path("reports")).split(separator: "\n").count
        #expect(events == 5, "the burst, then nothing past the limit")
        #expect(server.log.components(separatedBy: "events limited").count - 1 == 1)
    }

    @Test func zeroTurnsTheLimitsOff() throws {
        let server = try start(["--report-visitor-rate", "0", "--report-visitor-burst", "1",
                                "--report-address-rate", "0", "--report-address-burst", "1"])
        let session = Browser(port: server.port)
        try session.get("/")
        #expect(try Self.swipes(session, 20).statuses.allSatisfy { $0 == 204 })
    }
}
