import HomeAppTestSupport
import Testing
import TestSupport

/// Search.
@Suite struct SearchTests {
    static let harbour = ["m-002", "m-006", "m-007", "l-002", "l-008"]

    /// Opens the search modal from the home's header and submits `query` through its form.
    func search(_ browser: Browser, _ query: String) throws -> HTTPResponse {
        let home = try browser.page("/").html
        let link = try #require(home.first { $0.tag == "a" && $0.text == "Search" })
        let (modal, html) = try browser.page(try #require(link["href"]))
        #expect(modal.status == 200)
        let form = try #require(html.first { $0.tag == "form" && $0["action"] == "/search" })
        #expect(form["method"] == "get")
        return try browser.press(try #require(form.all("button").first), setting: ["q": query])
    }

    @Test func searchIsTheTextInputModal() throws {
        let fixture = try AppFixture()
        let (response, html) = try fixture.browser().page("/search")
        #expect(response.status == 200)
        #expect(html.controllerPaths("TextInputController") == [["ModalContainer", "TextInputController"]])
        #expect(html.first { $0.tag == "input" && $0["name"] == "q" } != nil)
    }

    @Test(arguments: ["", "%20%20"])
    func anEmptyQueryIsTheModalAgainWithItsMessageAsA400(_ q: String) throws {
        let fixture = try AppFixture()
        let (response, html) = try fixture.browser().page("/search?q=\(q)")
        #expect(response.status == 400)
        #expect(html.controllerPaths("TextInputController") == [["ModalContainer", "TextInputController"]])
        #expect(html.first { $0.hasClass("text-input__error") }?.text == "Type a word to search for.")
        #expect(html.controllers("HomeContainer").isEmpty)
    }

    @Test(arguments: [
        ("list", "ListHome"), ("grid", "GridHome"),
    ])
    func aMatchShowsOnlyTheMatchingItemsThroughTheCurrentLayoutsChildAndIsReported(_ layout: String, _ controller: String) async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.setCookie("layout", layout)
        let response = try search(browser, "harbour")
        #expect(response.status == 200)
        let html = try response.html()
        #expect(html.controllerPaths(controller) == [["HomeContainer", controller]])
        let child = try #require(html.controllers(controller).first)
        #expect(child.buttons(named: "open").count == Self.harbour.count)
        for id in Self.harbour { #expect(child.openButton(for: id) != nil, "\(id) missing") }
        #expect(response.text.contains("Results for \u{201C}<bdi>harbour</bdi>\u{201D}"))
        let event = try #require(try await fixture.event(named: .searchSubmitted))
        #expect(event.layout == layout && event.visitor == browser.cookies["visitor"])
        #expect(event.properties["query"] == "harbour" && event.properties["results"] == "5")
        // A results page is not a launch of the home.
        #expect(try fixture.events().filter { $0.name == .launch }.count == 1)
    }

    @Test func aMissShowsTheEmptyStateWithTheQueryEscaped() throws {
        let fixture = try AppFixture()
        let response = try search(fixture.browser(), "<b>zebra</b>")
        #expect(response.status == 200)
        #expect(!response.text.contains("<b>zebra"))
        let html = try response.html()
        let child = try #require(html.controllers("ListHome").first)
        #expect(child.buttons(named: "open").isEmpty)
        #expect(response.text.contains("Nothing matches \u{201C}<bdi>&lt;b&gt;zebra&lt;/b&gt;</bdi>\u{201D}. Try another word."))
    }

    /// A typed direction override reorders only the quote it is in, not the words around it.
    @Test func aQueryIsEchoedIsolatedSoADirectionOverrideInItTurnsNothingElse() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let found = try browser.get("/search?q=%E2%80%AEharbour")
        #expect(found.status == 200)
        #expect(found.text.contains("Results for \u{201C}<bdi>\u{202E}harbour</bdi>\u{201D}"), "\(found.text)")
        #expect(found.text.contains("<title>Search: \u{2068}\u{202E}harbour\u{2069}"))
        let missed = try browser.get("/search?q=%E2%80%AEzebra")
        #expect(missed.text.contains("Nothing matches \u{201C}<bdi>\u{202E}zebra</bdi>\u{201D}. Try another word."))
        let (refused, html) = try browser.page("/search?q=%E2%80%AE" + String(repeating: "x", count: 90))
        #expect(refused.status == 400)
        #expect(html.first { $0.tag == "input" && $0["name"] == "q" }?["dir"] == "auto")
    }

    @Test(arguments: ["list", "grid"])
    func choosingAResultOpensThatResultNotTheItemAtTheSamePlaceOnTheHome(_ layout: String) async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        browser.setCookie("layout", layout)
        let html = try search(browser, "harbour").html()
        for id in ["m-006", "l-008"] {
            let button = try #require(html.openButton(for: id))
            let response = try browser.press(button)
            #expect(response.status == 303)
            #expect(response.location == Catalogue.scene(id))
        }
        let events = try await fixture.events(named: .longSelected)
        #expect(events.map(\.item) == ["m-006"])
    }

    @Test func switchingLayoutOnTheResultsPersistsItAndComesBackToTheSameResults() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let html = try search(browser, "salt iron").html()
        #expect(html.first { $0.tag == "form" && $0.hasClass("home-form") }?["action"] == "/home/actions?q=salt%20iron")
        let response = try browser.press(try #require(html.buttons(named: "replace", value: "grid").first))
        #expect(response.status == 303 && response.location == "/search?q=salt%20iron&layout=grid")
        #expect(browser.cookies["layout"] == "grid")
        let grid = try browser.follow(response).html()
        let child = try #require(grid.controllers("GridHome").first)
        #expect(child.buttons(named: "open").count == 2)
        #expect(child.openButton(for: "m-002") != nil && child.openButton(for: "s-005") != nil)
    }
}

/// Search limits.
@Suite struct SearchLimitTests {
    /// One character: `a` and 800 combining accents, 1,601 bytes.
    static let stacked = "a" + String(repeating: "%CC%81", count: 800)

    @Test func theSearchLimitCountsBytesTooAStackedCharacterIsRefusedAndTheFieldDoesNotEchoItWhole() throws {
        let fixture = try AppFixture()
        let (response, html) = try fixture.browser().page("/search?q=\(Self.stacked)")
        #expect(response.status == 400)
        #expect(html.first { $0.hasClass("text-input__error") }?.text == "Please use at most 80 characters.")
        let field = try #require(html.first { $0.tag == "input" && $0["name"] == "q" })
        #expect((field["value"]?.utf8.count ?? 0) <= 320)
    }

    @Test func aQueryWithinTheByteLimitIsStillSearched() throws {
        let fixture = try AppFixture()
        let (response, _) = try fixture.browser().page("/search?q=" + String(repeating: "%C3%A9", count: 80))
        #expect(response.status == 200)
    }
}
