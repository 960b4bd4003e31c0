import Foundation
import HomeAppTestSupport
import Testing
import TestSupport

/// Trending now and Because you watched on the home.
@Suite struct SharedRowsTests {
    static func row(_ name: String, in html: HTMLElement) -> (title: String, links: [String])? {
        guard let row = html.first(where: { $0.hasClass("personal-row") && $0["data-row-name"] == name }) else { return nil }
        return (row.first { $0.tag == "h2" }?.text ?? "", row.all(class: "personal-tile__open").map { $0["href"] ?? "" })
    }

    @Test func aSecondVisitorSeesTheFirstOnesTitlesInTrendingNowThoseWhoStartedThemGetBecauseYouWatched() async throws {
        let fixture = try AppFixture { $0.playStatisticsInterval = 0.1 }
        let newcomer = fixture.browser()
        #expect(Self.row("trending", in: try newcomer.page("/").html) == nil)

        let first = fixture.browser(), second = fixture.browser()
        try first.get("/")
        try second.get("/")
        for id in ["m-002", "m-003", "s-001"] { #expect(try first.post("/watch/\(id)/play", withToken: []).status == 303) }
        #expect(try second.post("/watch/m-002/play", withToken: []).status == 303)
        // The second visitor finished s-002: never suggested to them.
        #expect(try second.post("/watch/s-002/play", withToken: []).status == 303)
        #expect(try second.post("/watch/s-002/progress", withToken: [("position", "60")]).status == 303)
        #expect(try second.post("/watch/m-002/play", withToken: []).status == 303)
        _ = try await fixture.events(named: .playStarted, count: 6)

        // m-002 three starts, then one each, by id.
        let expected = ["/long/m-002", "/long/m-003", "/short/s-001", "/short/s-002"]
        try await eventually { Self.row("trending", in: try newcomer.page("/").html)?.links == expected }
        let trending = try #require(Self.row("trending", in: try newcomer.page("/?layout=grid").html))
        #expect(trending.title == "Trending now" && trending.links == expected)

        let because = try #require(Self.row("because-you-watched", in: try second.page("/").html))
        #expect(because.title == "Because you watched Salt & Iron")
        #expect(because.links == ["/long/m-003", "/short/s-001"])
        let firsts = try #require(Self.row("because-you-watched", in: try first.page("/").html))
        #expect(firsts.title.hasPrefix("Because you watched ") && !firsts.links.isEmpty)
    }
}
