import HomeAppTestSupport
import Testing
import TestSupport

/// Settings.
@Suite struct SettingsTests {
    @Test func choosingGridInTheSettingsFormMakesTheGridResetGoesBackToTheDefault() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let settingsButton = try #require(try browser.page("/").html.buttons(named: "settings").first)
        let toSettings = try browser.press(settingsButton)
        #expect(toSettings.location == "/settings")
        let settings = try browser.follow(toSettings).html()
        let radios = settings.all { $0.tag == "input" && $0["type"] == "radio" }
        #expect(radios.map { $0["value"] } == ["list", "grid"])
        #expect(radios.filter { $0["checked"] != nil }.map { $0["value"] } == ["list"])
        #expect(settings.button(labelled: "Reset to the default") == nil)

        let save = try #require(settings.button(labelled: "Save"))
        let saved = try browser.press(save, setting: ["layout": "grid"])
        #expect(saved.status == 303 && saved.location == "/")
        #expect(browser.cookies["layout"] == "grid")
        #expect(try browser.follow(saved).html().controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])
        let chosen = try #require(try await fixture.event(named: .layoutChosen))
        #expect(chosen.layout == "grid" && chosen.properties["via"] == "settings")

        let again = try browser.page("/settings").html
        #expect(again.all { $0.tag == "input" && $0["checked"] != nil }.map { $0["value"] } == ["grid"])
        let reset = try browser.press(try #require(again.button(labelled: "Reset to the default")))
        #expect(reset.status == 303 && reset.location == "/")
        #expect(browser.cookies["layout"] == nil)
        #expect(try browser.page("/").html.controllers("ListHome").count == 1)
    }

    @Test func theSettingsPageShowsTheTogglesDefaultAsCurrentUntilTheVisitorChooses() throws {
        let fixture = try AppFixture(toggles: #"{"defaultLayout": "grid"}"#)
        let settings = try fixture.browser().page("/settings").html
        #expect(settings.all { $0.tag == "input" && $0["checked"] != nil }.map { $0["value"] } == ["grid"])
    }

    @Test func savingALayoutTheAppDoesNotHaveIsA400ThatListsTheChoices() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let save = try #require(try browser.page("/settings").html.button(labelled: "Save"))
        let response = try browser.press(save, setting: ["layout": "carousel"])
        #expect(response.status == 400)
        #expect(try response.html().errorMessage == "Choose one of the layouts: list, grid.")
        #expect(browser.cookies["layout"] == nil)
    }
}
