import HomeAppTestSupport
import Testing
import TestSupport

/// A page's buttons name positions; once the catalogue changes, those positions may hold other
/// items. A post from such a page opens nothing and shows the current home with a notice.
@Suite struct CatalogueChangeTests {
    static func item(_ id: String, _ title: String) -> String {
        #"{"id":"\#(id)","kind":"long","title":"\#(title)","description":"A film.","durationMinutes":90,"image":"images/posters/m-001.svg"}"#
    }

    static func file(_ items: String...) -> String { #"{"version":1,"items":["# + items.joined(separator: ",") + "]}" }

    @Test(arguments: ["list", "grid"])
    func afterTwoFilmsSwapPlacesTheOldPagesButtonOpensNeither(layout: String) throws {
        let fixture = try AppFixture(content: Self.file(Self.item("m-001", "First Cut"), Self.item("m-002", "Second Cut")))
        let browser = fixture.browser()
        let old = try browser.page("/?layout=\(layout)").html
        let button = try #require(old.first { $0.tag == "button" && $0["name"] == "open" && $0["value"] == "0.0" })
        #expect(button.text.contains("First Cut"))

        // The same size and maybe the same second: re-read now, as SIGHUP does.
        try fixture.writeContent(Self.file(Self.item("m-002", "Second Cut"), Self.item("m-001", "First Cut")))
        fixture.app.reload()
        #expect(try fixture.browser().page("/?layout=list").html.all(class: "list-row__title").first?.text == "Second Cut")
        let response = try browser.press(button)
        #expect(response.status == 409)
        #expect(response.location == nil)
        let page = try response.html()
        #expect(page.first { $0.hasClass("home-container__notice") }?.text.hasPrefix("The catalogue changed") == true)
        let child = layout == "list" ? "ListHome" : "GridHome"
        #expect(page.controllerPaths(child) == [["HomeContainer", child]], "the current home, in the posted layout")

        // The fresh page's own button opens what it shows.
        let fresh = try browser.page("/?layout=\(layout)").html
        let again = try #require(fresh.first { $0.tag == "button" && $0["name"] == "open" && $0["value"] == "0.0" })
        let opened = try browser.press(again)
        #expect(opened.status == 303)
        #expect(opened.location == "/long/m-002")
    }

    @Test func anEditThatKeepsEveryItemInPlaceLeavesOldPagesWorking() throws {
        let fixture = try AppFixture(content: Self.file(Self.item("m-001", "First Cut"), Self.item("m-002", "Second Cut")))
        let browser = fixture.browser()
        let old = try browser.page("/?layout=list").html
        try fixture.writeContent(Self.file(Self.item("m-001", "First Cut (restored)"), Self.item("m-002", "Second Cut")))
        fixture.app.reload()
        #expect(try fixture.browser().page("/?layout=list").html.all(class: "list-row__title").first?.text == "First Cut (restored)")
        let button = try #require(old.first { $0.tag == "button" && $0["name"] == "open" && $0["value"] == "0.0" })
        let response = try browser.press(button)
        #expect(response.status == 303)
        #expect(response.location == "/long/m-001")
    }
}
