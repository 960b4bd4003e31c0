import FeatureToggles
import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

/// Every action of each child, pressed in the rendered form as a browser would.
@Suite struct HomeActionTests {
    static let experiment = #"{"experiment": {"name": "home-hero", "groups": ["a", "b"]}}"#

    /// Loads `/?layout=…`, presses the button `find` picks, and checks the 303 and the report line.
    func press(_ layout: String, expecting location: String, event name: ReportEvent.Name,
               item: String? = nil, eventLayout: String? = nil, _ find: (HTMLElement) -> HTMLElement?) async throws -> ReportEvent {
        let fixture = try AppFixture(toggles: Self.experiment)
        let browser = fixture.browser()
        let html = try browser.page("/?layout=\(layout)").html
        let button = try #require(find(html))
        let form = try #require(button.closest("form"))
        #expect(form["action"] == "/home/actions" && form["method"] == "post")
        let response = try browser.press(button)
        #expect(response.status == 303)
        #expect(response.location == location)
        let event = try #require(try await fixture.event(named: name))
        #expect(event.layout == (eventLayout ?? layout))
        #expect(event.item == item)
        let visitor = try #require(browser.cookies["visitor"])
        #expect(event.visitor == visitor)
        #expect(event.request == response.header("X-Request-Id"))
        let group = FeatureDecisions(toggles: Toggles(gridRollout: 0, experiment: .init(name: "home-hero", groups: ["a", "b"])))
            .assignments(for: visitor).first?.group.name
        #expect(group != nil && event.properties["experiment.home-hero"] == group)
        #expect(event.properties["assigned"] == nil, "a tagging-only experiment assigns no layout")
        if location.hasPrefix("/long/") || location.hasPrefix("/short/") || location.hasPrefix("/stream/") {
            let page = try browser.follow(response)
            #expect(page.status == 200)
            #expect(try page.html().first { $0.tag == "h1" }?.text == Catalogue.title(item ?? ""))
        }
        return event
    }

    @Test(arguments: [
        ("list", "m-001", "long_selected"), ("list", "s-003", "short_selected"), ("list", "l-004", "stream_selected"),
        ("grid", "m-010", "long_selected"), ("grid", "s-022", "short_selected"), ("grid", "l-001", "stream_selected"),
    ])
    func openingARowOrTilePushesTheSceneOfItsKindAndReportsIt(_ layout: String, _ id: String, _ event: String) async throws {
        _ = try await press(layout, expecting: Catalogue.scene(id), event: ReportEvent.Name(rawValue: event), item: id) {
            $0.openButton(for: id)
        }
    }

    @Test func aWatchPostFromAPageDrawnWithASeparateWatchLiveButtonStillOpensTheStream() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let form = try #require(try browser.page("/?layout=grid").html.first { $0.hasClass("home-form") })
        let id = Catalogue.ids("live")[3]
        let fields = Browser.fields(of: form).filter { $0.0 != "_csrf" } + [("watch", "0.3")]
        let response = try browser.post("/home/actions", withToken: fields)
        #expect(response.status == 303 && response.location == "/stream/\(id)")
        let event = try #require(try await fixture.event(named: .streamSelected))
        #expect(event.item == id && event.layout == "grid")
    }

    @Test(arguments: ["list", "grid"])
    func settingsPushesSettings(_ layout: String) async throws {
        _ = try await press(layout, expecting: "/settings", event: .settingsSelected) { $0.buttons(named: "settings").first }
    }

    @Test(arguments: [("list", "grid"), ("grid", "list")])
    func theSwitchButtonReplacesTheChildAndAnswersLayoutNAME(_ layout: String, _ other: String) async throws {
        let event = try await press(layout, expecting: "/?layout=\(other)", event: .layoutReplaced, eventLayout: other) {
            $0.buttons(named: "replace", value: other).first
        }
        #expect(event.properties["from"] == layout)
    }

    @Test func theGridsMoreButtonComesBackWithTheRowScrolledOnReportedAsASwipe() async throws {
        let event = try await press("grid", expecting: "/?layout=grid&row=1&at=4#grid-tile-1-4", event: .horizontalSwipe) {
            $0.buttons(named: "more").first { $0["value"]?.hasPrefix("1.") == true }
        }
        #expect(event.properties["row"] == "1" && event.properties["to"] == "4")
    }

    /// The script's beacon says where the row went; a layout whose rows do not scroll sideways has
    /// no swipe to report.
    @Test func aSwipeBeaconIsTheGridsAndSaysWhereTheRowWent() async throws {
        let fixture = try AppFixture()
        let session = fixture.browser()
        try session.get("/?layout=grid")
        let list = try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "list"), ("row", "0")])
        #expect(list.status == 400 && list.text.contains("rows do not scroll sideways"))
        let signed = try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "+1"), ("at", "4")])
        #expect(signed.status == 400 && signed.text.contains("must name a row"))
        for at in ["-1", "999", "x", "+4", "0x4"] {
            let wrong = try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "1"), ("at", at)])
            #expect(wrong.status == 400 && wrong.text.contains("must be a place in row 1"), "at=\(at)")
        }
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "1"), ("at", "4")]).status == 204)
        let swipes = try await fixture.events(named: .horizontalSwipe, count: 1)
        #expect(swipes.map { $0.properties["to"] } == ["4"] && swipes.allSatisfy { $0.layout == "grid" && $0.properties["via"] == "scroll" },
                "\(swipes)")
    }

    /// A field each form sends once, sent twice, is refused rather than guessed at; nothing is written.
    @Test func aFieldSentTwiceIsRefusedAndWritesNothing() throws {
        let fixture = try AppFixture()
        let session = fixture.browser()
        try session.get("/?layout=grid")
        let posts: [(String, [(String, String)])] = [
            ("/home/actions", [("layout", "grid"), ("open", "0.0"), ("open", "0.1")]),
            ("/my-list/m-002", [("action", "add"), ("action", "remove")]),
            ("/watch/m-001/progress", [("position", "10"), ("position", "20")]),
            ("/settings", [("layout", "grid"), ("layout", "list")]),
            ("/report", [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "0"), ("at", "2"), ("at", "4")]),
            // The token too, even twice the right one: the form drawn has it once.
            ("/watch/m-001/play", [("_csrf", session.csrfToken ?? "")]),
        ]
        for (path, fields) in posts {
            let response = try session.post(path, withToken: fields)
            #expect(response.status == 400 && response.text.contains("more than once; it takes one"), "\(path): \(response.status)")
        }
        let written = try fixture.events().map(\.name)
        #expect(![.longSelected, .myListAdded, .myListRemoved, .playProgress, .playStarted, .horizontalSwipe]
            .contains { written.contains($0) }, "\(written)")
    }

    @Test func theSameItemChosenInBothLayoutsReachesTheSamePageThroughDifferentIndexPaths() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let id = Catalogue.ids("live")[1]
        var paths: [String] = []
        for layout in ["list", "grid"] {
            let button = try #require(try browser.page("/?layout=\(layout)").html.openButton(for: id))
            paths.append(button["value"] ?? "")
            let response = try browser.press(button)
            #expect(response.status == 303 && response.location == "/stream/\(id)")
        }
        #expect(paths == ["2.1", "0.1"])
    }
}
