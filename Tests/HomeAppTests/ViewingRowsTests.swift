import Foundation
import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

/// The visitor's rows on the home.
@Suite struct ViewingRowsTests {
    /// The rows of a home page: name → (titles, progress bars' labels).
    static func rows(_ html: HTMLElement) -> [String: (titles: [String], bars: [String])] {
        var rows: [String: (titles: [String], bars: [String])] = [:]
        for row in html.all(where: { $0.hasClass("personal-row") }) {
            rows[row["data-row-name"] ?? ""] = (row.all(class: "personal-tile__title").map(\.text),
                                               row.all("progress").map { $0["aria-label"] ?? "" })
        }
        return rows
    }

    static func names(_ html: HTMLElement) -> [String] {
        html.all(where: { $0.hasClass("personal-row") }).map { $0["data-row-name"] ?? "" }
    }

    /// The page with the CSRF token's value blanked, to compare two visitors' pages.
    static func withoutToken(_ text: String, token: String?) -> String {
        guard let token, !token.isEmpty else { return text }
        return text.replacingOccurrences(of: token, with: "")
    }

    @Test func continueWatchingNewestFirstWithItsBarAFinishedTitleDropsOutMyListLatestAddedFirst() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        #expect(Self.names(try browser.page("/").html).isEmpty)
        for id in ["m-001", "m-002", "m-003"] {
            #expect(try browser.post("/watch/\(id)/play", withToken: []).status == 303)
        }
        #expect(try browser.post("/watch/m-001/progress", withToken: [("position", "600")]).status == 303)
        #expect(try browser.post("/my-list/s-002", withToken: [("action", "add")]).status == 303)
        #expect(try browser.post("/my-list/m-004", withToken: [("action", "add")]).status == 303)
        var home = try browser.page("/").html
        #expect(Self.names(home) == ["continue-watching", "my-list"])
        var rows = Self.rows(home)
        // Played m-001, m-002, m-003, then moved m-001 on: the newest first.
        #expect(rows["continue-watching"]?.titles == ["The Lighthouse Keeper's Daughter", try title("m-003"), "Salt & Iron"])
        #expect(rows["continue-watching"]?.bars.first == "Watched 10:00 of 1:52:00")
        #expect(home.first { $0.tag == "progress" }?["value"] == "9")
        #expect(rows["my-list"]?.titles == [try title("m-004"), try title("s-002")])
        let links = home.all(where: { $0.hasClass("personal-tile__open") }).map { $0["href"] ?? "" }
        #expect(links == ["/long/m-001", "/long/m-003", "/long/m-002", "/long/m-004", "/short/s-002"])

        // m-002 watched to its end: finished, out of the row.
        #expect(try browser.post("/watch/m-002/progress", withToken: [("position", "\(124 * 60)")]).status == 303)
        #expect(try browser.post("/my-list/s-002", withToken: [("action", "remove")]).status == 303)
        home = try browser.page("/?layout=grid").html
        rows = Self.rows(home)
        #expect(rows["continue-watching"]?.titles == ["The Lighthouse Keeper's Daughter", try title("m-003")])
        #expect(rows["my-list"]?.titles == [try title("m-004")])
    }

    @Test func aVisitorWithNoRowsGetsThePageEveryVisitorGetsWhoeverElseHasRows() throws {
        let fixture = try AppFixture()
        let first = fixture.browser()
        let before = try first.get("/")
        let watcher = fixture.browser()
        try watcher.get("/")
        #expect(try watcher.post("/watch/m-001/play", withToken: []).status == 303)
        #expect(Self.names(try watcher.page("/").html) == ["continue-watching"])
        let after = try first.get("/")
        #expect(Self.withoutToken(after.text, token: first.csrfToken) == Self.withoutToken(before.text, token: first.csrfToken))
        #expect(!after.text.contains("personal-row"))
        let stranger = fixture.browser()
        let strangers = try stranger.get("/")
        #expect(Self.withoutToken(strangers.text, token: stranger.csrfToken)
                == Self.withoutToken(before.text, token: first.csrfToken))
    }

    @Test func searchResultsShowNoRows() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        try browser.get("/")
        #expect(try browser.post("/my-list/m-001", withToken: [("action", "add")]).status == 303)
        #expect(Self.names(try browser.page("/").html) == ["my-list"])
        #expect(Self.names(try browser.page("/search?q=salt").html).isEmpty)
    }

    /// A list longer than the row: the title just added is the row's first, the oldest are left out.
    @Test func myListLongerThanItsRowShowsTheLatestAdded() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        _ = try browser.page("/")  // the visitor's cookie and form token
        let added = (1...12).map { String(format: "m-%03d", $0) }
        for id in added {
            let response = try browser.post("/my-list/\(id)", withToken: [("action", "add")])
            #expect(response.status == 303, "\(id): \(response.text.prefix(600))")
        }
        let titles = Self.rows(try browser.page("/").html)["my-list"]?.titles
        #expect(titles == (try added.reversed().prefix(10).map(title)))
    }

    func title(_ id: String) throws -> String {
        struct Entry: Decodable { let id, title: String }
        struct File: Decodable { let items: [Entry] }
        let data = try Data(contentsOf: AppFixture.configFolder.appendingPathComponent("content.json"))
        return try #require(try JSONDecoder().decode(File.self, from: data).items.first { $0.id == id }?.title)
    }
}

extension ViewingRowsTests {
    @Test func clearHistoryInSettingsTheRowsForgetEverythingBeforeItAfterARestartTooTheLogKeepsTheEvents() async throws {
        let logs = try TemporaryDirectory("clear-history")
        defer { logs.remove() }
        let path = logs.url.appendingPathComponent("reports").path
        var visitor: String?
        do {
            let fixture = try AppFixture { $0.reportLog = path }
            let browser = fixture.browser()
            #expect(try browser.page("/settings").html.button(labelled: "Clear history") == nil)
            #expect(try browser.post("/watch/m-001/play", withToken: []).status == 303)
            #expect(try browser.post("/my-list/s-001", withToken: [("action", "add")]).status == 303)
            #expect(Self.names(try browser.page("/").html) == ["continue-watching", "my-list"])
            let clear = try #require(try browser.page("/settings").html.button(labelled: "Clear history"))
            let cleared = try browser.press(clear)
            #expect(cleared.status == 303 && cleared.location == "/settings")
            #expect(try browser.follow(cleared).html().button(labelled: "Clear history") == nil)
            #expect(Self.names(try browser.page("/").html).isEmpty)
            // Played after clearing: shown again.
            #expect(try browser.post("/watch/m-002/play", withToken: []).status == 303)
            // The log keeps every event: clearing is one more.
            let names = { try ReportSegments.text(of: path).split(separator: "\n").map { try ReportEvent(jsonLine: String($0)).name } }
            try await eventually { try names().filter { $0 == .playStarted }.count == 2 }
            #expect(try names().filter { [.playStarted, .myListAdded, .historyCleared].contains($0) }
                    == [.playStarted, .myListAdded, .historyCleared, .playStarted])
            visitor = browser.cookies["visitor"]
        }
        let restarted = try AppFixture { $0.reportLog = path }
        let browser = restarted.browser()
        browser.setCookie("visitor", visitor)
        try await eventually { !Self.names(try browser.page("/").html).isEmpty }
        let rows = Self.rows(try browser.page("/").html)
        #expect(rows["continue-watching"]?.titles == [try title("m-002")])
        #expect(rows["my-list"] == nil)
    }
}
