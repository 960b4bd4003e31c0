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
            "{\"group\":\(string(group.name)),\"layout\":\(group.layout.map(string) ?? "null"),"
                + "\"visitors\":\(group.visitors),\"views\":\(group.views),\"selections\":\(group.selections),"
                + "\"rate\":\(number(group.rate.rate)),\"low\":\(number(group.interval.lowerBound)),"
                + "\"high\":\(number(group.interval.upperBound))}"
        }
        return "{\"name\":\(string(result.name)),\"groups\":[\(groups.joined(separator: ","))],"
            + "\"pValue\":\(result.pValue.map(number) ?? "null")}"
    }

    /// A JSON string literal.
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number with up to 6 significant decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = String(format: "%.6g", value)
        return text.contains("e") ? String(format: "%.10f", value) : text
    }
}
