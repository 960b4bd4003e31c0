import FeatureToggles
import HomeApp
import HomeAppTestSupport
import Testing
import TestSupport

/// Home layouts.
@Suite struct HomeLayoutTests {
    @Test(arguments: [
        ("list", "ListHome"), ("grid", "GridHome"),
    ])
    func layoutListAndLayoutGridRenderHomeContainerChildWithEveryItem(_ layout: String, _ controller: String) throws {
        let fixture = try AppFixture()
        let (response, html) = try fixture.browser().page("/?layout=\(layout)")
        #expect(response.status == 200)
        #expect(html.controllerPaths(controller) == [["HomeContainer", controller]])
        #expect(html.controllers(layout == "list" ? "GridHome" : "ListHome").isEmpty)
        let child = try #require(html.controllers(controller).first)
        #expect(child.buttons(named: "open").count == Catalogue.entries.count)
        for entry in Catalogue.entries {
            #expect(child.openButton(for: entry.id) != nil, "\(entry.id) is missing")
        }
        // Index paths are the layout's own order: the first button opens its first section's first item.
        let first = try #require(child.buttons(named: "open").first)
        #expect(first["value"] == "0.0" && first.text.hasPrefix(Catalogue.title(Catalogue.id(at: "0.0", layout: layout))))
        #expect(child.buttons(named: "watch").isEmpty, "Watch live is part of a tile's one button")
        #expect(html.first { $0.tag == "meta" && $0["name"] == "csrf-token" }?["content"]?.isEmpty == false)
    }

    @Test func theFirstVisitSetsAnHttpOnlySameSiteLaxVisitorCookieAndKeepsIt() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let first = try browser.get("/")
        let cookie = try #require(first.headers("Set-Cookie").first { $0.hasPrefix("visitor=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        #expect(browser.cookies["visitor"]?.count == 32)
        #expect(try browser.get("/").headers("Set-Cookie").isEmpty)
    }

    @Test func anUnknownLayoutIsA400PageListingTheValidOnesAsLinks() throws {
        let fixture = try AppFixture()
        let (response, html) = try fixture.browser().page("/?layout=carousel%3Cb%3E")
        #expect(response.status == 400)
        #expect(html.errorMessage?.contains("There is no layout called \u{201C}carousel<b>\u{201D}") == true)
        #expect(!response.text.contains("carousel<b>"))
        let links = html.all("a").compactMap { $0["href"] }.filter { $0.hasPrefix("/?layout=") }
        #expect(links == ["/?layout=list", "/?layout=grid"])
        #expect(html.controllers("HomeContainer").isEmpty)
    }

    @Test func theTogglesDefaultLayoutDecidesTheHomeOfAVisitorWhoHasNotChosen() throws {
        let fixture = try AppFixture(toggles: #"{"defaultLayout": "grid"}"#)
        let browser = fixture.browser()
        #expect(try browser.page("/").html.controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])
        #expect(try browser.page("/?layout=list").html.controllerPaths("ListHome") == [["HomeContainer", "ListHome"]])
    }

    @Test func togglesNamingALayoutTheAppDoesNotHaveAreRefusedAtStartWithTheKnownLayouts() throws {
        for toggles in [#"{"defaultLayout": "carousel"}"#, #"{"rollout": {"carousel": 0.1}}"#,
                        #"{"experiments": [{"name": "e", "groups": [{"name": "a"}, {"name": "b", "layout": "carousel"}]}]}"#] {
            let error = try #require(throws: AppError.self) { try AppFixture(toggles: toggles) }
            #expect(error.description.hasPrefix("--toggles: "))
            #expect(error.description.hasSuffix(#"names the layout "carousel", which this app does not have (layouts: list, grid)"#))
        }
    }

    @Test func aReloadNamingAnUnknownLayoutIsRefusedAndThePreviousTogglesKeepServing() throws {
        let fixture = try AppFixture(toggles: #"{"rollout": {"grid": 1}}"#)
        let browser = fixture.browser()
        #expect(try browser.page("/").html.controllers("GridHome").count == 1)
        try fixture.writeToggles(#"{"defaultLayout": "carousel"}"#)
        #expect(try browser.page("/").html.controllers("GridHome").count == 1)
        try fixture.writeToggles(#"{"defaultLayout": "list"}"#)
        #expect(try browser.page("/").html.controllers("ListHome").count == 1, "a good file is taken again")
    }

    @Test(arguments: [
        ("1.0", "GridHome"), ("0", "ListHome"),
    ])
    func gridRollout1GivesEveryoneTheGrid0GivesEveryoneTheDefault(_ share: String, _ controller: String) throws {
        let fixture = try AppFixture(toggles: #"{"gridRollout": \#(share)}"#)
        for seed in 1...8 {
            let browser = fixture.browser()
            browser.setCookie("visitor", visitorID(seed * 7919))
            #expect(try browser.page("/").html.controllers(controller).count == 1)
        }
    }

    @Test func withA03RolloutTheServedDefaultFollowsFeatureDecisionsPerVisitor() throws {
        let decisions = FeatureDecisions(toggles: Toggles(gridRollout: 0.3))
        let ids = (0..<10_000).map { visitorID($0 &* 2_654_435_761 % 1_000_000_007) }
        let share = Double(ids.filter { decisions.defaultLayout(for: $0) == "grid" }.count) / Double(ids.count)
        #expect((0.27...0.33).contains(share))

        let fixture = try AppFixture(toggles: #"{"gridRollout": 0.3}"#)
        let sample = Array(ids.prefix(16))
        var served: Set<String> = []
        for id in sample {
            let browser = fixture.browser()
            browser.setCookie("visitor", id)
            let expected = decisions.defaultLayout(for: id) == "grid" ? "GridHome" : "ListHome"
            #expect(try browser.page("/").html.controllers(expected).count == 1, "visitor \(id)")
            served.insert(expected)
            // Stable: the same visitor gets the same layout again.
            #expect(try browser.page("/").html.controllers(expected).count == 1)
        }
        #expect(served == ["GridHome", "ListHome"], "the sample should cover both outcomes")
    }

    @Test func layoutWinsOverTheCookieTheCookieOverTheToggles() throws {
        let fixture = try AppFixture(toggles: #"{"defaultLayout": "grid"}"#)
        let browser = fixture.browser()
        browser.setCookie("layout", "list")
        #expect(try browser.page("/").html.controllers("ListHome").count == 1)
        #expect(try browser.page("/?layout=grid").html.controllers("GridHome").count == 1)
        browser.setCookie("layout", "carousel")
        #expect(try browser.page("/").html.controllers("GridHome").count == 1)
    }

    @Test func everyHomeRenderIsALaunchLineWithTheLayoutVisitorAndRequestId() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let response = try browser.get("/?layout=grid")
        let launch = try #require(try await fixture.event(named: .launch))
        #expect(launch.layout == "grid")
        #expect(launch.visitor == browser.cookies["visitor"])
        #expect(launch.request == response.header("X-Request-Id"))
    }
}
