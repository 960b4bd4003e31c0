import Basics
import Foundation
import Testing

@testable import FeatureToggles

@Suite struct FeatureDecisionsTests {
    let visitors = (0..<10_000).map { _ in UUID().uuidString }

    @Test func rolloutShareLandsNearTheTogglesAndIsStablePerVisitor() {
        let decisions = FeatureDecisions(toggles: Toggles(defaultLayout: "list", gridRollout: 0.3))
        let grid = visitors.filter { decisions.defaultLayout(for: $0) == "grid" }.count
        #expect((2700...3300).contains(grid), "\(grid) of 10,000 got grid")
        let again = FeatureDecisions(toggles: Toggles(defaultLayout: "list", gridRollout: 0.3))
        #expect(visitors.allSatisfy { decisions.defaultLayout(for: $0) == again.defaultLayout(for: $0) })
        #expect(visitors.allSatisfy { decisions.defaultLayout(for: $0) == "grid" || decisions.defaultLayout(for: $0) == "list" })
    }

    @Test func rolloutGrowsMonotonicallyAndCoversTheExtremes() {
        let small = FeatureDecisions(toggles: Toggles(gridRollout: 0.1))
        let large = FeatureDecisions(toggles: Toggles(gridRollout: 0.5))
        #expect(visitors.allSatisfy { !small.isInGridRollout($0) || large.isInGridRollout($0) }, "widening keeps the grid visitors")
        let none = FeatureDecisions(toggles: Toggles(defaultLayout: "compact", gridRollout: 0))
        let all = FeatureDecisions(toggles: Toggles(gridRollout: 1))
        #expect(visitors.allSatisfy { none.defaultLayout(for: $0) == "compact" && all.defaultLayout(for: $0) == "grid" })
        // Sequential ids, as a naive id scheme would give, spread as well as random ones.
        let sequential = (0..<10_000).filter { FeatureDecisions(toggles: Toggles(gridRollout: 0.3)).isInGridRollout("visitor-\($0)") }
        #expect((2700...3300).contains(sequential.count), "\(sequential.count)")
    }

    @Test func aCookiesIdGetsThePlanItsTextGets() throws {
        let decisions = FeatureDecisions(toggles: Toggles(gridRollout: 0.3, experiment: .init(name: "home-hero", groups: ["a", "b"])))
        for _ in 0..<2000 {
            let id = VisitorID.random()
            let byID = decisions.plan(for: id), byText = decisions.plan(for: id.text)
            #expect(byID.layout == byText.layout)
            #expect(byID.assignments == byText.assignments)
            #expect(byID == byText)
        }
        // Pinned: a visitor keeps their group and layout.
        let known = try #require(VisitorID("0123456789abcdef0123456789abcdef"))
        #expect(decisions.plan(for: known).assignments.map(\.group.name) == ["a"])
        #expect(FeatureDecisions(toggles: Toggles(gridRollout: 0.3)).plan(for: known).layout == "list")
    }

    @Test func experimentGroupIsStableAndUsesEveryGroup() {
        let decisions = FeatureDecisions(toggles: Toggles(gridRollout: 0, experiment: .init(name: "home-hero", groups: ["a", "b"])))
        let groups = visitors.map { decisions.assignments(for: $0).map(\.group.name) }
        #expect(Set(groups) == [["a"], ["b"]])
        let a = groups.filter { $0 == ["a"] }.count
        #expect((4500...5500).contains(a), "\(a) of 10,000 in group a")
        #expect(visitors.indices.allSatisfy { decisions.assignments(for: visitors[$0]).map(\.group.name) == groups[$0] })
        #expect(decisions.assignments(for: "v").map(\.propertyKey) == ["experiment.home-hero"])
        #expect(FeatureDecisions(toggles: Toggles()).assignments(for: "v").isEmpty)
    }

    @Test func experimentAndRolloutAreIndependent() {
        let decisions = FeatureDecisions(toggles: Toggles(gridRollout: 0.5, experiment: .init(name: "x", groups: ["a", "b"])))
        let gridInA = visitors.filter { decisions.isInGridRollout($0) && decisions.assignments(for: $0).first?.group.name == "a" }.count
        #expect((2200...2800).contains(gridInA), "\(gridInA)")
    }

    @Test func onboardingFollowsTheToggle() {
        #expect(FeatureDecisions(toggles: Toggles(onboarding: true)).showsOnboarding(for: "v"))
        #expect(!FeatureDecisions(toggles: Toggles(onboarding: false)).showsOnboarding(for: "v"))
    }
}
