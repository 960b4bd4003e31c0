import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// `/reports.json`: the numbers of `/reports` for scripts and dashboards,
/// `{"from","to","total","byEvent","byLayout","bucket","series":[{"start","count"}],"visitors",
/// "visitorsExact","visitorsError","dropped","experiments":[…],"setAside":{…}}`; times are UTC report
/// timestamps, `from`/`to` null for an open end, `bucket` the width of a series point in seconds (at
/// most 1,500 points, `SeriesBound`), `visitorsError` one standard error of an estimate (0 when exact;
/// both null when a filter's visitors were not counted, `ReportStore.visitorLineBudget`).
enum ReportsJSON {
    /// `experiments` is the `"experiments":[…]` member (`ExperimentsJSON`) and the members after it.
    static func document(_ summary: ReportSummary, experiments: String) -> String {
        let time = JSONText.time, counts = JSONText.counts
        let series = summary.series.map { "{\"start\":\(time($0.start)),\"count\":\($0.count)}" }.joined(separator: ",")
        return "{\"from\":\(time(summary.from)),\"to\":\(time(summary.to)),\"total\":\(summary.total),"
            + "\"byEvent\":\(counts(summary.byEvent)),\"byLayout\":\(counts(summary.byLayout)),"
            + "\"bucket\":\(Int(summary.bucket)),\"series\":[\(series)],\"visitors\":\(visitors(summary)),"
            + "\"visitorsExact\":\(summary.visitorsExact),\"visitorsError\":\(visitorsError(summary)),"
            + "\"dropped\":\(summary.dropped),\(experiments)}"
    }

    /// `null` when not counted (a filter over too many lines).
    private static func visitors(_ summary: ReportSummary) -> String {
        summary.visitorsCounted ? "\(summary.visitors)" : "null"
    }

    private static func visitorsError(_ summary: ReportSummary) -> String {
        guard summary.visitorsCounted else { return "null" }
        return summary.visitorsExact ? "0" : "\(VisitorFigure.margin(summary.visitors))"
    }
}
