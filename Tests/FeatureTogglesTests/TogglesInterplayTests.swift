import Foundation
import Testing

@testable import FeatureToggles

/// A rollout beside an experiment that sets the layout: accepted, but said aloud.
@Suite struct TogglesInterplayTests {
    static func toggles(_ json: String) throws -> Toggles { try Toggles(json: Data(json.utf8), file: "t.json") }

    @Test func aLayoutExperimentBesideARolloutIsWarnedAbout() throws {
        let toggles = try Self.toggles(#"""
            {"defaultLayout": "list", "rollout": {"grid": 0.1},
             "experiments": [{"name": "home-layout", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}
            """#)
        #expect(toggles.interplayWarnings == [
            #"experiment "home-layout" sets the layout of every visitor, so the rollout does not apply to them while it is active; "#
                + "once it stops, visitors get list 90%, grid 10%",
        ])
        #expect(toggles.layoutExperiment?.name == "home-layout")
    }

    @Test func onlyTheGroupsThatSetTheLayoutAreNamed() throws {
        let toggles = try Self.toggles(#"""
            {"rollout": {"grid": 0.25},
             "experiments": [{"name": "e", "groups": [{"name": "a"}, {"name": "b", "layout": "grid"}]}]}
            """#)
        #expect(toggles.interplayWarnings.first?.contains("the visitors of group b, so") == true, "\(toggles.interplayWarnings)")
    }

    @Test(arguments: [
        #"{"rollout": {"grid": 0.1}, "experiments": [{"name": "e", "groups": [{"name": "a"}, {"name": "b"}]}]}"#,
        #"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}"#,
        #"{"rollout": {"grid": 0.1}, "experiments": [{"name": "e", "active": false, "groups": [{"name": "a", "layout": "grid"}, {"name": "b"}]}]}"#,
    ])
    func noWarningWithoutBoth(json: String) throws {
        #expect(try Self.toggles(json).interplayWarnings.isEmpty)
    }
}
