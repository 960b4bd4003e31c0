import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// The part of an experiment's section about visitors: the sample-ratio warning, the groups'
/// exact counts, and each metric against the first group by the chosen test.
enum VisitorSection {
    static func render(_ result: VisitorResult, experiment: String, heading: String, model: ExperimentsScreenModel,
                       into writer: inout HTMLWriter) {
        let test = model.test, range = model.range
        writer.write("<h3>")
        writer.text("Visitors, from their first exposure (\(scope(model)))")
        writer.write("</h3>")
        if result.guardrailBreached {
            writer.write("<p class=\"experiment__warning\" role=\"alert\" data-guardrail-breached>")
            let breached = result.guardrails.filter { $0.state == .breached }
            writer.text("Guardrail breached: " + breached.map { "\($0.metric.label.lowercased()) rose in group \($0.group) "
                + "by more than the \(ExperimentResult.points($0.margin).replacing("+", with: "")) points allowed" }
                .joined(separator: "; ") + ". Whatever the selections say, this group harms visitors; stop it or find why.")
            writer.write("</p>")
        }
        if result.srmWarning, let p = result.srmPValue {
            writer.write("<p class=\"experiment__warning\" role=\"alert\" data-srm>")
            writer.text("Sample ratio mismatch: the visitors per group (\(result.groups.map { ExperimentResult.count($0.sums.visitors) }.joined(separator: " / "))) "
                        + "do not match the weights (\(result.groups.map { weight($0.weight) }.joined(separator: " / "))), \(ExperimentResult.p(p)). "
                        + (result.splitChange.map { splitChanged($0) + ": the visitors counted before were split by the earlier weights, "
                            + "so the change alone may explain the mismatch. "
                            + "Results that mix two splits cannot be trusted either; to compare cleanly, run another under a new name." }
                           ?? "Assignment or counting is broken; do not trust the other figures until it is found."))
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
        testChoice(test, range: range, segment: model.segment, into: &writer)
        comparisonTable(result, heading: heading, test: test, into: &writer)
        guardrailTable(result, heading: heading, into: &writer)
    }

    /// How a version came to split the visitors otherwise than before: while the experiment ran, or
    /// starting it again after a stop (whose visitors stay counted).
    static func splitChanged(_ change: LastRunSplits.Change) -> String {
        change.restarted
            ? "Version \(change.version) of the toggles started it again with other groups or weights than it last ran with (in version \(change.lastRanIn))"
            : "Version \(change.version) of the toggles changed its groups or weights while it ran"
    }

    /// "all visitors, first exposed on any day" or "phone, first exposed 2026-11-20 to 2026-11-24".
    static func scope(_ model: ExperimentsScreenModel) -> String {
        let who = model.segment == .all ? "all visitors" : label(model.segment).lowercased()
        guard let days = ExperimentReportRoutes.exposureDays(model.range.range) else { return who + ", whole report log" }
        func day(_ day: Int32) -> String { String(ReportTimestamp.string(from: Date(timeIntervalSince1970: Double(day) * 86_400)).prefix(10)) }
        let from = days.lowerBound == .min ? "the start" : day(days.lowerBound)
        // A range from a day to come has no visitors yet: "… to today" would read as a span.
        if days.lowerBound > Int32((Date().timeIntervalSince1970 / 86_400).rounded(.down)) {
            return "\(who), first exposed from \(from) UTC on: a day still to come, so none yet"
        }
        let to = days.upperBound == .max ? "today" : day(days.upperBound - 1)
        return "\(who), first exposed \(from) to \(to) UTC, with all their events since"
    }

    static func label(_ segment: VisitorSegmentFilter) -> String {
        switch segment {
        case .all: "All visitors"
        case .device(.unknown): "Device unknown"
        case .device(let device): device.name.capitalized
        case .cohort(.unknown): "Cohort unknown"
        case .cohort(let cohort): cohort == .new ? "New visitors" : "Returning visitors"
        }
    }

    /// Per other group, each guardrail metric against the first group with its sequential interval,
    /// the margin the toggles allow, and what that says.
    private static func guardrailTable(_ result: VisitorResult, heading: String, into writer: inout HTMLWriter) {
        guard !result.guardrails.isEmpty else { return }
        writer.write("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\"")
        writer.attribute("aria-labelledby", heading)
        writer.write("""
            ><table class="events experiment__guardrails"><caption>Guardrails: may not rise by more than the margin \
            (sequential test, 95% intervals)</caption><thead><tr><th scope="col">Guardrail</th><th scope="col">Group</th>\
            <th scope="col">First group</th><th scope="col">This group</th><th scope="col">Difference</th>\
            <th scope="col">Margin</th><th scope="col">Verdict</th></tr></thead><tbody>
            """)
        for guardrail in result.guardrails {
            writer.write("<tr")
            writer.attribute("data-guardrail", guardrail.metric.rawValue)
            writer.attribute("data-group", guardrail.group)
            writer.attribute("data-state", guardrail.state.rawValue)
            writer.write("><th scope=\"row\">")
            writer.text(guardrail.metric.label)
            writer.write("</th><td data-label=\"Group\">")
            writer.text(guardrail.group)
            writer.write("</td><td data-label=\"First group\">")
            writer.text(ExperimentResult.percent(guardrail.baseline.mean))
            writer.write("</td><td data-label=\"This group\">")
            writer.text(ExperimentResult.percent(guardrail.value.mean))
            writer.write("</td><td data-label=\"Difference\">")
            writer.text(describe(guardrail.estimate, share: true))
            writer.write("</td><td data-label=\"Margin\">")
            writer.text(String(printf: "+%.1f pts", guardrail.margin * 100))
            writer.write("</td><td data-label=\"Verdict\">")
            switch guardrail.state {
            case .breached: writer.write("<strong>breached</strong>")
            case .unclear: writer.write("not yet shown within")
            case .within: writer.write("within")
            }
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div>")
    }

    private static func weight(_ weight: Double?) -> String {
        guard let weight else { return "?" }
        return weight == weight.rounded() ? String(Int(weight)) : String(printf: "%g", weight)
    }

    private static func groupTable(_ result: VisitorResult, heading: String, into writer: inout HTMLWriter) {
        writer.write("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\"")
        writer.attribute("aria-labelledby", heading)
        writer.write("""
            ><table class="events experiment__visitors"><caption>Visitors per group</caption><thead><tr>\
            <th scope="col">Group</th><th scope="col">Visitors</th><th scope="col">Selected anything</th>\
            <th scope="col">Long</th><th scope="col">Short</th><th scope="col">Stream</th>\
            <th scope="col">Selections per visitor</th><th scope="col">Selections per view</th>\
            <th scope="col">Started a play</th><th scope="col">Plays per visitor</th></tr></thead><tbody>
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
            writer.text(result.enoughData ? String(printf: "%.3f", Double(s.selections) / Double(s.visitors)) : "\u{2014}")
            writer.write("</td><td data-label=\"Selections per view\">")
            writer.text(result.enoughData && s.views > 0 ? String(printf: "%.3f", Double(s.selections) / Double(s.views)) : "\u{2014}")
            writer.write("</td><td")
            writer.attribute("data-playing", String(s.playing))
            writer.write(" data-label=\"Started a play\">")
            writer.text(result.enoughData ? "\(ExperimentResult.count(s.playing)) (\(ExperimentResult.percent(Double(s.playing) / Double(s.visitors))))"
                        : ExperimentResult.count(s.playing))
            writer.write("</td><td data-label=\"Plays per visitor\">")
            writer.text(result.enoughData ? String(printf: "%.3f", Double(s.plays) / Double(s.visitors)) : "\u{2014}")
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div>")
    }

    private static func testChoice(_ test: VisitorResult.Test, range: ReportRangeQuery, segment: VisitorSegmentFilter,
                                   into writer: inout HTMLWriter) {
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
                if let from = range.from { query.append("from=\(PercentEncoding.encode(from, keeping: PercentEncoding.isAlphanumeric))") }
                if let to = range.to { query.append("to=\(PercentEncoding.encode(to, keeping: PercentEncoding.isAlphanumeric))") }
                if segment != .all { query.append("segment=\(segment.name)") }
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
            <th scope="col">Difference (absolute)</th><th scope="col">p of the difference</th>\
            <th scope="col">Lift (relative to the first group)</th><th scope="col">p of the lift</th></tr></thead><tbody>
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
            writer.write("</td><td data-p=\"absolute\" data-label=\"p of the difference\">")
            writer.text(pValue(absolute))
            writer.write("</td><td data-label=\"Lift\">")
            writer.text(describe(relative, share: false))
            writer.write("</td><td data-p=\"relative\" data-label=\"p of the lift\">")
            writer.text(pValue(relative))
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div>")
    }

    /// Each interval beside its own p-value: they answer different questions and can disagree.
    private static func pValue(_ estimate: EffectEstimate) -> String {
        estimate.problem == nil ? ExperimentResult.p(estimate.pValue).replacing("p = ", with: "").replacing("p ", with: "") : "\u{2014}"
    }

    /// "+3.1 pts (−0.4 to +6.6)" for a share, "+0.087 (−0.012 to +0.186)" for a mean, "+11.2% (…)" relative.
    static func describe(_ estimate: EffectEstimate, share: Bool) -> String {
        switch estimate.problem {
        case .baselineZero?: return "\u{2014} (first group at 0)"
        case .noVariance?: return "\u{2014} (no variation yet)"
        case nil: break
        }
        let value: (Double) -> String = switch (estimate.difference, share) {
        case (.relative, _): { String(printf: "%+.1f%%", $0 * 100) }
        case (.absolute, true): { String(printf: "%+.1f", $0 * 100) }
        case (.absolute, false): { String(printf: "%+.3f", $0) }
        }
        let unit = estimate.difference == .absolute && share ? " pts" : ""
        return "\(value(estimate.expected))\(unit) (\(value(estimate.interval.lowerBound)) to \(value(estimate.interval.upperBound)))"
    }
}
