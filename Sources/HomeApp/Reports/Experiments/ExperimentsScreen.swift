#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// `/reports/experiments`: per experiment and group the selection rate per home view, how each
/// group differs from the first, and how many more views a clear answer needs.
final class ExperimentsScreen: GenericViewController<ExperimentsScreenModel, ExperimentsScreenView> {
    override var pageTitle: String? { "Experiments" }
}

struct ExperimentsScreenModel {
    let range: ReportRangeQuery
    let results: [ExperimentResult]
    /// Which test the comparisons show: sequential by default, fixed-horizon one click away.
    var test: VisitorResult.Test = .sequential
    /// The toggles' and catalogue's changes in the range, marked on each chart.
    var changes: [ConfigChange] = []
    /// The visitors the visitor figures are read for.
    var segment: VisitorSegmentFilter = .all
    /// While the visitor tallies are being prepared at start: how far; nil once ready.
    var counting: Double?
    /// Why the report database could not answer, when the figures are this instance's alone.
    var unavailable: String?
    /// Read through a sign-in, which the page offers to end.
    var signedIn = false
}
