import Foundation
import Testing

@testable import FeatureToggles

/// `rows` at the top of the toggles file and in an experiment's groups: which of the home's rows
/// a visitor gets, and what the loader says about a wrong one.
@Suite struct RowTogglesTests {
    static func toggles(_ json: String) throws(TogglesError) -> Toggles { try Toggles(json: Data(json.utf8), file: "toggles.json") }

    static func reason(_ json: String) -> String? {
        do { _ = try toggles(json); return nil } catch { return error.description }
    }

    @Test func theFileAndAGroupSwitchRows() throws {
        let toggles = try Self.toggles(#"""
            {"rows": {"trending": false, "my-list": true},
             "experiments": [{"name": "rows", "groups": [{"name": "on", "rows": {"trending": true}},
                                                         {"name": "off", "rows": {"continue-watching": false}}]}]}
            """#)
        #expect(toggles.rows == ["trending": false, "my-list": true])
        #expect(toggles.experiments[0].groups.map(\.rows) == [["trending": true], ["continue-watching": false]])
        let decisions = FeatureDecisions(toggles: toggles)
        var seen: Set<String> = []
        for index in 0..<40 {
            let visitor = "visitor-\(index)"
            let plan = decisions.plan(for: visitor)
            let group = toggles.experiments[0].group(for: visitor).name
            seen.insert(group)
            #expect(plan.hiddenRows == (group == "on" ? [] : ["trending", "continue-watching"]), "\(group)")
            for row in ["trending", "continue-watching", "my-list"] { #expect(plan.hides(row) == plan.hiddenRows.contains(row)) }
        }
        #expect(seen == ["on", "off"])
        #expect(FeatureDecisions(toggles: Toggles()).plan(for: "anyone").hiddenRows.isEmpty)
        // Written back by the admin pages and read again: the same toggles.
        #expect(try Toggles(json: Data(toggles.jsonText.utf8), file: "toggles.json") == toggles)
    }

    @Test(arguments: [
        (#"{"rows": ["trending"]}"#, #"toggles.json: rows must be an object of row names and true or false, like {"trending": false} (got a list)"#),
        (#"{"rows": {"hero": false}}"#, "toggles.json: rows.hero is not a row (rows: continue-watching, my-list, trending, because-you-watched)"),
        (#"{"rows": {"my-list": "no"}}"#, "toggles.json: rows.my-list must be true or false (got a string \"no\")"),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a", "rows": {"trending": 0}}, {"name": "b"}]}]}"#,
         "toggles.json: experiments[0].groups[0].rows.trending must be true or false (got 0)"),
        (#"{"experiments": [{"name": "x", "groups": [{"name": "a", "rows": {"trending": false}}, {"name": "b"}]}, {"name": "y", "groups": [{"name": "a", "rows": {"trending": true}}, {"name": "b"}]}]}"#,
         #"toggles.json: experiments "x" and "y" are active and each switches the row trending, so a visitor in more than one would get several; stop all but one with "active": false"#),
    ])
    func wrongRowsSayWhatIsWrong(json: String, reason: String) {
        #expect(Self.reason(json) == reason)
    }

    @Test func aStoppedExperimentMaySwitchTheSameRow() throws {
        let toggles = try Self.toggles(#"""
            {"experiments": [{"name": "x", "active": false, "groups": [{"name": "a", "rows": {"trending": false}}, {"name": "b"}]},
                             {"name": "y", "groups": [{"name": "a", "rows": {"trending": true}}, {"name": "b"}]}]}
            """#)
        #expect(toggles.experiments.count == 2)
    }
}
