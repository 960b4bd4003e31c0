import FeatureToggles
import Foundation
import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

/// The toggles file switches the home's rows, for everyone or for an experiment's group, on the
/// running server; the experiment's groups are then compared on `/reports/experiments`.
@Suite struct RowTogglesTests {
    // Waits are up to 60 s: the rows' look-ups and compressed forms run at low priority, behind
    // the whole suite's servers on two cores; a wait ends as soon as its condition holds.
    static func names(_ browser: Browser, _ target: String = "/") throws -> [String] {
        try browser.page(target).html.all(where: { $0.hasClass("personal-row") }).map { $0["data-row-name"] ?? "" }
    }

    /// A visitor who played one title and listed another.
    static func watcher(_ fixture: AppFixture) throws -> Browser {
        let browser = fixture.browser()
        try browser.get("/")
        #expect(try browser.post("/watch/m-001/play", withToken: []).status == 303)
        #expect(try browser.post("/my-list/m-002", withToken: [("action", "add")]).status == 303)
        return browser
    }

    @Test func rowsSwitchedOffInTheFileAreGoneForEveryoneCachedPageAndSplicedRowsAlikeAndBackOnceOn() async throws {
        let fixture = try AppFixture(toggles: #"{"rows": {"my-list": false, "trending": false}}"#) { $0.playStatisticsInterval = 0.1 }
        let browser = try Self.watcher(fixture)
        _ = try await fixture.events(named: .playStarted)
        #expect(try Self.names(browser) == ["continue-watching"])
        #expect(try Self.names(browser, "/?layout=grid") == ["continue-watching"])
        let stranger = fixture.browser()
        #expect(try Self.names(stranger).isEmpty)
        try fixture.writeToggles("{}")
        try await eventually(timeout: 60) { try Self.names(stranger) == ["trending"] }
        #expect(try Self.names(browser).starts(with: ["continue-watching", "my-list"]))
        #expect(try Self.names(browser).last == "trending")
    }

    @Test func anExperimentsGroupWithoutContinueWatchingAndTrendingNowItsVisitorsDoNotGetThemTheOtherGroupDoesBothOnReportsExperiments() async throws {
        let toggles = #"""
            {"experiments": [{"name": "rows", "groups": [{"name": "with", "weight": 1},
              {"name": "without", "weight": 1, "rows": {"continue-watching": false, "trending": false}}]}]}
            """#
        let fixture = try AppFixture(toggles: toggles) { $0.playStatisticsInterval = 0.1 }
        let decisions = FeatureDecisions(toggles: try Toggles(json: Data(toggles.utf8), file: "toggles.json"))
        var byGroup: [String: Browser] = [:]
        while byGroup.count < 2 {
            let browser = try Self.watcher(fixture)
            let visitor = try #require(browser.cookies["visitor"])
            let group = try #require(decisions.assignments(for: visitor).first).group.name
            if byGroup[group] == nil { byGroup[group] = browser }
        }
        let with = try #require(byGroup["with"]), without = try #require(byGroup["without"])
        try await eventually(timeout: 60) { try Self.names(with) == ["continue-watching", "my-list", "trending"] }
        #expect(try Self.names(without) == ["my-list"])
        #expect(try Self.names(without, "/?layout=grid") == ["my-list"])
        let (response, page) = try fixture.browser().page("/reports/experiments")
        #expect(response.status == 200)
        let section = try #require(page.first { $0["data-experiment"] == "rows" })
        for group in ["with", "without"] { #expect(section.first { $0["data-group"] == group } != nil) }
    }
}
