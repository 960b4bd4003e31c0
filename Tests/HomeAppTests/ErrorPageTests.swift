import HomeAppTestSupport
import Testing
import TestSupport

/// Error pages.
@Suite struct ErrorPageTests {
    /// A browser on the list, with the fields of its form (token, layout).
    func listForm(_ fixture: AppFixture) throws -> (Browser, [(String, String)]) {
        let browser = fixture.browser()
        let html = try browser.page("/?layout=list").html
        let form = try #require(html.first { $0.tag == "form" && $0["action"] == "/home/actions" })
        return (browser, form.all("input").map { ($0["name"] ?? "", $0["value"] ?? "") })
    }

    @Test(arguments: [
        "/long/m-999", "/short/m-001", "/stream/s-001", "/long/%3Cscript%3E",
    ])
    func anUnknownIdOrAnIdUnderAnotherKindsURLIsA404PageThatSaysSo(_ target: String) throws {
        let fixture = try AppFixture()
        let response = try fixture.browser().get(target)
        #expect(response.status == 404)
        let html = try response.html()
        #expect(html.first { $0.tag == "h1" }?.text == "Page not found")
        #expect(html.errorMessage?.contains("There is nothing called") == true)
        #expect(html.first { $0["data-controller"] == "ErrorScreen" }?["data-status"] == "404")
        #expect(!response.text.contains("<script>"))
    }

    @Test(arguments: [
        ("open", "9.99", "There is no item at position 9.99 on this screen."),
        ("open", "x", "\"x\" is not a position on this screen."),
        ("open", "-1.0", "\"-1.0\" is not a position on this screen."),
        ("watch", "0.0", "The form did not say what to do."),
    ])
    func aBadIndexPathIsA400PageThatNamesIt(_ field: String, _ value: String, _ message: String) async throws {
        let fixture = try AppFixture()
        let (browser, fields) = try listForm(fixture)
        let response = try browser.post("/home/actions", form: fields + [(field, value)])
        #expect(response.status == 400)
        #expect(try response.html().errorMessage == message)
        #expect(response.location == nil)
    }

    /// An unknown layout is reported as every error page is: for a visitor with a visitor cookie only.
    @Test func anUnknownLayoutIsAnErrorShownOnlyToAVisitorWithACookie() async throws {
        let fixture = try AppFixture()
        let client = HTTPClient(port: fixture.port)
        #expect(try client.get("/?layout=bogus").status == 400)
        let visitor = String(repeating: "ab", count: 16)
        #expect(try client.get("/?layout=bogus", headers: [("Cookie", "visitor=\(visitor)")]).status == 400)
        let shown = try await fixture.events(named: .errorShown)
        #expect(shown.map(\.visitor) == [visitor])
        #expect(shown.first?.properties["status"] == "400")
    }

    @Test func aPostNamingNoLayoutOrOneTheAppDoesNotHaveIsA400() throws {
        let fixture = try AppFixture()
        let (browser, fields) = try listForm(fixture)
        let token = try #require(fields.first { $0.0 == "_csrf" })
        for layout in [[], [("layout", "carousel")]] {
            let response = try browser.post("/home/actions", form: [token] + layout + [("open", "0.0")])
            #expect(response.status == 400)
            #expect(try response.html().errorMessage == "The form did not name a layout this site has.")
        }
    }

    @Test func aPostWithAMissingForgedOrSomeoneElsesCSRFTokenIsA403ThatSaysWhy() async throws {
        let fixture = try AppFixture()
        let (browser, fields) = try listForm(fixture)
        let (_, otherFields) = try listForm(fixture)
        let withoutToken = fields.filter { $0.0 != "_csrf" }
        let attempts: [[(String, String)]] = [
            withoutToken,
            withoutToken + [("_csrf", "")],
            withoutToken + [("_csrf", "forged-token")],
            withoutToken + [("_csrf", String(repeating: "A", count: 43))],
            withoutToken + [otherFields.first { $0.0 == "_csrf" }!],
        ]
        for attempt in attempts {
            let response = try browser.post("/home/actions", form: attempt + [("open", "0.0")])
            #expect(response.status == 403)
            let html = try response.html()
            #expect(html.first { $0.tag == "h1" }?.text == "Form expired")
            #expect(html.errorMessage?.contains("did not come from this site") == true)
        }
        // A browser with no visitor cookie cannot post either, even with a valid-looking form.
        let stranger = try fixture.browser().post("/home/actions", form: fields + [("open", "0.0")])
        #expect(stranger.status == 403)
        // Every other state-changing form refuses too.
        for target in ["/settings", "/onboarding/dismiss", "/onboarding/layout"] {
            #expect(try browser.post(target, form: withoutToken).status == 403)
        }
        // The real token works, and only that one action was reported; each refusal the visitor
        // was shown is an `error_shown` with its status (the stranger, with no visitor cookie, none).
        let good = try browser.post("/home/actions", form: fields + [("open", "0.0")])
        #expect(good.status == 303)
        _ = try await fixture.events(named: .longSelected)
        let reported = try fixture.events().filter { $0.name != .launch }
        #expect(reported.filter { $0.name != .errorShown }.map(\.name) == [.longSelected])
        #expect(reported.filter { $0.name == .errorShown }.map { $0.properties["status"] } == Array(repeating: "403", count: 8))
    }
}
