import HomeAppTestSupport
import Testing
import TestSupport

/// What keyboard and screen-reader users land on: a skip link first, the dialog's focus.
@Suite("Keyboard")
struct KeyboardTests {
    @Test("every page with the header starts with a skip link to its content", arguments: [
        "/", "/?layout=grid", "/long/m-001", "/settings", "/search?q=harbour", "/long/nope",
    ])
    func skipLink(_ target: String) throws {
        let fixture = try AppFixture()
        let html = try fixture.browser().page(target).html
        let first = try #require(html.all { $0.tag == "a" || $0.tag == "button" }.first)
        #expect(first.hasClass("skip-link") && first.text == "Skip to content" && first["href"] == "#content")
        #expect(html.all { $0["id"] == "content" }.count == 1)
    }

    @Test("the New Year notice speaks of the streaming service and has the focus when it opens", arguments: ["/", "/onboarding"])
    func notice(_ target: String) throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let html = try fixture.browser().page(target).html
        let notice = try #require(html.controllers("NewYearContent").first)
        #expect(!notice.text.lowercased().contains("pizza"))
        #expect(notice.text.contains("live"))
        let focused = html.all { $0["autofocus"] != nil }
        #expect(focused.count == 1 && focused.first?["role"] == "dialog" && focused.first?["tabindex"] == "-1")
    }

    @Test("the search box focuses its field, not its sheet")
    func searchFocus() throws {
        let fixture = try AppFixture()
        let html = try fixture.browser().page("/search").html
        let focused = html.all { $0["autofocus"] != nil }
        #expect(focused.count == 1 && focused.first?["name"] == "q")
    }
}
