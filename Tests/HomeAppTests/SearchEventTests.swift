import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

/// A search is one `search_submitted`, whatever the visitor then does on its results.
@Suite struct SearchEventTests {
    @Test func switchingTheResultsLayoutAndScrollingARowWriteTheirOwnEventsNotAnotherSearch() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let results = try browser.page("/search?q=live").html
        let toGrid = try browser.press(try #require(results.buttons(named: "replace", value: "grid").first))
        #expect(toGrid.location == "/search?q=live&layout=grid")
        let grid = try browser.follow(toGrid).html()
        #expect(grid.controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])
        let more = try browser.press(try #require(grid.buttons(named: "more").first))
        #expect(more.status == 303)
        let scrolled = try browser.follow(more).html()
        let toList = try browser.press(try #require(scrolled.buttons(named: "replace", value: "list").first))
        #expect(toList.location == "/search?q=live&layout=list")
        #expect(try browser.follow(toList).html().controllerPaths("ListHome") == [["HomeContainer", "ListHome"]])

        _ = try await fixture.events(named: .layoutReplaced, count: 2)
        _ = try await fixture.events(named: .horizontalSwipe)
        let names = try fixture.events().map(\.name)
        #expect(names.filter { $0 == .searchSubmitted }.count == 1, "\(names)")
        #expect(names.filter { $0 == .horizontalSwipe }.count == 1)
    }

    @Test func aResultsPageNamesItsLayoutLayoutWinsOverTheCookieAnUnknownOneIsRefused() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.setCookie("layout", "grid")
        #expect(try browser.page("/search?q=harbour&layout=list").html.controllerPaths("ListHome") == [["HomeContainer", "ListHome"]])
        #expect(try browser.page("/search?q=harbour").html.controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])
        #expect(try browser.get("/search?q=harbour&layout=carousel").status == 400)
    }
}
