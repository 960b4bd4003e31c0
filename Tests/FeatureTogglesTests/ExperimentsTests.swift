import Foundation
import Testing
import Basics

@testable import FeatureToggles

@Suite struct ExperimentsTests {
    /// Synthetic visitor ids as the app makes them (opaque strings); sequential, the hardest case for a hash.
    static let visitors = (0..<100_000).map { "visitor-\($0)" }

    static func toggles(_ json: String) throws(TogglesError) -> Toggles { try Toggles(json: Data(json.utf8), file: "t.json") }

    @Test func weightsAreHonouredWithin1PointOver100000VisitorsAndStablePerVisitor() throws {
        let toggles = try Self.toggles(#"""
            {"experiments": [{"name": "home-layout", "groups": [
              {"name": "a", "weight": 1, "layout": "list"}, {"name": "b", "weight": 2, "layout": "grid"},
              {"name": "c", "weight": 7, "layout": "compact"}]}]}
            """#)
        let decisions = FeatureDecisions(toggles: toggles)
        var counts: [String: Int] = [:]
        for visitor in Self.visitors { counts[decisions.assignments(for: visitor)[0].group.name, default: 0] += 1 }
        for (group, expected) in [("a", 0.1), ("b", 0.2), ("c", 0.7)] {
            let share = Double(counts[group] ?? 0) / Double(Self.visitors.count)
            #expect(abs(share - expected) <= 0.01, "group \(group): \(share), expected \(expected)")
        }
        let again = FeatureDecisions(toggles: try Self.toggles(#"""
            {"experiments": [{"name": "home-layout", "groups": [
              {"name": "a", "weight": 1, "layout": "list"}, {"name": "b", "weight": 2, "layout": "grid"},
              {"name": "c", "weight": 7, "layout": "compact"}]}]}
            """#))
        #expect(Self.visitors.prefix(10_000).allSatisfy {
            again.defaultLayout(for: $0) == decisions.defaultLayout(for: $0)
                && decisions.defaultLayout(for: $0) == decisions.assignments(for: $0)[0].group.layout
        })
    }

    /// Uneven weights in the first, so the walk along them is tested past its first group.
    static let twoExperiments = #"""
        {"experiments": [
          {"name": "home-layout", "groups": [{"name": "a", "weight": 1}, {"name": "b", "weight": 2}, {"name": "c", "weight": 7}]},
          {"name": "hero", "groups": [{"name": "x"}, {"name": "y"}]}]}
        """#

    /// A visitor's group is the same whichever way they are known (their id's text or its value)
    /// and whichever way it is worked out (the hash of the whole text, or continued from the
    /// experiment's salt); visitors in the same groups share one decision, made once.
    @Test func aVisitorsGroupIsTheSameByTextByIdAndByTheWholeHash() throws {
        let toggles = try Self.toggles(Self.twoExperiments)
        let decisions = FeatureDecisions(toggles: toggles)
        var shared: [String: ObjectIdentifier] = [:]
        for number in 0..<2000 {
            let text = String(format: "%032x", number &* 0x9E37_79B9)
            let id = try #require(VisitorID(text))
            let byText = decisions.plan(for: text), byID = decisions.plan(for: id)
            let whole = toggles.experiments.map { $0.group(for: text).name }
            #expect(byText.assignments.map(\.group.name) == whole)
            #expect(byID.assignments.map(\.group.name) == whole)
            let decision = try #require(byID.shared)
            #expect(shared[whole.joined(separator: "/"), default: ObjectIdentifier(decision)] == ObjectIdentifier(decision))
            shared[whole.joined(separator: "/")] = ObjectIdentifier(decision)
        }
        #expect(shared.count == 6)
        // An override's decision is the visitor's own.
        #expect(decisions.plan(for: "v", override: .group(experiment: "hero", group: "y")).shared == nil)
    }

    /// Groups worked out apart from the server (FNV-1a and fmix64 over `experiment␀<name>␀<id>`,
    /// the position walked along the weights, in another language): a release that changed the
    /// hash or the walk would move visitors between groups mid-experiment.
    @Test func aVisitorKeepsTheGroupWorkedOutApartFromTheServer() throws {
        let toggles = try Self.toggles(Self.twoExperiments)
        let decisions = FeatureDecisions(toggles: toggles)
        let expected = [
            ("00000000000000009e3779b97f4a7c15", "c", "y"), ("00000000000000013c6ef372fe94f82a", "c", "y"),
            ("0000000000000001daa66d2c7ddf743f", "c", "y"), ("000000000000000278dde6e5fd29f054", "c", "y"),
            ("00000000000000031715609f7c746c69", "a", "y"), ("0000000000000003b54cda58fbbee87e", "a", "x"),
            ("0000000000000004538454127b096493", "b", "y"), ("0000000000000004f1bbcdcbfa53e0a8", "b", "x"),
            ("00000000000000058ff34785799e5cbd", "b", "x"), ("00000000000000062e2ac13ef8e8d8d2", "c", "x"),
            ("0000000000000006cc623af8783354e7", "c", "y"), ("00000000000000076a99b4b1f77dd0fc", "c", "y"),
        ]
        for (text, layout, hero) in expected {
            let id = try #require(VisitorID(text))
            #expect(decisions.plan(for: id).assignments.map(\.group.name) == [layout, hero], "\(text)")
            #expect(decisions.plan(for: text).assignments.map(\.group.name) == [layout, hero], "\(text)")
            #expect(toggles.experiments[0].assignment(for: text, traits: VisitorTraits())?.name == layout)
        }
    }

    /// Pearson's chi-square statistic of a 2x2 table of counts (1 degree of freedom).
    static func chiSquare(_ table: [[Int]]) -> Double {
        let n = Double(table.joined().reduce(0, +))
        let rows = table.map { Double($0.reduce(0, +)) }
        let columns = (0..<2).map { column in Double(table[0][column] + table[1][column]) }
        var statistic = 0.0
        for row in 0..<2 {
            for column in 0..<2 {
                let expected = rows[row] * columns[column] / n
                statistic += pow(Double(table[row][column]) - expected, 2) / expected
            }
        }
        return statistic
    }

    /// The 2x2 table of groups in two experiments over the synthetic visitors.
    static func table(_ first: Toggles.Experiment, _ second: Toggles.Experiment) -> [[Int]] {
        var table = [[0, 0], [0, 0]]
        for visitor in visitors {
            let row = first.group(for: visitor).name == first.groups[0].name ? 0 : 1
            let column = second.group(for: visitor).name == second.groups[0].name ? 0 : 1
            table[row][column] += 1
        }
        return table
    }

    @Test func twoExperimentsAssignIndependentlyChiSquareTestOfIndependenceOnThe2x2Table() {
        let layout = Toggles.Experiment(name: "home-layout", groups: [.init(name: "a", layout: "list"), .init(name: "b", layout: "grid")])
        let notice = Toggles.Experiment(name: "notice", groups: [.init(name: "on", weight: 1, onboarding: true),
                                                                 .init(name: "off", weight: 3, onboarding: false)])
        let table = Self.table(layout, notice)
        // Critical value of chi-square with 1 degree of freedom at the 5% level: 3.841 (NIST/SEMATECH
        // e-Handbook of Statistical Methods, section 1.3.6.7.4, "Critical Values of the Chi-Square Distribution").
        let statistic = Self.chiSquare(table)
        #expect(statistic < 3.841, "chi-square \(statistic) for \(table)")
        // The statistic does see dependence: the same salt (one name) for both puts visitors in matching groups.
        let sameSalt = Toggles.Experiment(name: "home-layout", groups: notice.groups)
        #expect(Self.chiSquare(Self.table(layout, sameSalt)) > 1_000)
    }

    @Test func aRolloutHandsOutAnyLayoutByItsShareAndTheOlderGridRolloutReadsAsAGridRollout() throws {
        let decisions = FeatureDecisions(toggles: try Self.toggles(#"{"rollout": {"compact": 0.2, "grid": 0.3}}"#))
        var counts: [String: Int] = [:]
        for visitor in Self.visitors { counts[decisions.defaultLayout(for: visitor), default: 0] += 1 }
        for (layout, expected) in [("compact", 0.2), ("grid", 0.3), ("list", 0.5)] {
            let share = Double(counts[layout] ?? 0) / Double(Self.visitors.count)
            #expect(abs(share - expected) <= 0.01, "\(layout): \(share)")
        }
        let old = try Self.toggles(#"{"gridRollout": 0.25}"#)
        #expect(old == (try Self.toggles(#"{"rollout": {"grid": 0.25}}"#)) && old.rollout == ["grid": 0.25])
    }

    @Test func anActiveExperimentsLayoutComesBeforeTheRolloutAStoppedOneAssignsNothing() throws {
        let json = #"""
            {"rollout": {"grid": 1}, "experiments": [{"name": "e", "active": ACTIVE, "groups": [
              {"name": "a", "layout": "compact", "onboarding": true}, {"name": "b", "onboarding": false}]}]}
            """#
        let running = FeatureDecisions(toggles: try Self.toggles(json.replacingOccurrences(of: "ACTIVE", with: "true")))
        let sample = Self.visitors.prefix(2_000)
        let inA = sample.filter { running.assignments(for: $0)[0].group.name == "a" }
        #expect(!inA.isEmpty && inA.count < sample.count)
        #expect(sample.allSatisfy { visitor in
            let a = inA.contains(visitor)
            return running.defaultLayout(for: visitor) == (a ? "compact" : "grid") && running.showsOnboarding(for: visitor) == a
        })
        let stopped = FeatureDecisions(toggles: try Self.toggles(json.replacingOccurrences(of: "ACTIVE", with: "false")))
        #expect(stopped.toggles.experiments.count == 1, "kept, for its results")
        #expect(sample.allSatisfy { stopped.assignments(for: $0).isEmpty && stopped.defaultLayout(for: $0) == "grid" })
    }

    @Test func aVisitorsPlanTakesTheLayoutAndTheNoticeFromTheExperimentsThatSetThemHashingEachGroupOnce() throws {
        let decisions = FeatureDecisions(toggles: try Self.toggles(#"""
            {"rollout": {"grid": 1}, "onboarding": true, "experiments": [
              {"name": "looks", "groups": [{"name": "a", "layout": "compact"}, {"name": "b"}]},
              {"name": "notice", "groups": [{"name": "shown", "onboarding": true}, {"name": "hidden", "onboarding": false}]}]}
            """#))
        var seen: Set<[String]> = []
        for visitor in Self.visitors.prefix(2_000) {
            let plan = decisions.plan(for: visitor)
            let groups = plan.assignments.map(\.group.name)
            seen.insert(groups)
            #expect(plan.assignments.map(\.experiment) == ["looks", "notice"])
            #expect(groups == decisions.assignments(for: visitor).map(\.group.name))
            #expect(plan.assignedLayout == (groups[0] == "a" ? "compact" : nil))
            #expect(plan.layout == (groups[0] == "a" ? "compact" : "grid"), "group b falls through to the rollout")
            #expect(plan.showsOnboarding == (groups[1] == "shown"), "the notice comes from the second experiment")
        }
        #expect(seen.count == 4, "every pair of groups occurs")
    }

    @Test(arguments: [
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a", "weight": 0}, {"name": "b"}]}]}"#,
         "t.json: experiments[0].groups[0].weight must be a number greater than 0 (got 0)"),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a", "weight": -1}, {"name": "b"}]}]}"#,
         "t.json: experiments[0].groups[0].weight must be a number greater than 0 (got -1)"),
        (#"{"experiments": [{"name": "Home Layout", "groups": [{"name": "a"}, {"name": "b"}]}]}"#,
         #"t.json: experiments[0].name must be a name of 1 to 64 lower-case letters, digits, '-' or '_' (got a string "Home Layout")"#),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a"}, {"name": "a"}]}]}"#,
         #"t.json: experiments[0].groups has two groups called "a""#),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a"}, {"name": ""}]}]}"#,
         #"t.json: experiments[0].groups[1].name must be a name of 1 to 64 printable characters (got a string "")"#),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a"}]}]}"#,
         "t.json: experiments[0].groups must be a list of at least two groups (got a list)"),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a", "layout": "Grid"}, {"name": "b"}]}]}"#,
         #"t.json: experiments[0].groups[0].layout must be a layout name of lower-case letters, digits, '-' or '_' (got a string "Grid")"#),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a", "colour": "red"}, {"name": "b"}]}]}"#,
         "t.json: experiments[0].groups[0].colour is not a known field (known: name, weight, layout, onboarding, visitors, rows)"),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a"}, {"name": "b"}]}], "experiment": {"name": "x", "groups": ["a", "b"]}}"#,
         #"t.json: experiments has two experiments called "x""#),
        (#"{"experiments": [{"name": "one", "groups": [{"name": "a", "layout": "list"}, {"name": "b"}]},"#
            + #"{"name": "two", "groups": [{"name": "c"}, {"name": "d", "layout": "grid"}]}]}"#,
         #"t.json: experiments "one" and "two" are active and each sets the layout, so a visitor in more than one would get several; stop all but one with "active": false"#),
        (#"{"experiments": [{"name": "one", "groups": [{"name": "a", "onboarding": true}, {"name": "b"}]},"#
            + #"{"name": "two", "groups": [{"name": "c"}, {"name": "d", "onboarding": false}]}]}"#,
         #"t.json: experiments "one" and "two" are active and each sets the onboarding notice, so a visitor in more than one would get several; stop all but one with "active": false"#),
        (#"{"rollout": {"grid": 0.6, "compact": 0.5}}"#, "t.json: rollout shares add up to 1.1; they must add up to at most 1"),
        (#"{"rollout": {"list": 0.6, "grid": 0.7}}"#, "t.json: rollout shares add up to 1.3; they must add up to at most 1"),
        (#"{"rollout": {"grid": 1.5}}"#, "t.json: rollout.grid must be a number between 0 and 1 (got 1.5)"),
        (#"{"rollout": 0.5}"#, #"t.json: rollout must be an object of layout names and shares, like {"grid": 0.1} (got 0.5)"#),
        (#"{"rollout": {"grid": 0.1}, "gridRollout": 0.1}"#,
         #"t.json: gridRollout is the older form of rollout: give {"rollout": {"grid": share}} alone"#),
    ])
    func validationNamesWhatIsWrong(json: String, message: String) {
        let error = try? #require(throws: TogglesError.self) { try Self.toggles(json) }
        #expect(error?.description == message)
    }

    static let overCap: [(json: String, message: String)] = {
        let thirtyThree: [String] = (0..<33).map { #"{"name": "e\#($0)", "active": false, "groups": [{"name": "a"}, {"name": "b"}]}"# }
        let nineGroups: [String] = (0..<9).map { #"{"name": "g\#($0)"}"# }
        let nineNames: [String] = (0..<9).map { #""g\#($0)""# }
        let longName = "x" + String(repeating: "x", count: 64)
        let longGroup = String(repeating: "b", count: 65)
        return [
            ("{\"experiments\": [" + thirtyThree.joined(separator: ",") + "]}",
             "t.json: experiments has 33 experiments; at most 32 are allowed (each event carries the visitor's group in every active one)"),
            ("{\"experiments\": [{\"name\": \"x\", \"groups\": [" + nineGroups.joined(separator: ",") + "]}]}",
             "t.json: experiments[0].groups has 9 groups; at most 8 are allowed"),
            ("{\"experiment\": {\"name\": \"x\", \"groups\": [" + nineNames.joined(separator: ",") + "]}}",
             "t.json: experiment.groups has 9 groups; at most 8 are allowed"),
            (#"{"experiments": [{"name": ""# + longName + #"", "groups": [{"name": "a"}, {"name": "b"}]}]}"#,
             #"t.json: experiments[0].name must be a name of 1 to 64 lower-case letters, digits, '-' or '_' (got a string ""#
                + String(longName.prefix(40)) + #"")"#),
            (#"{"experiments": [{"name": "x", "groups": [{"name": "a"}, {"name": ""# + longGroup + #""}]}]}"#,
             #"t.json: experiments[0].groups[1].name must be a name of 1 to 64 printable characters (got a string ""#
                + String(longGroup.prefix(40)) + #"")"#),
        ]
    }()

    @Test(arguments: overCap)
    func overTheCapsOnExperimentsGroupsAndNamesTheRefusalNamesTheLimit(_ json: String, _ message: String) {
        let error = try? #require(throws: TogglesError.self) { try Self.toggles(json) }
        #expect(error?.description == message)
    }

    @Test func aFileOfAThousandExperimentsIsRefusedWithTheLimitNamedAndTheOldTogglesKeepServing() throws {
        let file = try TogglesFile(#"{"experiments": [{"name": "kept", "groups": [{"name": "a"}, {"name": "b"}]}]}"#)
        defer { file.remove() }
        let router = try ToggleRouter(path: file.path, layouts: ["list", "grid"])
        try file.write("{\"experiments\": [" + (0..<1000).map { #"{"name": "e\#($0)", "groups": [{"name": "a"}, {"name": "b"}]}"# }
            .joined(separator: ",") + "]}")
        #expect(router.reload() == .rejected(TogglesError(
            file: file.path, field: "experiments",
            reason: "has 1000 experiments; at most 32 are allowed (each event carries the visitor's group in every active one)")))
        #expect(router.toggles.experiments.map(\.name) == ["kept"])
    }

    @Test func twoLayoutExperimentsAreFineWhenOnlyOneIsActive() throws {
        let toggles = try Self.toggles(#"""
            {"experiments": [{"name": "one", "active": false, "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]},
                             {"name": "two", "groups": [{"name": "c", "layout": "list"}, {"name": "d", "layout": "grid"}]}]}
            """#)
        #expect(FeatureDecisions(toggles: toggles).assignments(for: "v").map(\.experiment) == ["two"])
    }

    @Test func aLayoutTheAppDoesNotHaveIsRefusedWithTheKnownLayoutsAndTheOldTogglesKeepServing() throws {
        let file = try TogglesFile(#"{"rollout": {"grid": 0.5}}"#)
        defer { file.remove() }
        let layouts = ["list", "grid"]
        let router = try ToggleRouter(path: file.path, layouts: layouts)
        let cases = [
            (#"{"defaultLayout": "carousel"}"#, "defaultLayout"),
            (#"{"rollout": {"carousel": 0.1}}"#, "rollout.carousel"),
            (#"{"experiments": [{"name": "x", "groups": [{"name": "a"}, {"name": "b", "layout": "carousel"}]}]}"#,
             "experiments[0].groups[1].layout"),
        ]
        for (json, field) in cases {
            try file.write(json)
            #expect(router.reload() == .rejected(TogglesError(
                file: file.path, field: field, reason: #"names the layout "carousel", which this app does not have (layouts: list, grid)"#)))
            #expect(router.toggles.rollout == ["grid": 0.5])
            #expect(throws: TogglesError.self) { try ToggleRouter(path: file.path, layouts: layouts) }
        }
        try file.write(#"{"rollout": {"compact": 0.5}}"#)
        #expect(router.reload() == .rejected(TogglesError(
            file: file.path, field: "rollout.compact", reason: #"names the layout "compact", which this app does not have (layouts: list, grid)"#)))
        #expect(try ToggleRouter(path: file.path, layouts: layouts + ["compact"]).toggles.rollout == ["compact": 0.5])
    }
}
