import Foundation
import Reporting
import ScreenKit

/// The part of an experiment's section about visitors: the sample-ratio warning, the groups'
/// exact counts, and each metric against the first group by the chosen test.
enum VisitorSection {
    static func render(_ result: VisitorResult, experiment: String, heading: String, test: VisitorResult.Test,
                       range: ReportRangeQuery, into writer: inout HTMLWriter) {
        writer.write("<h3>Visitors, from their first exposure (whole report log)</h3>")
        if result.srmWarning, let p = result.srmPValue {
            writer.write("<p class=\"experiment__warning\" role=\"alert\" data-srm>")
            writer.text("Sample ratio mismatch: the visitors per group (\(result.groups.map { ExperimentResult.count($0.sums.visitors) }.joined(separator: " / "))) "
                        + "do not match the weights (\(result.groups.map { weight($0.weight) }.joined(separator: " / "))), \(ExperimentResult.p(p)). "
                        + "Assignment or counting is broken; do not trust the other figures until it is found.")
            writer.write("</p>")
        }
        if result.incomplete {
            writer.write("<p class=\"experiment__warning\" role=\"alert\" data-incomplete>")
            writer.text("Some events of this experiment were not counted (more than \(ExperimentTallyLimits.groups) groups, or the disk was full): "
                        + "the figures below are lower bounds.")
            writer.write("</p>")
        }
        if !result.enoughData {
            writer.write("<p class=\"experiment__power\" data-not-enough>")
            writer.text("Not enough data yet: each group needs \(VisitorResult.minimumVisitors) visitors before shares and tests mean anything "
                        + "(now \(result.groups.map { ExperimentResult.count($0.sums.visitors) }.joined(separator: " / "))).")
            writer.write("</p>")
        }
        groupTable(result, heading: heading, into: &writer)
        guard result.enoughData else { return }
        testChoice(test, range: range, into: &writer)
        comparisonTable(result, heading: heading, test: test, into: &writer)
    }

    private static func weight(_ weight: Double?) -> String {
        guard let weight else { return "?" }
        return weight == weight.rounded() ? String(Int(weight)) : String(format: "%g", weight)
    }

    private static func groupTable(_ result: VisitorResult, heading: String, into writer: inout HTMLWriter) {
        writer.write("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\"")
        writer.attribute("aria-labelledby", heading)
        writer.write("""
            ><table class="events experiment__visitors"><caption>Visitors per group</caption><thead><tr>\
            <th scope="col">Group</th><th scope="col">Visitors</th><th scope="col">Selected anything</th>\
            <th scope="col">Long</th><th scope="col">Short</th><th scope="col">Stream</th>\
            <th scope="col">Selections per visitor</th><th scope="col">Selections per view</th></tr></thead><tbody>
            """)
        for group in result.groups {
            let s = group.sums
            writer.write("<tr")
            writer.attribute("data-visitor-group", group.name)
            writer.write("><th scope=\"row\">")
            writer.text(group.name)
            writer.write("</th><td data-exposed data-label=\"Visitors\">")
            writer.write(s.visitors)
            let shares: [(StaticString, Int, String)] = [
                ("data-converting", s.converting, "Selected anything"), ("data-long", s.convertingLong, "Long"),
                ("data-short", s.convertingShort, "Short"), ("data-stream", s.convertingStream, "Stream"),
            ]
            for (name, count, label) in shares {
                writer.write("</td><td")
                writer.attribute(name, String(count))
                writer.attribute("data-label", label)
                writer.write(">")
                writer.text(result.enoughData ? "\(ExperimentResult.count(count)) (\(ExperimentResult.percent(Double(count) / Double(s.visitors))))"
                            : ExperimentResult.count(count))
            }
            writer.write("</td><td data-label=\"Selections per visitor\">")
            writer.text(result.enoughData ? String(format: "%.3f", Double(s.selections) / Double(s.visitors)) : "\u{2014}")
            writer.write("</td><td data-label=\"Selections per view\">")
            writer.text(result.enoughData && s.views > 0 ? String(format: "%.3f", Double(s.selections) / Double(s.views)) : "\u{2014}")
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div>")
    }

    private static func testChoice(_ test: VisitorResult.Test, range: ReportRangeQuery, into writer: inout HTMLWriter) {
        writer.write("<p class=\"experiment__tests\">")
        for (index, (choice, label)) in [(VisitorResult.Test.sequential, "Sequential (valid at any look)"),
                                         (.fixed, "Fixed horizon (one look, at a planned size)")].enumerated() {
            if index > 0 { writer.write(" \u{00B7} ") }
            if choice == test {
                writer.write("<strong aria-current=\"true\">")
                writer.text(label)
                writer.write("</strong>")
            } else {
                var query = ["test=\(choice.rawValue)"]
                if let from = range.from { query.append("from=\(from.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")") }
                if let to = range.to { query.append("to=\(to.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")") }
                writer.write("<a")
                writer.attribute("href", "/reports/experiments?" + query.joined(separator: "&"))
                writer.write(">")
                writer.text(label)
                writer.write("</a>")
            }
        }
        writer.write("</p>")
    }

    private static func comparisonTable(_ result: VisitorResult, heading: String, test: VisitorResult.Test,
                                        into writer: inout HTMLWriter) {
        let first = result.groups.first?.name ?? ""
        writer.write("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\"")
        writer.attribute("aria-labelledby", heading)
        writer.write("><table class=\"events experiment__comparisons\"")
        writer.attribute("data-test", test.rawValue)
        writer.write("><caption>")
        writer.text("Against group \(first), \(test == .sequential ? "sequential" : "fixed-horizon") test, 95% intervals")
        writer.write("""
            </caption><thead><tr><th scope="col">Metric</th><th scope="col">Group</th>\
            <th scope="col">Difference (absolute)</th><th scope="col">Lift (relative to the first group)</th>\
            <th scope="col">p</th></tr></thead><tbody>
            """)
        for comparison in result.comparisons {
            let absolute = comparison.absolute[test]!, relative = comparison.relative[test]!
            writer.write("<tr")
            writer.attribute("data-metric", comparison.metric.rawValue)
            writer.attribute("data-group", comparison.group)
            writer.write("><th scope=\"row\">")
            writer.text(comparison.metric.label)
            writer.write("</th><td data-label=\"Group\">")
            writer.text(comparison.group)
            writer.write("</td><td data-label=\"Difference\">")
            writer.text(describe(absolute, share: comparison.metric.isShare))
            writer.write("</td><td data-label=\"Lift\">")
            writer.text(describe(relative, share: false))
            writer.write("</td><td data-p data-label=\"p\">")
            writer.text(absolute.problem == nil ? ExperimentResult.p(relative.problem == nil ? relative.pValue : absolute.pValue)
                .replacingOccurrences(of: "p = ", with: "").replacingOccurrences(of: "p ", with: "") : "\u{2014}")
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div>")
    }

    /// "+3.1 pts (−0.4 to +6.6)" for a share, "+0.087 (−0.012 to +0.186)" for a mean, "+11.2% (…)" relative.
    static func describe(_ estimate: EffectEstimate, share: Bool) -> String {
        switch estimate.problem {
        case .baselineZero?: return "\u{2014} (first group at 0)"
        case .noVariance?: return "\u{2014} (no variation yet)"
        case nil: break
        }
        let value: (Double) -> String = switch (estimate.difference, share) {
        case (.relative, _): { String(format: "%+.1f%%", $0 * 100) }
        case (.absolute, true): { String(format: "%+.1f", $0 * 100) }
        case (.absolute, false): { String(format: "%+.3f", $0) }
        }
        let unit = estimate.difference == .absolute && share ? " pts" : ""
        return "\(value(estimate.expected))\(unit) (\(value(estimate.interval.lowerBound)) to \(value(estimate.interval.upperBound)))"
    }
}
