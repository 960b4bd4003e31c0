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
        let changes = SplitChanges.splits(in: history).newestChanges
        #expect(changes.mapValues(\.version) == ["poster": 2] && changes["poster"]?.restarted == false)
        // Kept until the history gains a version, then looked at again.
        let kept = SplitChanges(history: history)
        #expect(kept.current().newestChanges == changes)
        try history.append(who: "loopback", note: "again", text: Self.toggles((3, 1)))
        try history.append(who: "loopback", note: "back", text: Self.toggles((1, 3)))
        #expect(kept.current().newestChanges.mapValues(\.version) == ["poster": 6])

        // Visitors split 1:3 under version 1, measured against 3:1.
        let experiment = try #require(Toggles(json: Data(Self.toggles((3, 1)).utf8), file: "t", layouts: nil).experiments.first)
        var result = VisitorResult(ExperimentVisitors(name: "poster", groups: [("control", Self.visitors(159)), ("grid3", Self.visitors(488))]),
                                   toggles: experiment)
        #expect(result.srmWarning)
        #expect(try Self.banner(result).contains("Assignment or counting is broken"))
        result.splitChange = changes["poster"]
        let page = try Self.banner(result)
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
        let change = try #require(SplitChanges.splits(in: history).newestChanges["poster"])
        #expect(change.version == 3 && change.lastRanIn == 1 && change.restarted)
        // The banner says the split changed at the restart, not while it ran, which it never did.
        var result = VisitorResult(ExperimentVisitors(name: "poster", groups: [("control", Self.visitors(159)), ("grid3", Self.visitors(488))]),
                                   toggles: try #require(Toggles(json: Data(Self.toggles((1, 1)).utf8), file: "t", layouts: nil).experiments.first))
        result.splitChange = change
        let banner = try #require(try HTMLDocument.parse(Self.banner(result)).first { $0["data-srm"] != nil }?.text)
        #expect(banner.contains("Version 3 of the toggles started it again with other groups or weights than it last ran with (in version 1): "
                                + "the visitors counted before were split by the earlier weights"), "\(banner)")
        #expect(!banner.contains("while it ran"), "\(banner)")
    }

    /// The visitor figures' section of `result`, the sample-ratio banner included.
    static func banner(_ result: VisitorResult) throws -> String {
        var writer = HTMLWriter()
        let model = ExperimentsScreenModel(range: try ReportRangeQuery(QueryParameters([])), results: [])
        VisitorSection.render(result, experiment: "poster", heading: "poster", model: model, into: &writer)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    static func visitors(_ count: Int) -> VisitorSums {
        var sums = VisitorSums()
        sums.visitors = count
        return sums
    }
}
