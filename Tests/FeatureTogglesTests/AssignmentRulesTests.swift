import Foundation
import Testing

@testable import FeatureToggles

/// Allowlists, targeting and namespaces: how the loader reads them, what it refuses (with the
/// field and the reason), and who they put in which group.
@Suite struct AssignmentRulesTests {
    static func load(_ json: String) throws(TogglesError) -> Toggles { try Toggles(json: Data(json.utf8), file: "t.json") }

    static func refusal(_ json: String) -> TogglesError? {
        do { _ = try load(json); return nil } catch { return error }
    }

    static let idA = String(repeating: "a", count: 32), idB = String(repeating: "b", count: 32)

    /// 2,000 synthetic visitor ids, as the visitor cookie makes them.
    static let visitors = (0..<2000).map { index in
        String(format: "%016llx%016llx", UInt64(index) &* 0x9E37_79B9_7F4A_7C15, UInt64(index) &+ 0x1234_5678)
    }

    static func experiment(_ name: String, _ extra: String = "", groups: String = #"[{"name": "a"}, {"name": "b"}]"#) -> String {
        #"{"name": "\#(name)", "groups": \#(groups)\#(extra)}"#
    }

    @Test func aBadRuleIsRefusedWithItsFieldAndReason() {
        let cases: [(String, String, String)] = [
            (Self.experiment("e", groups: #"[{"name": "a", "visitors": ["not-an-id"]}, {"name": "b"}]"#),
             "experiments[0].groups[0].visitors", "32 lower-case hex digits"),
            (Self.experiment("e", groups: #"[{"name": "a", "visitors": ["\#(Self.idA)"]}, {"name": "b", "visitors": ["\#(Self.idA)"]}]"#),
             "experiments[0].groups[1].visitors", "which group \"a\" lists too"),
            (Self.experiment("e", groups: #"[{"name": "a", "visitors": "\#(Self.idA)"}, {"name": "b"}]"#),
             "experiments[0].groups[0].visitors", "must be a list of visitor ids"),
            (Self.experiment("e", groups: #"[{"name": "a", "visitors": [\#((0..<101).map { #""\#(String(format: "%032x", $0))""# }.joined(separator: ","))]}, {"name": "b"}]"#),
             "experiments[0].groups[0].visitors", "lists 101 visitors; at most 100"),
            (Self.experiment("e", #", "targeting": {"device": ["watch"]}"#), "experiments[0].targeting.device", "not a device class"),
            (Self.experiment("e", #", "targeting": {"device": []}"#), "experiments[0].targeting.device", "at least one"),
            (Self.experiment("e", #", "targeting": {"visitor": "old"}"#), "experiments[0].targeting.visitor", "\"new\" or \"returning\""),
            (Self.experiment("e", #", "targeting": {"language": ["EN"]}"#), "experiments[0].targeting.language", "primary language subtag"),
            (Self.experiment("e", #", "targeting": {"chosenLayout": 3}"#), "experiments[0].targeting.chosenLayout", "layout name"),
            (Self.experiment("e", #", "targeting": {"country": ["de"]}"#), "experiments[0].targeting.country", "not a known field"),
            (Self.experiment("e", #", "namespace": {"name": "home", "range": [0.5, 0.5]}"#), "experiments[0].namespace.range", "0 ≤ from < to ≤ 1"),
            (Self.experiment("e", #", "namespace": {"name": "Home", "range": [0, 1]}"#), "experiments[0].namespace.name", "lower-case"),
            (Self.experiment("e", #", "namespace": "home""#), "experiments[0].namespace", "must be an object"),
        ]
        for (experiment, field, reason) in cases {
            let error = Self.refusal(#"{"experiments": [\#(experiment)]}"#)
            #expect(error?.field == field, "\(experiment)")
            #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "accepted") for \(experiment)")
        }
    }

    @Test func overlappingRangesInOneNamespaceAreRefusedAndOthersAccepted() throws {
        let overlapping = Self.refusal(#"{"experiments": [\#(Self.experiment("one", #", "namespace": {"name": "home", "range": [0, 0.5]}"#)), "#
                                       + #"\#(Self.experiment("two", #", "namespace": {"name": "home", "range": [0.4, 1]}"#))]}"#)
        #expect(overlapping?.field == "experiments[1].namespace.range")
        #expect(overlapping?.reason == "[0.4, 1] overlaps [0, 0.5] of \"one\" in namespace \"home\"; "
                + "experiments of one namespace take ranges that do not overlap")
        // Touching ranges, other namespaces, and a stopped experiment are fine.
        _ = try Self.load(#"{"experiments": [\#(Self.experiment("one", #", "namespace": {"name": "home", "range": [0, 0.5]}"#)), "#
                          + #"\#(Self.experiment("two", #", "namespace": {"name": "home", "range": [0.5, 1]}"#)), "#
                          + #"\#(Self.experiment("three", #", "namespace": {"name": "other", "range": [0, 1]}"#)), "#
                          + #"{"name": "four", "active": false, "groups": [{"name": "a"}, {"name": "b"}], "namespace": {"name": "home", "range": [0, 1]}}]}"#)
    }

    @Test func twoLayoutExperimentsMayRunInOneNamespaceOnly() throws {
        let groups = #"[{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]"#
        _ = try Self.load(#"{"experiments": [\#(Self.experiment("one", #", "namespace": {"name": "home", "range": [0, 0.5]}"#, groups: groups)), "#
                          + #"\#(Self.experiment("two", #", "namespace": {"name": "home", "range": [0.5, 1]}"#, groups: groups))]}"#)
        let apart = Self.refusal(#"{"experiments": [\#(Self.experiment("one", #", "namespace": {"name": "home", "range": [0, 0.5]}"#, groups: groups)), "#
                                 + #"\#(Self.experiment("two", #", "namespace": {"name": "side", "range": [0.5, 1]}"#, groups: groups))]}"#)
        #expect(apart?.reason.hasPrefix("\"one\" and \"two\" are active and each sets the layout") == true)
    }

    @Test func experimentsOfOneNamespaceNeverShareAVisitorAndSplitNearTheirRanges() throws {
        let toggles = try Self.load(#"{"experiments": [\#(Self.experiment("one", #", "namespace": {"name": "home", "range": [0, 0.3]}"#)), "#
                                    + #"\#(Self.experiment("two", #", "namespace": {"name": "home", "range": [0.3, 1]}"#)), "#
                                    + #"\#(Self.experiment("three", #", "namespace": {"name": "side", "range": [0, 0.5]}"#))]}"#)
        let decisions = FeatureDecisions(toggles: toggles)
        var one = 0, two = 0, three = 0, threeAmongOne = 0
        for visitor in Self.visitors {
            let names = Set(decisions.assignments(for: visitor).map(\.experiment))
            #expect(!(names.contains("one") && names.contains("two")))
            #expect(names.contains("one") || names.contains("two"))  // the ranges cover the namespace
            if names.contains("one") { one += 1 }
            if names.contains("two") { two += 1 }
            if names.contains("three") { three += 1; if names.contains("one") { threeAmongOne += 1 } }
        }
        // 2,000 draws: a share within four standard errors of its range.
        #expect(abs(Double(one) / 2000 - 0.3) < 4 * (0.3 * 0.7 / 2000).squareRoot(), "\(one)")
        #expect(abs(Double(three) / 2000 - 0.5) < 4 * (0.25 / 2000).squareRoot(), "\(three)")
        // Another namespace is independent: about half of "one"'s visitors are in "three" too.
        #expect(abs(Double(threeAmongOne) / Double(one) - 0.5) < 4 * (0.25 / Double(one)).squareRoot(), "\(threeAmongOne) of \(one)")
        #expect(one + two == 2000)
    }

    @Test func targetingTakesInOnlyTheVisitorsItNames() throws {
        let toggles = try Self.load(#"{"experiments": [\#(Self.experiment("phones", #", "targeting": {"device": ["phone"]}"#)), "#
                                    + #"\#(Self.experiment("german-returning", #", "targeting": {"language": ["de"], "visitor": "returning"}"#)), "#
                                    + #"\#(Self.experiment("no-choice", #", "targeting": {"chosenLayout": "none"}"#))]}"#)
        let decisions = FeatureDecisions(toggles: toggles)
        func experiments(_ traits: VisitorTraits) -> Set<String> { Set(decisions.assignments(for: Self.idA, traits: traits).map(\.experiment)) }
        #expect(experiments(VisitorTraits(device: .phone)) == ["phones", "no-choice"])
        #expect(experiments(VisitorTraits(device: .desktop, cohort: .returning, language: "de", chosenLayout: "grid")) == ["german-returning"])
        #expect(experiments(VisitorTraits(device: .tablet, cohort: .new, language: "de")) == ["no-choice"])
        #expect(decisions.targeted == FeatureDecisions.Targeted(device: true, language: true, chosenLayout: true))
        #expect(FeatureDecisions(toggles: Toggles()).targeted == FeatureDecisions.Targeted())
    }

    @Test func anAllowlistedVisitorGetsTheirGroupWhateverTheHashOrTargeting() throws {
        let toggles = try Self.load(#"{"experiments": [\#(Self.experiment("e", #", "targeting": {"device": ["phone"]}, "namespace": {"name": "n", "range": [0, 0.01]}"#, groups: #"[{"name": "a"}, {"name": "b", "visitors": ["\#(Self.idB)"]}]"#))]}"#)
        let decisions = FeatureDecisions(toggles: toggles)
        #expect(decisions.assignments(for: Self.idB, traits: VisitorTraits(device: .desktop)).map(\.group.name) == ["b"])
        #expect(toggles.experiments[0].groups[1].visitors == [Self.idB])
        // Written and read back the same.
        #expect(try Self.load(toggles.jsonText) == toggles)
    }

    @Test func aQAOverrideForcesAGroupOrALayout() throws {
        let toggles = try Self.load(#"{"experiments": [\#(Self.experiment("e", groups: #"[{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]"#))]}"#)
        let decisions = FeatureDecisions(toggles: toggles)
        for visitor in Self.visitors.prefix(50) {
            #expect(decisions.plan(for: visitor, override: .group(experiment: "e", group: "b")).layout == "grid")
            #expect(decisions.plan(for: visitor, override: .layout("list")).forcedLayout == "list")
        }
    }

    @Test func targetingAndNamespacesSurviveTheWrittenForm() throws {
        let toggles = try Self.load(#"{"experiments": [\#(Self.experiment("e", #", "targeting": {"device": ["phone", "tablet"], "visitor": "new", "language": ["de", "fr"], "chosenLayout": "grid"}, "namespace": {"name": "home", "range": [0.25, 0.75]}"#))]}"#)
        #expect(toggles.experiments[0].targeting == Toggles.Targeting(devices: [.phone, .tablet], cohort: .new, languages: ["de", "fr"], chosenLayout: "grid"))
        #expect(toggles.experiments[0].namespace == Toggles.Namespace(name: "home", lower: 0.25, upper: 0.75))
        #expect(try Self.load(toggles.jsonText) == toggles)
        #expect(toggles.layoutReferences.contains { $0.field == "experiments[0].targeting.chosenLayout" && $0.layout == "grid" })
    }

    @Test func theDeviceClassComesFromTheUserAgentAndTheClientHint() {
        let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1"
        let pixel = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"
        let androidTablet = "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"
        let iPad = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
        let desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
        #expect(DeviceClass.classify(userAgent: iPhone, mobileHint: nil) == .phone)
        #expect(DeviceClass.classify(userAgent: pixel, mobileHint: "?1") == .phone)
        #expect(DeviceClass.classify(userAgent: androidTablet, mobileHint: "?0") == .tablet)
        #expect(DeviceClass.classify(userAgent: iPad, mobileHint: nil) == .tablet)
        #expect(DeviceClass.classify(userAgent: desktop, mobileHint: "?0") == .desktop)
        #expect(DeviceClass.classify(userAgent: desktop, mobileHint: "?1") == .phone)
        #expect(DeviceClass.classify(userAgent: nil, mobileHint: nil) == .desktop)
        #expect(DeviceClass.classify(userAgent: "Mob", mobileHint: nil) == .desktop)
    }

    @Test func theFirstLanguageIsTheFirstEntrysPrimarySubtag() {
        #expect(VisitorTraits.firstLanguage("de-CH, de;q=0.9, en;q=0.8") == "de")
        #expect(VisitorTraits.firstLanguage(" FR") == "fr")
        #expect(VisitorTraits.firstLanguage("*") == nil)
        #expect(VisitorTraits.firstLanguage(nil) == nil)
    }

    @Test func aLayoutExperimentWithTargetingSaysTheRolloutReachesTheOthers() throws {
        let toggles = try Self.load(#"{"rollout": {"grid": 0.1}, "experiments": [\#(Self.experiment("e", #", "targeting": {"device": ["phone"]}"#, groups: #"[{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]"#))]}"#)
        #expect(toggles.interplayWarnings == ["experiment \"e\" sets the layout of every visitor it takes in, so the rollout does not apply to "
                                              + "them while it is active; visitors its targeting or namespace range leave out get the rollout now; "
                                              + "once it stops, visitors get list 90%, grid 10%"])
        // Outside the targeting, the rollout decides: some desktop visitors get the grid.
        let decisions = FeatureDecisions(toggles: toggles)
        let desktopGrid = Self.visitors.filter { decisions.plan(for: $0, traits: VisitorTraits(device: .desktop)).layout == "grid" }.count
        #expect(desktopGrid > 100 && desktopGrid < 320, "\(desktopGrid)")
    }
}
