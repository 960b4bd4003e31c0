import Foundation
import HomeAppTestSupport
import Testing
import TestSupport

/// A live stream on the air now and one that starts later: only the first is live.
@Suite struct LiveScheduleTests {
    static let content = #"""
    {"items": [
      {"id": "l-now", "kind": "live", "title": "On Air", "description": "Started long ago.",
       "startsAt": "2020-01-01T00:00:00Z", "image": "images/posters/l-001.svg"},
      {"id": "l-later", "kind": "live", "title": "Later On", "description": "Starts in 2099.",
       "startsAt": "2099-12-31T22:00:00Z", "image": "images/posters/l-006.svg"},
      {"id": "m-1", "kind": "long", "title": "A Film", "description": "A film.",
       "durationMinutes": 90, "image": "images/posters/m-001.svg"}
    ]}
    """#

    func tile(_ html: HTMLElement, _ title: String) throws -> HTMLElement {
        try #require(html.all(class: "grid-tile").first { $0.text.contains(title) })
    }

    @Test func theGridWatchLiveAndTheLiveBadgeOnTheStreamOnAirOnlyTheUpcomingOneSaysWhenItStarts() throws {
        let fixture = try AppFixture(content: Self.content)
        let html = try fixture.browser().page("/?layout=grid").html
        let now = try tile(html, "On Air"), later = try tile(html, "Later On")
        #expect(now.text.contains("Watch live"))
        #expect(now.all(class: "poster__badge").map(\.text) == ["Live"])
        #expect(!later.text.contains("Watch live"))
        #expect(later.all(class: "poster__badge").isEmpty)
        #expect(later.first { $0.hasClass("grid-tile__meta") }?.text == "Starts Thu 31 Dec 2099, 22:00 UTC")
        #expect(html.all(class: "poster__badge").count == 1)
    }

    @Test func oneControlPerTileSoOneTabStopALiveTilesWatchLiveIsPartOfIt() throws {
        let fixture = try AppFixture()
        let html = try fixture.browser().page("/?layout=grid").html
        let tiles = html.all(class: "grid-tile")
        #expect(tiles.count == Catalogue.entries.count)
        for tile in tiles {
            let controls = tile.all { $0.tag == "button" || $0.tag == "a" }
            #expect(controls.count == 1, "\(tile["id"] ?? "") has \(controls.count) controls")
        }
    }

    @Test func theListTheLiveBadgeOnTheStreamOnAirOnly() throws {
        let fixture = try AppFixture(content: Self.content)
        let html = try fixture.browser().page("/?layout=list").html
        let rows = html.all(class: "home-list__row")
        #expect(rows.first { $0.text.contains("On Air") }?.all(class: "poster__badge").count == 1)
        #expect(rows.first { $0.text.contains("Later On") }?.all(class: "poster__badge").isEmpty == true)
    }

    @Test func anItemPagesMoreLikeThisTheLiveBadgeOnTheStreamOnAirOnly() throws {
        let fixture = try AppFixture(content: Self.content)
        let browser = fixture.browser()
        let later = try browser.page("/stream/l-later").html
        let now = try #require(later.all("a").first { $0["href"] == "/stream/l-now" })
        #expect(now.all(class: "poster__badge").count == 1)
        let onAir = try browser.page("/stream/l-now").html
        let upcoming = try #require(onAir.all("a").first { $0["href"] == "/stream/l-later" })
        #expect(upcoming.all(class: "poster__badge").isEmpty)
    }

    @Test func noPosterPaintsALiveBadgeThePageDrawsItForStreamsOnTheAir() throws {
        for id in Catalogue.ids("live") {
            let poster = AppFixture.publicFolder.appendingPathComponent("images/posters/\(id).svg")
            let text = try String(contentsOf: poster, encoding: .utf8)
            #expect(!text.contains(">LIVE<"), "\(id).svg paints LIVE")
        }
    }
}
