import HomeAppTestSupport
import Testing
import TestSupport

/// Replacing the child.
@Suite struct ReplaceTests {
    @Test func aReplaceSwitchesPersistsInTheLayoutCookieAndReportsThenSwitchesBack() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let list = try browser.page("/").html
        #expect(list.controllerPaths("ListHome") == [["HomeContainer", "ListHome"]])

        let toGrid = try browser.press(try #require(list.buttons(named: "replace", value: "grid").first))
        #expect(toGrid.status == 303 && toGrid.location == "/?layout=grid")
        let cookie = try #require(toGrid.headers("Set-Cookie").first { $0.hasPrefix("layout=") })
        #expect(cookie.hasPrefix("layout=grid;") && cookie.contains("Max-Age="))
        #expect(try browser.follow(toGrid).html().controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])

        // Persisted: the next plain / shows the grid, and so does a new request later.
        let grid = try browser.page("/").html
        #expect(grid.controllerPaths("GridHome") == [["HomeContainer", "GridHome"]])
        #expect(grid.controllers("ListHome").isEmpty)

        let toList = try browser.press(try #require(grid.buttons(named: "replace", value: "list").first))
        #expect(toList.location == "/?layout=list")
        #expect(try browser.page("/").html.controllers("ListHome").count == 1)

        let events = try await fixture.events(named: .layoutReplaced, count: 2)
        #expect(events.map(\.layout) == ["grid", "list"])
        #expect(events.map { $0.properties["from"] } == ["list", "grid"])
        #expect(Set(events.map(\.visitor)) == [browser.cookies["visitor"]])
    }

    @Test func aReplaceNamingALayoutTheAppDoesNotHaveIsA400AndChangesNothing() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let button = try #require(try browser.page("/").html.buttons(named: "replace").first)
        let form = try #require(button.closest("form"))
        let fields = form.all("input").map { ($0["name"] ?? "", $0["value"] ?? "") }
        let response = try browser.post("/home/actions", form: fields + [("replace", "carousel")])
        #expect(response.status == 400)
        #expect(try response.html().errorMessage == "There is no layout called \"carousel\".")
        #expect(response.headers("Set-Cookie").allSatisfy { !$0.hasPrefix("layout=") })
        #expect(try browser.page("/").html.controllers("ListHome").count == 1)
    }
}
