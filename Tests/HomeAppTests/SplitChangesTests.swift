import FeatureToggles
import Foundation
import Logging
import MicroHTTP
import Reporting
import ScreenKit
import Testing
import TestSupport
@testable import HomeApp

/// A running experiment's weights changed: the sample-ratio warning names the version that did
/// it instead of calling assignment or counting broken.
@Suite struct SplitChangesTests {
    static func toggles(_ weights: (Double, Double), active: Bool = true) -> String {
        """
        {"defaultLayout": "list", "experiments": [{"name": "poster", "active": \(active), "groups": [
          {"name": "control", "weight": \(weights.0), "layout": "list"}, {"name": "grid3", "weight": \(weights.1), "layout": "grid"}]}]}
        """
    }

    @Test func aWeightChangeWhileRunningIsNamedBesideTheSampleRatioWarning() throws {
        let folder = try TemporaryDirectory("split-changes")
        defer { folder.remove() }
        let history = try ConfigHistory(folder: folder.path("history"), logger: Logger(label: "test"))
        try history.append(who: "file", note: "start", text: Self.toggles((1, 3)))
        try history.append(who: "loopback", note: "flip", text: Self.toggles((3, 1)))
        try history.append(who: "loopback", note: "same split", text: Self.toggles((3, 1)))
        try history.append(who: "loopback", note: "stop", text: Self.toggles((3, 1), active: false))
        let changes = SplitChanges.newest(in: history)
        #expect(changes == ["poster": 2])
        // Kept until the history gains a version, then looked at again.
        let kept = SplitChanges(history: history)
        #expect(kept.current() == changes)
        try history.append(who: "loopback", note: "again", text: Self.toggles((3, 1)))
        try history.append(who: "loopback", note: "back", text: Self.toggles((1, 3)))
        #expect(kept.current() == ["poster": 6])

        // Visitors split 1:3 under version 1, measured against 3:1.
        var control = VisitorSums(), grid = VisitorSums()
        control.visitors = 159
        grid.visitors = 488
        let experiment = try #require(Toggles(json: Data(Self.toggles((3, 1)).utf8), file: "t", layouts: nil).experiments.first)
        var result = VisitorResult(ExperimentVisitors(name: "poster", groups: [("control", control), ("grid3", grid)]), toggles: experiment)
        #expect(result.srmWarning)
        let model = ExperimentsScreenModel(range: try ReportRangeQuery(QueryParameters([])), results: [])
        func banner() -> String {
            var writer = HTMLWriter()
            VisitorSection.render(result, experiment: "poster", heading: "poster", model: model, into: &writer)
            return String(decoding: writer.finish(), as: UTF8.self)
        }
        #expect(banner().contains("Assignment or counting is broken"))
        result.splitChangedIn = changes["poster"]
        let page = banner()
        #expect(page.contains("data-srm") && page.contains("Version 2 of the toggles changed its groups or weights while it ran"))
        #expect(!page.contains("Assignment or counting is broken"))
        #expect(ExperimentsJSON.visitors(result).contains(#""srmWarning":true,"splitChangedIn":2,"#))
    }

    /// Stopped, given new weights, started again: the visitors counted under the old split are
    /// still in the tallies, so the restart is named as a change of the split too.
    @Test func newWeightsGivenWhileStoppedAreNamedAtTheRestart() throws {
        let folder = try TemporaryDirectory("split-changes-stopped")
        defer { folder.remove() }
        let history = try ConfigHistory(folder: folder.path("history"), logger: Logger(label: "test"))
        try history.append(who: "file", note: "start", text: Self.toggles((1, 8)))
        try history.append(who: "file", note: "stop", text: Self.toggles((1, 8), active: false))
        try history.append(who: "file", note: "again, even", text: Self.toggles((1, 1)))
        #expect(SplitChanges.newest(in: history) == ["poster": 3])
    }
}
