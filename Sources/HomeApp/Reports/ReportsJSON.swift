import Foundation
import Reporting

/// `/reports.json`: the numbers of `/reports` for scripts and dashboards,
/// `{"from","to","total","byEvent","byLayout","bucket","series":[{"start","count"}],"visitors",
/// "visitorsExact","visitorsError","dropped","experiments":[…],"setAside":{…}}`; times are UTC report
/// timestamps, `from`/`to` null for an open end, `bucket` the width of a series point in seconds (at
/// most 1,500 points, `SeriesBound`), `visitorsError` one standard error of an estimate (0 when exact).
enum ReportsJSON {
    /// `experiments` is the `"experiments":[…]` member (`ExperimentsJSON`) and the members after it.
    static func document(_ summary: ReportSummary, experiments: String) -> String {
        let time = JSONText.time, counts = JSONText.counts
        let series = summary.series.map { "{\"start\":\(time($0.start)),\"count\":\($0.count)}" }.joined(separator: ",")
        return "{\"from\":\(time(summary.from)),\"to\":\(time(summary.to)),\"total\":\(summary.total),"
            + "\"byEvent\":\(counts(summary.byEvent)),\"byLayout\":\(counts(summary.byLayout)),"
            + "\"bucket\":\(Int(summary.bucket)),\"series\":[\(series)],\"visitors\":\(summary.visitors),"
            + "\"visitorsExact\":\(summary.visitorsExact),\"visitorsError\":\(summary.visitorsExact ? 0 : VisitorFigure.margin(summary.visitors)),"
            + "\"dropped\":\(summary.dropped),\(experiments)}"
    }
}
