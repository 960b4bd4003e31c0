import Foundation
import Testing

@testable import FeatureToggles

/// Scheduled ramps in the toggles: what the loader accepts, what a step does, and the file's
/// written form read back equal.
@Suite struct RampTests {
    static func toggles(_ json: String) throws(TogglesError) -> Toggles { try Toggles(json: Data(json.utf8), file: "t.json") }

    static let ramped = #"""
        {"rollout": {"grid": 0.05, "compact": 0.1},
         "ramps": [{"layout": "grid", "steps": [{"at": "2026-01-01T12:00:00Z", "share": 0.25},
                                                 {"at": "2026-01-01T13:00:00Z", "share": 0.9}]}]}
        """#

    @Test func aStepSetsTheShareAndLeavesTheRestOfTheRamp() throws {
        let toggles = try Self.toggles(Self.ramped)
        #expect(toggles.nextRampStep?.layout == "grid" && toggles.nextRampStep?.step.share == 0.25)
        let before = try #require(Toggles.rampTime(parsing: "2026-01-01T11:59:59Z"))
        #expect(toggles.steppingRamps(at: before) == nil, "nothing due yet")
        let noon = try #require(Toggles.rampTime(parsing: "2026-01-01T12:00:00Z"))
        let first = try #require(toggles.steppingRamps(at: noon))
        #expect(first.toggles.rollout == ["grid": 0.25, "compact": 0.1])
        #expect(first.toggles.ramps.map(\.steps.count) == [1])
        // Both due at once (a server down over the first): the latest share, the ramp done.
        let nextDay = try #require(Toggles.rampTime(parsing: "2026-01-02T00:00:00Z"))
        let both = try #require(toggles.steppingRamps(at: nextDay))
        #expect(both.toggles.rollout["grid"] == 0.9 && both.toggles.ramps.isEmpty)
        #expect(both.steps.map(\.share) == [0.9])
    }

    @Test func theWrittenFormReadsBackEqual() throws {
        let toggles = try Self.toggles(Self.ramped)
        #expect(try Toggles(json: Data(toggles.jsonText.utf8), file: "again") == toggles)
    }

    @Test(arguments: [
        (#"{"ramps": [{"layout": "grid", "steps": [{"at": "2026-01-01T13:00:00Z", "share": 0.5}, {"at": "2026-01-01T12:00:00Z", "share": 0.6}]}]}"#,
         "ramps[0].steps[1].at", "must be later than the step before"),
        (#"{"rollout": {"compact": 0.6}, "ramps": [{"layout": "grid", "steps": [{"at": "2026-01-01T12:00:00Z", "share": 0.5}]}]}"#,
         "ramps[0].steps[0].share", "and the other layouts' rollout shares would add up to more than 1"),
        (#"{"ramps": [{"layout": "grid", "steps": [{"at": "tomorrow", "share": 0.5}]}]}"#,
         "ramps[0].steps[0].at", "must be a time like 2026-01-01T12:00:00Z (got a string \"tomorrow\")"),
        (#"{"ramps": [{"layout": "grid", "steps": []}]}"#, "ramps[0].steps", "must be a list of 1 to 20 steps (got a list)"),
    ])
    func theLoadersRulesForRamps(json: String, field: String, reason: String) {
        #expect(throws: TogglesError(file: "t.json", field: field, reason: reason)) { try Self.toggles(json) }
    }

    @Test func aRampOfALayoutTheAppDoesNotHaveIsRefused() throws {
        let toggles = try Self.toggles(#"{"ramps": [{"layout": "carousel", "steps": [{"at": "2026-01-01T12:00:00Z", "share": 0.5}]}]}"#)
        #expect(throws: TogglesError.self) { try toggles.checkLayouts(["list", "grid"], file: "t.json") }
    }
}

/// A step raises a share without moving anyone who had the layout: the rollout position is stable.
@Suite struct RampStabilityTests {
    @Test func raisingTheGridsShareKeepsEveryoneWhoHadIt() throws {
        let before = FeatureDecisions(toggles: try RampTests.toggles(#"{"rollout": {"grid": 0.25, "list": 0.1}}"#))
        let after = FeatureDecisions(toggles: try RampTests.toggles(#"{"rollout": {"grid": 0.5, "list": 0.1}}"#))
        let visitors = (0..<20_000).map { "visitor-\($0)" }
        let hadGrid = visitors.filter { before.rolloutLayout(for: $0) == "grid" }
        #expect(hadGrid.count > 4_000)
        #expect(hadGrid.allSatisfy { after.rolloutLayout(for: $0) == "grid" })
    }
}
