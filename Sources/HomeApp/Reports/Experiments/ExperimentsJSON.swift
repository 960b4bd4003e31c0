import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The `"experiments"` member of `/reports.json`:
/// `"experiments":[{"name","groups":[{"group","layout","visitors","views","selections","rate","low","high"}],"pValue"}]`.
/// Rates and bounds are fractions (0.124, not 12.4); `layout` and `pValue` are null when unknown.
enum ExperimentsJSON {
    /// The member for `range`, from the report store: may block on the disk, so call it on the report pool.
    /// Followed by `"experimentTallies":{"ready","progress","segment"}`: whether the visitor figures
    /// are there yet (while the tallies are counted at start, `progress` says how far, 0 to 1).
    static func member(_ range: ReportRange, segment: VisitorSegmentFilter = .all, services: AppServices,
                       splitChanges: [String: LastRunSplits.Change] = [:]) -> String {
        let progress = ExperimentReportRoutes.counting(services)
        return member(ExperimentReportRoutes.results(range, segment: segment, services: services, splitChanges: splitChanges))
            + ",\"experimentTallies\":{\"ready\":\(progress == nil),\"progress\":\(progress.map(JSONText.rounded) ?? "null"),"
            + "\"segment\":\(JSONText.string(segment.name))}"
    }

    static func member(_ results: [ExperimentResult]) -> String {
        "\"experiments\":[" + results.map(experiment).joined(separator: ",") + "]"
    }

    static func experiment(_ result: ExperimentResult) -> String {
        let groups = result.groups.map { group in
            "{\"group\":\(JSONText.string(group.name)),\"layout\":\(group.layout.map(JSONText.string) ?? "null"),"
                + "\"visitors\":\(group.visitors),\"views\":\(group.views),\"selections\":\(group.selections),"
                + "\"rate\":\(JSONText.rounded(group.rate.rate)),\"low\":\(JSONText.rounded(group.interval.lowerBound)),"
                + "\"high\":\(JSONText.rounded(group.interval.upperBound))}"
        }
        return "{\"name\":\(JSONText.string(result.name)),\"groups\":[\(groups.joined(separator: ","))],"
            + "\"pValue\":\(result.pValue.map(JSONText.rounded) ?? "null"),"
            + "\"visitors\":\(result.visitors.map(visitors) ?? "null")}"
    }

    /// The visitor-level member: exact sums per group, the SRM check, and every metric against the
    /// first group by both tests, absolute and relative.
    static func visitors(_ result: VisitorResult) -> String {
        let groups = result.groups.map { group in
            let s = group.sums
            return "{\"group\":\(JSONText.string(group.name)),\"weight\":\(group.weight.map(JSONText.rounded) ?? "null"),"
                + VisitorSums.fieldNames.indices.map { "\"\(VisitorSums.fieldNames[$0])\":\(s[field: $0])" }.joined(separator: ",") + "}"
        }
        let comparisons = result.comparisons.map { comparison in
            let tests = VisitorResult.Test.allCases.map { test in
                "\"\(test.rawValue)\":{\"absolute\":\(estimate(comparison.absolute[test]!)),\"relative\":\(estimate(comparison.relative[test]!))}"
            }
            return "{\"metric\":\(JSONText.string(comparison.metric.rawValue)),\"group\":\(JSONText.string(comparison.group)),"
                + "\"baseline\":\(JSONText.rounded(comparison.baseline.mean)),\"value\":\(JSONText.rounded(comparison.value.mean)),"
                + tests.joined(separator: ",") + "}"
        }
        let guardrails = result.guardrails.map { guardrail in
            "{\"metric\":\(JSONText.string(guardrail.metric.rawValue)),\"group\":\(JSONText.string(guardrail.group)),"
                + "\"baseline\":\(JSONText.rounded(guardrail.baseline.mean)),\"value\":\(JSONText.rounded(guardrail.value.mean)),"
                + "\"margin\":\(JSONText.rounded(guardrail.margin)),\"sequential\":\(estimate(guardrail.estimate)),"
                + "\"state\":\(JSONText.string(guardrail.state.rawValue))}"
        }
        return "{\"groups\":[\(groups.joined(separator: ","))],\"guardrails\":[\(guardrails.joined(separator: ","))],"
            + "\"guardrailWarning\":\(result.guardrailBreached),\"srmPValue\":\(result.srmPValue.map(JSONText.rounded) ?? "null"),"
            + "\"srmWarning\":\(result.srmWarning),\"splitChangedIn\":\(result.splitChange.map { String($0.version) } ?? "null"),"
            + "\"enoughData\":\(result.enoughData),\"uncountedGroups\":\(result.incomplete),"
            + "\"minimumVisitors\":\(VisitorResult.minimumVisitors),\"comparisons\":[\(comparisons.joined(separator: ","))]}"
    }

    static func estimate(_ estimate: EffectEstimate) -> String {
        "{\"estimate\":\(JSONText.rounded(estimate.expected)),\"low\":\(JSONText.rounded(estimate.interval.lowerBound)),"
            + "\"high\":\(JSONText.rounded(estimate.interval.upperBound)),\"pValue\":\(JSONText.rounded(estimate.pValue)),"
            + "\"problem\":\(estimate.problem.map { JSONText.string($0.rawValue) } ?? "null")}"
    }
}
