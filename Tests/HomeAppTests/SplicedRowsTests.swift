import Foundation
@testable import HomeApp
import HomeAppTestSupport
import HomeLayouts
import MicroHTTP
import Reporting
import Testing
import TestSupport

/// A visitor's own rows go into the cached page at its slot: the page is byte for byte the one
/// drawn for them, in every coding. `?row=99&at=0` names a scroll position no layout has, which
/// has the page drawn whole for the request while drawing the same markup.
@Suite struct SplicedRowsTests {
    // Waits are up to 60 s: the rows' look-ups and compressed forms run at low priority, behind
    // the whole suite's servers on two cores; a wait ends as soon as its condition holds.
    static let drawn = "&row=99&at=0"

    /// Every coding of `target` for `browser`'s visitor, decoded, against the page drawn for them.
    static func expectSplicedIsDrawn(_ browser: Browser, _ target: String) throws {
        let cookie = [("Cookie", browser.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
        let client = HTTPClient(port: browser.port)
        let drawnPage = try client.get(target + drawn, headers: cookie).body
        let spliced = try client.get(target, headers: cookie).body
        #expect(String(decoding: spliced, as: UTF8.self) == String(decoding: drawnPage, as: UTF8.self))
        for (header, sent) in [("gzip", "gzip"), ("br", "br"), ("br, gzip", "gzip")] {
            let response = try client.get(target, headers: cookie + [("Accept-Encoding", header)])
            #expect(response.header("Content-Encoding") == sent)
            let coding: ContentCoding = sent == "gzip" ? .gzip : .brotli
            #expect(coding.decode(response.body) == drawnPage, "\(target) in \(header)")
        }
    }

    @Test(arguments: ["/?layout=list", "/?layout=grid"])
    func rowsOfEveryKindInEachLayoutFirstDrawnOrFromTheCacheEqualTheDrawnPage(target: String) async throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#) { $0.playStatisticsInterval = 0.1 }
        let watcher = fixture.browser(), lister = fixture.browser(), both = fixture.browser()
        // The first request of a visitor with rows draws the page that is then cached.
        try lister.get("/")
        #expect(try lister.post("/my-list/m-004", withToken: [("action", "add")]).status == 303)
        try Self.expectSplicedIsDrawn(lister, target)
        try watcher.get("/")
        #expect(try watcher.post("/watch/m-001/play", withToken: []).status == 303)
        #expect(try watcher.post("/watch/m-001/progress", withToken: [("position", "600")]).status == 303)
        try both.get("/")
        for id in ["m-001", "m-002", "s-001"] { #expect(try both.post("/watch/\(id)/play", withToken: []).status == 303) }
        for id in ["s-002", "m-003", "m-004", "s-001", "m-002"] {
            #expect(try both.post("/my-list/\(id)", withToken: [("action", "add")]).status == 303)
        }
        _ = try await fixture.events(named: .playStarted, count: 4)
        // Trending now (in the cached page) and Because you watched (spliced) once the statistics have the plays.
        try await eventually(timeout: 60) { try both.page(target).html.first { $0["data-row-name"] == "because-you-watched" } != nil }
        #expect(try both.page(target).html.first { $0["data-row-name"] == "trending" } != nil)
        // The compressed forms are made off the request threads: until then pages are compressed per response.
        let client = HTTPClient(port: fixture.port)
        let anyone = [("Cookie", "visitor=0123456789abcdef0123456789abcdef")]
        let whole = ContentCoding.gzip.compress(try client.get(target, headers: anyone).body, level: 6).count
        try await eventually(timeout: 60) {
            try client.get(target, headers: anyone + [("Accept-Encoding", "gzip")]).body.count <= whole * 105 / 100
        }
        for browser in [watcher, lister, both] { try Self.expectSplicedIsDrawn(browser, target) }
        // With onboarding shown over the home, and dismissed.
        try Self.expectSplicedIsDrawn(both, target)
        #expect(try both.post("/onboarding/dismiss", withToken: []).status == 303)
        try Self.expectSplicedIsDrawn(both, target)
    }

    /// A visitor who played five titles and put them on My List, and the cookie that names them.
    static func visitorWithFiveTitlesInEachRow(_ fixture: AppFixture) throws -> (Browser, [(String, String)]) {
        let browser = fixture.browser()
        try browser.get("/")
        for id in ["m-001", "m-002", "m-003", "s-001", "s-002"] {
            #expect(try browser.post("/watch/\(id)/play", withToken: []).status == 303)
            #expect(try browser.post("/my-list/\(id)", withToken: [("action", "add")]).status == 303)
        }
        return (browser, [("Cookie", "visitor=\(browser.cookies["visitor"] ?? "")")])
    }

    /// Spliced, the page with five titles in each of two rows comes within 5% of the whole page
    /// compressed at level 6 (the rows compressed fast, the rest as cached); compressed per
    /// response at the fast level it would be some 10% larger.
    @Test func theGzipFormWithRowsIsAboutAsSmallAsThePageCompressedWhole() async throws {
        let fixture = try AppFixture()
        let (_, cookie) = try Self.visitorWithFiveTitlesInEachRow(fixture)
        let client = HTTPClient(port: fixture.port)
        let page = try client.get("/", headers: cookie).body
        let whole = ContentCoding.gzip.compress(page, level: 6).count
        try await eventually(timeout: 60) {
            let response = try client.get("/", headers: cookie + [("Accept-Encoding", "gzip")])
            return ContentCoding.gzip.decode(response.body) == page && response.body.count <= whole * 107 / 100
        }
    }

    /// The rows as the page takes them are padded to one of a few lengths (the brotli form's
    /// slot takes one length); a client that takes brotli alone gets the page in brotli, decoded
    /// equal to the drawn page before and after the form for that length is made.
    @Test func aBrotliOnlyClientGetsTheDrawnPageWithRowsPaddedToACapacity() async throws {
        let fixture = try AppFixture()
        let (browser, cookie) = try Self.visitorWithFiveTitlesInEachRow(fixture)
        let client = HTTPClient(port: fixture.port)
        let page = try client.get("/", headers: cookie).body
        let kept = try #require(fixture.app.services.rows.kept(ViewingHistory.key(browser.cookies["visitor"] ?? "")) ?? nil)
        #expect(HomeMarkup.rowsCapacities.contains(kept.bytes.count))
        // The first is compressed per response; the form for the rows' length is made meanwhile.
        let first = try client.get("/", headers: cookie + [("Accept-Encoding", "br")])
        #expect(first.header("Content-Encoding") == "br" && ContentCoding.brotli.decode(first.body) == page)
        try await eventually(timeout: 60) {
            let response = try client.get("/", headers: cookie + [("Accept-Encoding", "br")])
            return response.body != first.body && ContentCoding.brotli.decode(response.body) == page
        }
        try Self.expectSplicedIsDrawn(browser, "/?layout=list")
    }

    /// A visitor's rows are drawn once and kept: the next request takes the same bytes (and
    /// their gzip run, made once); a play, a change to My List, a catalogue change and a toggles
    /// change each show on the very next request.
    @Test func theRowsAreKeptBetweenRequestsAndEveryChangeShowsOnTheNextOne() async throws {
        let content = CatalogueChangeTests.file(CatalogueChangeTests.item("m-001", "First Cut"),
                                                CatalogueChangeTests.item("m-002", "Second Cut"),
                                                CatalogueChangeTests.item("m-003", "Third Cut"))
        let fixture = try AppFixture(content: content)
        // Reading the log in renumbers the titles held: rows drawn before are drawn again after.
        try await eventually(timeout: 60) { fixture.app.services.viewing.isLoaded }
        let browser = fixture.browser()
        try browser.get("/")
        #expect(try browser.post("/my-list/m-001", withToken: [("action", "add")]).status == 303)
        let key = ViewingHistory.key(browser.cookies["visitor"] ?? "")
        let rows = fixture.app.services.rows
        func titles() throws -> [String] {
            try browser.page("/").html.all(class: "personal-tile__title").map(\.text)
        }
        #expect(try titles() == ["First Cut"])
        let first = try #require(rows.kept(key) ?? nil)
        let client = HTTPClient(port: fixture.port)
        let cookie = [("Cookie", "visitor=\(browser.cookies["visitor"] ?? "")")]
        // Once the cached page's gzip form is made (off the request threads), a gzip response
        // compresses the rows and keeps their run with them.
        try await eventually(timeout: 60) {
            _ = try client.get("/", headers: cookie + [("Accept-Encoding", "gzip")])
            return first.isDeflated
        }
        #expect(try titles() == ["First Cut"])
        #expect((rows.kept(key) ?? nil).map { $0 === first } == true, "the same bytes, not drawn again")
        // My List and a play.
        #expect(try browser.post("/my-list/m-002", withToken: [("action", "add")]).status == 303)
        #expect(try titles() == ["Second Cut", "First Cut"])
        #expect(try browser.post("/watch/m-003/play", withToken: []).status == 303)
        #expect(try titles() == ["Third Cut", "Second Cut", "First Cut"])
        // The catalogue: a title renamed.
        try fixture.writeContent(CatalogueChangeTests.file(CatalogueChangeTests.item("m-001", "First Cut (restored)"),
                                                           CatalogueChangeTests.item("m-002", "Second Cut"),
                                                           CatalogueChangeTests.item("m-003", "Third Cut")))
        fixture.app.reload()
        #expect(try titles() == ["Third Cut", "Second Cut", "First Cut (restored)"])
        // The toggles: My List switched off.
        try fixture.writeToggles(#"{"rows": {"my-list": false}}"#)
        #expect(try titles() == ["Third Cut"])
        try Self.expectSplicedIsDrawn(browser, "/?layout=grid")
    }

    /// The budget holds: many visitors' rows fill it and the oldest go, a hit keeps its entry.
    @Test func theRowsCacheKeepsToItsBudget() {
        let cache = RowsCache(budget: 64 * 1024)
        func key(_ visitor: UInt64) -> RowsCache.Key {
            RowsCache.Key(held: ViewingHistory.Held(key: visitor, generation: 0, words: [1, 2, 3]), layout: "grid",
                          contentVersion: 1, assets: 1, plays: 1, hidden: [])
        }
        for visitor in UInt64(0)..<100 {
            cache.store(SlotInsert([UInt8](repeating: 32, count: 4000)), for: key(visitor))
            // The first visitor comes back every time: never dropped.
            #expect(cache.rows(for: key(0)) != nil)
        }
        #expect(cache.counts.recentBytes <= 32 * 1024)
        #expect(cache.counts.visitors < 20)
        #expect(cache.rows(for: key(1)) == nil, "dropped")
        #expect(cache.rows(for: key(99)) != nil)
        // Another version of what the rows were drawn from is not a hit.
        let changed = RowsCache.Key(held: ViewingHistory.Held(key: 99, generation: 0, words: [1, 2, 4]), layout: "grid",
                                    contentVersion: 1, assets: 1, plays: 1, hidden: [])
        #expect(cache.rows(for: changed) == nil)
    }
}
