import Foundation
import HomeAppTestSupport
import HomeLayouts
import Testing
import TestSupport

/// A third layout reaches every part of the app through `HomeFactory.register` alone.
@Suite struct ThirdLayoutTests {
    static var factory: HomeFactory {
        var factory = HomeFactory.standard
        factory.register(CompactListHome.self)
        return factory
    }

    static let catalogue: [(id: String, kind: String, title: String)] = {
        struct Entry: Decodable { let id, kind, title: String }
        struct File: Decodable { let items: [Entry] }
        let data = try! Data(contentsOf: AppFixture.configFolder.appendingPathComponent("content.json"))
        return try! JSONDecoder().decode(File.self, from: data).items.map { ($0.id, $0.kind, $0.title) }
    }()

    func fixture(_ toggles: String = "{}") throws -> AppFixture {
        try AppFixture(toggles: toggles, factory: Self.factory)
    }

    @Test func layoutCompactRendersHomeContainerCompactListHomeWithEveryItemInItsOwnOrder() throws {
        let (response, html) = try fixture().browser().page("/?layout=compact")
        #expect(response.status == 200)
        #expect(html.controllerPaths("CompactListHome") == [["HomeContainer", "CompactListHome"]])
        let rows = html.buttons(named: "open")
        #expect(rows.count == Self.catalogue.count)
        let ordered = ["short", "long", "live"].flatMap { kind in Self.catalogue.filter { $0.kind == kind } }
        #expect(rows.map(\.text) == ordered.map(\.title))
    }

    @Test(arguments: [
        ("s-001", "short_selected"), ("m-001", "long_selected"), ("l-001", "stream_selected"),
    ])
    func itsRowsOpenTheRightSceneThroughItsOwnIndexPathsReportedWithItsName(_ id: String, _ event: String) async throws {
        let fixture = try fixture()
        let browser = fixture.browser()
        let entry = try #require(Self.catalogue.first { $0.id == id })
        let button = try #require(try browser.page("/?layout=compact").html.buttons(named: "open").first { $0.text == entry.title })
        let response = try browser.press(button)
        #expect(response.status == 303)
        #expect(response.location == "/\(entry.kind == "live" ? "stream" : entry.kind)/\(id)")
        let reported = try #require(try await fixture.events(named: .init(rawValue: event)).first)
        #expect(reported.layout == "compact" && reported.item == id)
    }

    @Test func itsSettingsAndSwitchButtonsWorkThroughTheUnchangedContainer() async throws {
        let fixture = try fixture()
        let browser = fixture.browser()
        let html = try browser.page("/?layout=compact").html
        #expect(try browser.press(try #require(html.buttons(named: "settings").first)).location == "/settings")
        let replaced = try browser.press(try #require(html.buttons(named: "replace").first))
        #expect(replaced.location == "/?layout=list" && browser.cookies["layout"] == "list")
        let event = try #require(try await fixture.event(named: .layoutReplaced))
        #expect(event.layout == "list" && event.properties["from"] == "compact")
    }

    @Test func theListCanBeReplacedByItAndItPersists() throws {
        let fixture = try fixture()
        let browser = fixture.browser()
        let form = try #require(try browser.page("/").html.first { $0.tag == "form" && $0["action"] == "/home/actions" })
        let fields = form.all("input").map { ($0["name"] ?? "", $0["value"] ?? "") }
        let response = try browser.post("/home/actions", form: fields + [("replace", "compact")])
        #expect(response.status == 303 && response.location == "/?layout=compact")
        #expect(try browser.page("/").html.controllers("CompactListHome").count == 1)
    }

    @Test func itIsAChoiceInSettingsAndChoosingItServesIt() throws {
        let fixture = try fixture()
        let browser = fixture.browser()
        let settings = try browser.page("/settings").html
        #expect(settings.all { $0.tag == "input" && $0["type"] == "radio" }.map { $0["value"] } == ["list", "grid", "compact"])
        #expect(settings.text.contains("Compact"))
        let saved = try browser.press(try #require(settings.button(labelled: "Save")), setting: ["layout": "compact"])
        #expect(saved.location == "/" && browser.cookies["layout"] == "compact")
        #expect(try browser.page("/").html.controllerPaths("CompactListHome") == [["HomeContainer", "CompactListHome"]])
    }

    @Test func theLayoutCardPreviewsItAndOffersUseCompact() throws {
        let fixture = try fixture()
        let browser = fixture.browser()
        let html = try browser.page("/onboarding/layout").html
        let card = ["ModalContainer", "OnboardingTemplate", "LayoutChoice"]
        #expect(html.controllerPaths("CompactListHome") == [card + ["CompactListHome"]])
        let preview = try #require(html.controllers("CompactListHome").first)
        #expect(preview.all("button").isEmpty && !preview.all("li").isEmpty)
        let row = try #require(html.first { $0.hasClass("onboarding__actions") })
        #expect(row.all("button").map(\.text) == ["Use List", "Use Grid", "Use Compact"])
        let chosen = try browser.press(try #require(row.button(labelled: "Use Compact")))
        #expect(chosen.location == "/" && browser.cookies["layout"] == "compact")
    }

    @Test func itIsListedOnTheUnknownLayoutPageAndCanBeTheTogglesDefault() throws {
        let fixture = try fixture(#"{"defaultLayout": "compact"}"#)
        let browser = fixture.browser()
        let error = try browser.page("/?layout=carousel").html
        #expect(error.all("a").compactMap { $0["href"] }.filter { $0.hasPrefix("/?layout=") }
                == ["/?layout=list", "/?layout=grid", "/?layout=compact"])
        #expect(try browser.page("/").html.controllers("CompactListHome").count == 1)
    }

    @Test func theTogglesFileAloneRollsItOutAndRefusesItToAnAppWithoutIt() throws {
        let toggles = #"{"rollout": {"compact": 1}}"#
        let fixture = try fixture(toggles)
        for _ in 0..<4 {
            #expect(try fixture.browser().page("/").html.controllerPaths("CompactListHome") == [["HomeContainer", "CompactListHome"]])
        }
        let error = try #require(throws: (any Error).self) { try AppFixture(toggles: toggles) }
        #expect("\(error)".hasSuffix(#"names the layout "compact", which this app does not have (layouts: list, grid)"#))
    }

    @Test func theTogglesFileAloneMakesItAnExperimentArmEachNewVisitorGetsTheirGroupsLayout() async throws {
        let fixture = try fixture(#"""
            {"experiments": [{"name": "third", "groups": [{"name": "a", "layout": "list"}, {"name": "c", "layout": "compact"}]}]}
            """#)
        var served: [String: String] = [:]
        for _ in 0..<24 {
            let browser = fixture.browser()
            let html = try browser.page("/").html
            let visitor = try #require(browser.cookies["visitor"])
            served[visitor] = html.controllers("CompactListHome").isEmpty ? "list" : "compact"
        }
        let launches = try await fixture.events(named: .launch, count: served.count)
        let expected = ["a": "list", "c": "compact"]
        for launch in launches {
            let group = try #require(launch.properties["experiment.third"])
            #expect(launch.layout == expected[group] && served[launch.visitor ?? ""] == launch.layout, "\(launch)")
            #expect(launch.properties["assigned"] == nil)
        }
        #expect(Set(served.values) == ["list", "compact"], "24 new visitors should land in both groups")
    }

    @Test func itDrawsTheVisitorsRowsContinueWatchingMyListThroughHomeMarkupWithNoCodeOfItsOwn() throws {
        let fixture = try fixture()
        let browser = fixture.browser()
        try browser.get("/?layout=compact")
        #expect(try browser.post("/watch/m-002/play", withToken: []).status == 303)
        #expect(try browser.post("/my-list/s-001", withToken: [("action", "add")]).status == 303)
        let html = try browser.page("/?layout=compact").html
        let rows = html.all { $0.hasClass("personal-row") }
        #expect(rows.map { $0["data-row-name"] } == ["continue-watching", "my-list"])
        #expect(rows.map { $0.all(class: "personal-tile__open").map { $0["href"] ?? "" } } == [["/long/m-002"], ["/short/s-001"]])
        #expect(html.controllers("CompactListHome").first?.all { $0.hasClass("personal-row") }.count == 2)
    }
}
