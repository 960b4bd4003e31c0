import HomeAppTestSupport
import Testing
import TestSupport

/// Onboarding.
@Suite struct OnboardingTests {
    static let onion = ["HomeContainer", "ModalContainer", "OnboardingTemplate", "NewYearContent"]

    @Test func theFirstHomeHasTheOnionOverItInA200PageAndReportsOnboardingShown() async throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let browser = fixture.browser()
        let (response, html) = try browser.page("/")
        #expect(response.status == 200)
        #expect(html.controllerPaths("NewYearContent") == [Self.onion])
        #expect(html.controllerPaths("ListHome") == [["HomeContainer", "ListHome"]])
        let shown = try #require(try await fixture.event(named: .onboardingShown))
        #expect(shown.visitor == browser.cookies["visitor"] && shown.layout == "list")
    }

    @Test func withTheNoticeOverTheHomeThePageTakesTheNoticesTitleAndThemeColour() throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let (_, html) = try fixture.browser().page("/")
        #expect(html.first { $0.tag == "title" }?.text == "New Year's Eve, live · DynamicHome")
        #expect(html.first { $0.tag == "meta" && $0["name"] == "theme-color" }?["content"] == "#1d2a4d")
        let (_, plain) = try AppFixture().browser().page("/")
        #expect(plain.first { $0.tag == "title" }?.text == "Home · DynamicHome")
    }

    @Test(arguments: [#"{}"#, #"{"onboarding": false}"#])
    func withoutTheToggleThereIsNoModal(_ toggles: String) throws {
        let fixture = try AppFixture(toggles: toggles)
        #expect(try fixture.browser().page("/").html.controllers("ModalContainer").isEmpty)
    }

    @Test(arguments: ["close", "ok"])
    func theCloseButtonOrOKGotItDismissesItForGood(_ how: String) async throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let browser = fixture.browser()
        let html = try browser.page("/").html
        let modal = try #require(html.controllers("ModalContainer").first)
        let button = how == "close"
            ? try #require(modal.button(labelled: "Close"))
            : try #require(modal.first { $0.hasClass("onboarding__actions") }?.button(labelled: "OK, got it"))
        let response = try browser.press(button)
        #expect(response.status == 303 && response.location == "/")
        #expect(browser.cookies["onboarded"] != nil)
        let next = try browser.follow(response).html()
        #expect(next.controllers("ModalContainer").isEmpty)
        #expect(next.controllers("ListHome").count == 1)
        #expect(try browser.page("/?layout=grid").html.controllers("ModalContainer").isEmpty)
        let dismissed = try #require(try await fixture.event(named: .onboardingDismissed))
        #expect(dismissed.visitor == browser.cookies["visitor"])
        // Another visitor still gets it.
        #expect(try fixture.browser().page("/").html.controllers("NewYearContent").count == 1)
    }

    @Test func onboardingIsTheOnionOnItsOwn() throws {
        let fixture = try AppFixture()
        let html = try fixture.browser().page("/onboarding").html
        #expect(html.controllerPaths("NewYearContent") == [["ModalContainer", "OnboardingTemplate", "NewYearContent"]])
    }

    /// The notice on its own page is shown as over the home: its dismissal follows a showing in
    /// the log, one of each.
    @Test func onboardingOnItsOwnReportsItShownAndItsDismissal() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let html = try browser.page("/onboarding").html
        let close = try #require(html.controllers("ModalContainer").first?.button(labelled: "Close"))
        #expect(try browser.press(close).status == 303)
        let dismissed = try await fixture.events(named: .onboardingDismissed)
        let visitor = browser.cookies["visitor"]
        #expect(dismissed.map(\.visitor) == [visitor])
        #expect(try fixture.events().filter { $0.name == .onboardingShown }.map(\.visitor) == [visitor])
    }

    @Test func onboardingLayoutPreviewsEveryLayoutAndOffersOneUseButtonPerLayoutInTheTemplatesRow() throws {
        let fixture = try AppFixture()
        let (response, html) = try fixture.browser().page("/onboarding/layout")
        #expect(response.status == 200)
        let card = ["ModalContainer", "OnboardingTemplate", "LayoutChoice"]
        #expect(html.controllerPaths("LayoutChoice") == [card])
        #expect(html.controllerPaths("ListHome") == [card + ["ListHome"]])
        #expect(html.controllerPaths("GridHome") == [card + ["GridHome"]])
        for preview in html.controllers("ListHome") + html.controllers("GridHome") {
            // Live previews of real items, inert: no forms, no buttons.
            #expect(preview.all("form").isEmpty && preview.all("button").isEmpty)
            #expect(preview.text.contains(Catalogue.title(Catalogue.ids("long")[0])))
            #expect(preview.text.contains(Catalogue.title(Catalogue.ids("live")[0])))
        }
        let row = try #require(html.first { $0.hasClass("onboarding__actions") })
        #expect(row.controllerPath == ["ModalContainer", "OnboardingTemplate"])
        #expect(row.all("button").map(\.text) == ["Use List", "Use Grid"])
    }

    @Test(arguments: [
        ("Use Grid", "grid", "GridHome"), ("Use List", "list", "ListHome"),
    ])
    func choosingALayoutOnTheCardSetsTheCookieReportsLayoutChosenAndReturnsHome(_ label: String, _ layout: String, _ controller: String) async throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let browser = fixture.browser()
        let html = try browser.page("/onboarding/layout").html
        let response = try browser.press(try #require(html.button(labelled: label)))
        #expect(response.status == 303 && response.location == "/")
        #expect(browser.cookies["layout"] == layout)
        let home = try browser.follow(response).html()
        #expect(home.controllerPaths(controller) == [["HomeContainer", controller]])
        #expect(home.controllers("ModalContainer").isEmpty)
        let chosen = try #require(try await fixture.event(named: .layoutChosen))
        #expect(chosen.layout == layout && chosen.visitor == browser.cookies["visitor"])
    }
}
