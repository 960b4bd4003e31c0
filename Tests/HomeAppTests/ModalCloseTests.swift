import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

/// Closing a modal (the search box, the New Year notice, the layout card) takes the visitor back
/// to the page they opened it from, as a browser with JavaScript off does it.
@Suite struct ModalCloseTests {
    /// Presses the modal's close control as a browser would: follows its link, or submits its
    /// form and follows the redirect. Returns where it went and the page it got there.
    static func close(_ html: HTMLElement, in browser: Browser) throws -> (target: String, page: HTTPResponse) {
        let modal = try #require(html.controllers("ModalContainer").first)
        let control = try #require(modal.first { $0.hasClass("modal__close") })
        #expect(control["aria-label"] == "Close")
        if control.tag == "a" {
            let target = try #require(control["href"])
            return (target, try browser.get(target))
        }
        let response = try browser.press(control)
        guard response.status == 303, let location = response.location else {
            return (control.closest("form")?["action"] ?? "", response)
        }
        return (location, try browser.follow(response))
    }

    /// The header's Search link on `html`.
    static func searchLink(_ html: HTMLElement) throws -> String {
        try #require(html.first { $0.tag == "a" && $0.text == "Search" }?["href"])
    }

    @Test(arguments: [
        "/", "/?layout=grid", "/long/m-001", "/settings", "/search?q=harbour",
    ])
    func theSearchBoxClosesBackToThePageItWasOpenedFrom(_ origin: String) async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.sendsReferrer = true
        let (_, page) = try browser.page(origin)
        let (_, modal) = try browser.page(try Self.searchLink(page))
        let (target, back) = try Self.close(modal, in: browser)
        #expect(back.status == 200, "closing went to \(target) and got \(back.status)")
        // Results gone back to are marked as shown again: closing writes no second search. A
        // search after it, once written, follows every event before it in the log.
        let searched = origin.hasPrefix("/search?")
        #expect(target == (searched ? origin + "&again=1" : origin))
        _ = try browser.get("/search?q=marker")
        let searches = try await fixture.events(named: .searchSubmitted, count: searched ? 2 : 1)
        #expect(searches.count == (searched ? 2 : 1) && searches.last?.properties["query"] == "marker", "\(searches)")
    }

    @Test func afterARefusedQueryTheSearchBoxStillClosesBackToWhereItWasOpened() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.sendsReferrer = true
        let (_, page) = try browser.page("/long/m-001")
        let (_, modal) = try browser.page(try Self.searchLink(page))
        let form = try #require(modal.first { $0.tag == "form" && $0["action"] == "/search" })
        let refused = try browser.press(try #require(form.all("button").first), setting: ["q": "   "])
        #expect(refused.status == 400)
        let (target, back) = try Self.close(try refused.html(), in: browser)
        #expect(target == "/long/m-001" && back.status == 200)
        #expect(try fixture.events().filter { $0.name == .searchSubmitted }.isEmpty)
    }

    /// Search after search, each from a box opened over the last results: the box closes back to
    /// those results every time, their address not growing with the searches before them.
    @Test func searchAfterSearchClosesBackToTheLastResults() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.sendsReferrer = true
        var page = try browser.page("/search?q=harbour").html
        var shown = "harbour"
        for word in ["light", "salt", "train", "rain", "ice", "aurora", "piano", "street", "live", "news", "night", "cast"] {
            let modal = try browser.page(try Self.searchLink(page)).html
            let close = modal.first { $0.hasClass("modal__close") }
            #expect(close?["href"] == "/search?q=\(shown)&again=1", "after \(shown): \(close?["href"]?.count ?? 0) characters")
            let form = try #require(modal.first { $0.tag == "form" && $0["action"] == "/search" })
            let results = try browser.press(try #require(form.all("button").first), setting: ["q": word])
            #expect(results.status == 200, "\(word)")
            page = try results.html()
            shown = word
        }
    }

    @Test(arguments: [
        "/search?from=//evil.example/x", "/search?from=https://evil.example/", "/search?from=%2F%5Cevil.example",
        "/search?from=/%0D%0ASet-Cookie:x=1", "/search?from=javascript:alert(1)",
    ])
    func aReturnAddressThatLeavesTheSiteClosesToTheHomeInstead(_ target: String) throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let modal = try browser.page(target).html
        let (back, page) = try Self.close(modal, in: browser)
        #expect(back == "/" && page.status == 200)
    }

    @Test func aRefererFromAnotherSiteIsNotWhereClosingGoes() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let response = try browser.get("/search", headers: [("Referer", "http://evil.example/settings")])
        let (back, _) = try Self.close(try response.html(), in: browser)
        #expect(back == "/")
    }

    @Test(arguments: ["close", "ok"])
    func theNewYearNoticeOverAHomeClosesBackToThatHomeForGood(_ how: String) async throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let browser = fixture.browser()
        browser.sendsReferrer = true
        let html = try browser.page("/?layout=grid").html
        #expect(html.controllers("NewYearContent").count == 1)
        let response: HTTPResponse
        if how == "close" {
            let (_, page) = try Self.close(html, in: browser)
            response = page
        } else {
            let ok = try #require(html.first { $0.hasClass("onboarding__actions") }?.button(labelled: "OK, got it"))
            let answer = try browser.press(ok)
            #expect(answer.location == "/?layout=grid")
            response = try browser.follow(answer)
        }
        #expect(browser.currentPage == "/?layout=grid")
        let home = try response.html()
        #expect(home.controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])
        #expect(home.controllers("ModalContainer").isEmpty)
        _ = try await fixture.events(named: .onboardingDismissed)
        #expect(try fixture.events().filter { $0.name == .onboardingDismissed }.count == 1)
    }

    @Test func settingsLinksToTheLayoutCardWhichClosesBackToSettingsAndWritesNothing() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.sendsReferrer = true
        let settings = try browser.page("/settings").html
        let link = try #require(settings.all("a").first { $0["href"]?.hasPrefix("/onboarding/layout") == true })
        let (response, card) = try browser.page(try #require(link["href"]))
        #expect(response.status == 200 && card.controllers("LayoutChoice").count == 1)
        let before = try fixture.events().count
        let (target, back) = try Self.close(card, in: browser)
        #expect(target == "/settings" && back.status == 200)
        #expect(try back.html().controllers("SettingsScreen").count == 1)
        // A launch after it: once that is in the log, so is anything the close wrote.
        try browser.get("/")
        _ = try await fixture.events(named: .launch)
        #expect(try fixture.events().dropFirst(before).map(\.name) == [.launch], "closing the card is not an event")
    }
}
