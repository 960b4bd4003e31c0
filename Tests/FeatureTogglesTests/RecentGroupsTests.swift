import Basics
import Foundation
import Testing

@testable import FeatureToggles

@Suite struct RecentGroupsTests {
    /// Two experiments, three groups by two: twelve combinations with "in neither".
    static let toggles = Toggles(experiments: [
        .init(name: "home-layout", groups: [.init(name: "list", weight: 2), .init(name: "grid"), .init(name: "rows")]),
        .init(name: "home-hero", groups: ["a", "b"]),
    ])

    @Test func aReturningVisitorGetsTheGroupsTheHashGives() throws {
        let decisions = FeatureDecisions(toggles: Self.toggles)
        let recent = try #require(decisions.prepared.recent)
        let ids = (0..<3000).map { _ in VisitorID.random() }
        for _ in 0..<2 {
            for id in ids {
                let plan = decisions.plan(for: id)
                // Spelled out, the id is hashed every time.
                #expect(plan.assignments == decisions.plan(for: id.text).assignments)
            }
        }
        // The table answers for the visitors it holds, and only as the hash does.
        var kept = 0
        for id in ids {
            guard let combination = recent.combination(of: id) else { continue }
            kept += 1
            #expect(combination == decisions.prepared.combination(of: .id(id), traits: VisitorTraits()))
        }
        #expect(kept > RecentGroups.capacity / 2, "\(kept) of \(ids.count) kept in \(RecentGroups.capacity) slots")
        #expect(recent.combination(of: VisitorID(high: 0, low: 0)) == nil, "an empty slot holds no visitor")
    }

    @Test func threadsSharingSlotsNeverReadAnotherVisitorsGroups() async throws {
        let prepared = FeatureDecisions(toggles: Self.toggles).prepared
        let recent = try #require(prepared.recent)
        // Visitors who all take one slot: it is taken over again and again, by threads writing
        // and reading it at once.
        let ids = (0..<32).map { _ in
            var id = VisitorID.random()
            while recent.place(of: id) != 0 { id = VisitorID.random() }
            return id
        }
        let expected = ids.map { prepared.combination(of: .id($0), traits: VisitorTraits()) }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<20_000 {
                        for step in ids.indices {
                            let index = (step * 7 + worker * 13 + round) % ids.count
                            if let kept = recent.combination(of: ids[index]) {
                                if kept != expected[index] { wrong += 1 }
                            } else {
                                recent.keep(expected[index], for: ids[index])
                            }
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test func newTogglesHashAgain() throws {
        let before = FeatureDecisions(toggles: Self.toggles)
        // A visitor kept in a group the new toggles no longer have.
        let id = try #require((0..<100).lazy.map { _ in VisitorID.random() }
            .first { before.plan(for: $0).assignments.first?.group.name == "list" })
        #expect(before.prepared.recent?.combination(of: id) != nil)
        // Every visitor of the layout experiment now goes to the one group left.
        let after = FeatureDecisions(toggles: Toggles(experiments: [
            .init(name: "home-layout", groups: [.init(name: "grid")]), .init(name: "home-hero", groups: ["a", "b"]),
        ]))
        #expect(after.plan(for: id).assignments.first?.group.name == "grid")
        #expect(after.plan(for: id).assignments == after.plan(for: id.text).assignments)
    }

    @Test func experimentsThatLookAtTheRequestAreHashedEveryTime() {
        var targeted = Self.toggles
        targeted.experiments[1].targeting.devices = [.phone]
        #expect(FeatureDecisions(toggles: targeted).prepared.recent == nil)
        #expect(FeatureDecisions(toggles: Toggles()).prepared.recent == nil, "no experiment, nothing to keep")
    }
}
