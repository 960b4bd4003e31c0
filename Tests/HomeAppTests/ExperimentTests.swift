import FeatureToggles
import Foundation
import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

/// Experiments in the toggles file decide what new visitors see; a visitor's own choice wins.
@Suite struct ExperimentTests {
    static let toggles = #"""
        {"onboarding": true, "experiments": [{"name": "home-layout", "groups": [
          {"name": "a", "weight": 1, "layout": "list"}, {"name": "b", "weight": 1, "layout": "grid", "onboarding": false}]}]}
        """#

    static func group(of visitor: String) throws -> String {
        let decisions = FeatureDecisions(toggles: try Toggles(json: Data(toggles.utf8), file: "toggles.json"))
        return try #require(decisions.assignments(for: visitor).first).group.name
    }

    @Test func newVisitorsOfGroupBGetTheGridWithoutAnyCookieGroupATheListBWithoutTheOnboardingNotice() async throws {
        let fixture = try AppFixture(toggles: Self.toggles)
        var groups: [String: String] = [:]
        for _ in 0..<24 {
            let browser = fixture.browser()
            let html = try browser.page("/").html
            let visitor = try #require(browser.cookies["visitor"])
            let group = try Self.group(of: visitor)
            groups[visitor] = group
            #expect(html.controllerPaths(group == "b" ? "GridHome" : "ListHome").count == 1, "visitor \(visitor) in \(group)")
            #expect(html.controllers("ModalContainer").isEmpty == (group == "b"), "onboarding for \(group)")
            // Stable: the same visitor, now with a cookie, gets the same again.
            #expect(try browser.page("/").html.controllers(group == "b" ? "GridHome" : "ListHome").count == 1)
        }
        #expect(Set(groups.values) == ["a", "b"], "24 new visitors should land in both groups")
        let launches = try await fixture.events(named: .launch, count: 48)
        for launch in launches {
            let group = groups[launch.visitor ?? ""]
            #expect(launch.properties["experiment.home-layout"] == group && launch.properties["assigned"] == nil, "\(launch)")
            #expect(launch.layout == (group == "b" ? "grid" : "list"))
        }
    }

    @Test func aVisitorsOwnChoiceCookieOrLayoutWinsAndIsReportedWithTheLayoutTheExperimentAssigned() async throws {
        let fixture = try AppFixture(toggles: Self.toggles)
        var seen: Set<String> = []
        for seed in 1...40 where seen.count < 2 {
            let visitor = visitorID(seed * 7919)
            let group = try Self.group(of: visitor)
            guard seen.insert(group).inserted else { continue }
            let assigned = group == "b" ? "grid" : "list", other = group == "b" ? "list" : "grid"
            let browser = fixture.browser()
            browser.setCookie("visitor", visitor)
            browser.setCookie("layout", other)
            #expect(try browser.page("/").html.controllers(other == "grid" ? "GridHome" : "ListHome").count == 1)
            browser.setCookie("layout", assigned)
            #expect(try browser.page("/?layout=\(other)").html.controllers(other == "grid" ? "GridHome" : "ListHome").count == 1)
            #expect(try browser.page("/").html.controllers(assigned == "grid" ? "GridHome" : "ListHome").count == 1)
            try await eventually { try fixture.events().filter { $0.name == .launch && $0.visitor == visitor }.count == 3 }
            let launches = try fixture.events().filter { $0.name == .launch && $0.visitor == visitor }
            #expect(launches.map(\.layout) == [other, other, assigned])
            #expect(launches.map { $0.properties["assigned"] } == [assigned, assigned, nil], "only where the choice overrode it")
            #expect(launches.allSatisfy { $0.properties["experiment.home-layout"] == group })
        }
        #expect(seen == ["a", "b"])
    }

    @Test func aStoppedExperimentAssignsNothingAndTagsNothingTheOtherTogglesDecide() async throws {
        let fixture = try AppFixture(toggles: Self.toggles.replacingOccurrences(of: #""name": "home-layout","#,
                                                                                with: #""name": "home-layout", "active": false,"#))
        for _ in 0..<8 {
            let html = try fixture.browser().page("/").html
            #expect(html.controllers("ListHome").count == 1 && html.controllers("ModalContainer").count == 1)
        }
        let launches = try await fixture.events(named: .launch, count: 8)
        #expect(launches.allSatisfy { $0.properties.keys.allSatisfy { !$0.hasPrefix("experiment") } })
    }
}
