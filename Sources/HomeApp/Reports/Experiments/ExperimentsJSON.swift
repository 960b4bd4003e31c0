import Foundation
import Reporting

/// The `"experiments"` member of `/reports.json`:
/// `"experiments":[{"name","groups":[{"group","layout","visitors","views","selections","rate","low","high"}],"pValue"}]`.
/// Rates and bounds are fractions (0.124, not 12.4); `layout` and `pValue` are null when unknown.
enum ExperimentsJSON {
    /// The member for `range`, from the report store: may block on the disk, so call it on the report pool.
    static func member(_ range: ReportRange, services: AppServices) -> String {
        member(ExperimentReportRoutes.results(range, services: services))
    }

    static func member(_ results: [ExperimentResult]) -> String {
        "\"experiments\":[" + results.map(experiment).joined(separator: ",") + "]"
    }

    static func experiment(_ result: ExperimentResult) -> String {
        let groups = result.groups.map { group in
            "{\"group\":\(JSONText.string(group.name)),\"layout\":\(group.layout.map(JSONText.string) ?? "null"),"
                + "\"visitors\":\(group.visitors),\"views\":\(group.views),\"selections\":\(group.selections),"
                + "\"rate\":\(JSONText.number(group.rate.rate)),\"low\":\(JSONText.number(group.interval.lowerBound)),"
                + "\"high\":\(JSONText.number(group.interval.upperBound))}"
        }
        return "{\"name\":\(JSONText.string(result.name)),\"groups\":[\(groups.joined(separator: ","))],"
            + "\"pValue\":\(result.pValue.map(JSONText.number) ?? "null")}"
    }
}
