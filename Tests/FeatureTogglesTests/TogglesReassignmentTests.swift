import Foundation
import Testing

@testable import FeatureToggles

/// A running experiment's groups or weights changed: the share of its visitors that move to
/// another group, said on the review page, is the share that really moves.
@Suite struct TogglesReassignmentTests {
    static func toggles(_ groups: String, name: String = "hero", active: Bool = true) throws -> Toggles {
        try Toggles(json: Data(#"{"experiments": [{"name": "\#(name)", "active": \#(active), "groups": \#(groups)}]}"#.utf8), file: "t.json")
    }

    @Test(arguments: [
        (#"[{"name": "a", "weight": 4}, {"name": "b", "weight": 3}]"#, #"[{"name": "a", "weight": 1}, {"name": "b", "weight": 3}]"#),
        (#"[{"name": "a"}, {"name": "b"}]"#, #"[{"name": "b"}, {"name": "a"}]"#),
        (#"[{"name": "a"}, {"name": "b"}]"#, #"[{"name": "a"}, {"name": "b"}, {"name": "c"}]"#),
        (#"[{"name": "a", "weight": 1}, {"name": "b", "weight": 9}]"#, #"[{"name": "a", "weight": 2}, {"name": "b", "weight": 8}]"#),
    ])
    func theSaidShareIsTheShareOfVisitorsThatMove(before: String, after: String) throws {
        let old = try #require(try Self.toggles(before).experiments.first), new = try #require(try Self.toggles(after).experiments.first)
        let visitors = (0..<20_000).map { String(format: "%016llx%016llx", UInt64($0) &* 0x9E37_79B9_7F4A_7C15, UInt64($0)) }
        let moved = Double(visitors.filter { old.group(for: $0).name != new.group(for: $0).name }.count) / Double(visitors.count)
        // 20,000 visitors: the binomial's standard error is at most 0.0036.
        #expect(abs(old.movedShare(to: new) - moved) < 0.015, "said \(old.movedShare(to: new)), measured \(moved)")
    }

    /// The versions so far, oldest first, as the review sees them.
    static func splits(_ versions: Toggles...) -> LastRunSplits {
        var splits = LastRunSplits()
        for (index, toggles) in versions.enumerated() { splits.take(toggles, version: index + 1) }
        return splits
    }

    @Test func onlyARunningExperimentWhoseVisitorsMoveIsWarnedAbout() throws {
        let current = Self.splits(try Self.toggles(#"[{"name": "a", "weight": 4}, {"name": "b", "weight": 3}]"#))
        let warnings = try Self.toggles(#"[{"name": "a", "weight": 1}, {"name": "b", "weight": 3}]"#).reassignmentWarnings(after: current)
        #expect(warnings.count == 1 && warnings[0].contains(#"experiment "hero" is running"#) && warnings[0].contains("about 32%"), "\(warnings)")
        // The same split with another group's layout, a stopped one, or a renamed one (reshuffled, but a new experiment).
        #expect(try Self.toggles(#"[{"name": "a", "weight": 8}, {"name": "b", "weight": 6, "layout": "grid"}]"#)
            .reassignmentWarnings(after: current).isEmpty)
        #expect(try Self.toggles(#"[{"name": "a", "weight": 1}, {"name": "b"}]"#, active: false).reassignmentWarnings(after: current).isEmpty)
        #expect(try Self.toggles(#"[{"name": "a", "weight": 1}, {"name": "b"}]"#, name: "hero-2").reassignmentWarnings(after: current).isEmpty)
    }

    /// Stopped, then started again: the visitors counted while it ran stay counted, so new weights
    /// mix two splits as much as a change while it runs does. Measured against the split it last
    /// ran with, not the stopped version's weights.
    @Test func aRestartWithOtherWeightsThanItLastRanWithIsWarnedAboutNamingThatVersion() throws {
        let ran = try Self.toggles(#"[{"name": "a", "weight": 4}, {"name": "b", "weight": 3}]"#)
        let stoppedEven = try Self.toggles(#"[{"name": "a"}, {"name": "b"}]"#, active: false)
        let splits = Self.splits(ran, ran, stoppedEven)
        let warnings = try Self.toggles(#"[{"name": "a", "weight": 1}, {"name": "b", "weight": 3}]"#).reassignmentWarnings(after: splits)
        #expect(warnings == [#"experiment "hero" last ran in version 2 with other groups or weights: starting it again with these "#
            + "puts about 32% of the visitors counted then in another group than before, so its results will mix both splits, and "
            + "the sample-ratio check will measure them against the new weights. To change the split cleanly, start another under a new name"],
            "\(warnings)")
        #expect(try Self.toggles(#"[{"name": "a", "weight": 8}, {"name": "b", "weight": 6}]"#).reassignmentWarnings(after: splits).isEmpty,
                "started again with the split it last ran with")
        #expect(try Self.toggles(#"[{"name": "a"}, {"name": "b"}]"#, name: "hero-2").reassignmentWarnings(after: splits).isEmpty)
    }
}
