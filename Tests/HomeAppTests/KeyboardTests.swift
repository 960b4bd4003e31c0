import HomeAppTestSupport
import Testing
import TestSupport

/// What keyboard and screen-reader users land on: a skip link first, the dialog's focus.
@Suite struct KeyboardTests {
    @Test(arguments: [
        "/", "/?layout=grid", "/long/m-001", "/settings", "/search?q=harbour", "/long/nope",
    ])
    func everyPageWithTheHeaderStartsWithASkipLinkToItsContent(_ target: String) throws {
        let fixture = try AppFixture()
        let html = try fixture.browser().page(target).html
        let first = try #require(html.all { $0.tag == "a" || $0.tag == "button" }.first)
        #expect(first.hasClass("skip-link") && first.text == "Skip to content" && first["href"] == "#content")
        #expect(html.all { $0["id"] == "content" }.count == 1)
    }

    @Test(arguments: ["/", "/onboarding"])
    func theNewYearNoticeSpeaksOfTheStreamingServiceAndHasTheFocusWhenItOpens(_ target: String) throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let html = try fixture.browser().page(target).html
        let notice = try #require(html.controllers("NewYearContent").first)
        #expect(!notice.text.lowercased().contains("pizza"))
        #expect(notice.text.contains("live"))
        let focused = html.all { $0["autofocus"] != nil }
        #expect(focused.count == 1 && focused.first?["role"] == "dialog" && focused.first?["tabindex"] == "-1")
    }

    @Test func theSearchBoxFocusesItsFieldNotItsSheet() throws {
        let fixture = try AppFixture()
        let html = try fixture.browser().page("/search").html
        let focused = html.all { $0["autofocus"] != nil }
        #expect(focused.count == 1 && focused.first?["name"] == "q")
    }
}
