import HomeAppTestSupport
import Testing
import TestSupport

/// Content reload in the running app.
@Suite struct ContentReloadTests {
    static func item(_ id: String, _ title: String) -> String {
        #"{"id":"\#(id)","kind":"long","title":"\#(title)","description":"A film.","durationMinutes":90,"image":"images/posters/m-001.svg"}"#
    }

    static func file(_ items: String...) -> String { #"{"version":1,"items":["# + items.joined(separator: ",") + "]}" }

    /// The titles the list shows now.
    func titles(_ fixture: AppFixture) throws -> [String] {
        try fixture.browser().page("/?layout=list").html.all(class: "list-row__title").map(\.text)
    }

    @Test func aChangedContentFileIsServedWithoutARestartABadOneKeepsTheOldCatalogue() async throws {
        let fixture = try AppFixture(content: Self.file(Self.item("m-001", "First Cut")))
        #expect(try titles(fixture) == ["First Cut"])
        #expect(try fixture.browser().get("/long/m-002").status == 404)

        try fixture.writeContent(Self.file(Self.item("m-001", "First Cut"), Self.item("m-002", "Second Cut")))
        try await eventually { try titles(fixture) == ["First Cut", "Second Cut"] }
        #expect(try titles(fixture) == ["First Cut", "Second Cut"])
        #expect(try fixture.browser().get("/long/m-002").status == 200)

        try fixture.writeContent(#"{"version":1,"items":[{"id":"m-003","kind":"movie"}]}"#)
        // Re-read now (as SIGHUP does), so the bad file has certainly been seen.
        fixture.app.reload()
        #expect(try titles(fixture) == ["First Cut", "Second Cut"])
        #expect(try fixture.browser().get("/long/m-002").status == 200)

        // Index paths follow the new catalogue too.
        let browser = fixture.browser()
        let button = try #require(try browser.page("/").html.buttons(named: "open", value: "0.1").first)
        #expect(try browser.press(button).location == "/long/m-002")
    }
}
