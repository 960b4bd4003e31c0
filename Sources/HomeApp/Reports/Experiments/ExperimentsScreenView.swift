import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

final class ExperimentsScreenView: RootView {
    static var cssClass: StaticString? { "reports experiments" }

    init() {}

    func renderContent(_ model: ExperimentsScreenModel, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer, context: scope.context)
        writer.write("<div class=\"reports__body\"><div class=\"reports__title\"><h1>Experiments</h1>")
        if model.signedIn { ReportsSignIn.renderSignOut(into: &writer, context: scope.context, cssClass: "reports__sign-out") }
        writer.write("""
            </div>\
            <p class="reports__intro">For each experiment: its visitors, counted exactly from their first exposure, \
            and each group against the first with 95% intervals; then selections (long, short and stream) per home \
            view in the chosen range. <a href="/reports">The report log</a></p>
            """)
        if let reason = model.unavailable { DatabaseReportsView.renderSource(.fallback(reason), into: &writer) }
        rangeForm(model, into: &writer)
        if let progress = model.counting {
            writer.write("<p class=\"experiment__power\" role=\"status\"")
            writer.attribute("data-counting", String(printf: "%.2f", progress))
            writer.write(">")
            writer.text("Counting visitors\u{2026} \(Int(progress * 100))% of the report log read since the server started; "
                        + "the visitor figures appear when it is done. Reload to see how far it has come.")
            writer.write("</p>")
        }
        if model.results.isEmpty {
            writer.write("<p class=\"reports__empty\">No experiment in the toggles, and no events tagged with one in this range.</p>")
        }
        // Said once for the page: it holds for every experiment's visitor figures alike.
        if model.results.contains(where: { $0.visitors != nil }) { WholeDaysNotice.render(model, into: &writer) }
        for (index, result) in model.results.enumerated() { experiment(result, index: index, model: model, into: &writer) }
        writer.write("</div>")
    }

    private func rangeForm(_ model: ExperimentsScreenModel, into writer: inout HTMLWriter) {
        let range = model.range
        writer.write("<form class=\"reports-filter\" method=\"get\" action=\"/reports/experiments\">")
        ReportRangeFields.render(from: range.from, to: range.to, range: range.range, into: &writer)
        writer.write("<label class=\"field\"><span class=\"field__label\">Visitors</span><select name=\"segment\">")
        for choice in VisitorSegmentFilter.choices {
            writer.write("<option")
            writer.attribute("value", choice.name)
            if choice == model.segment { writer.write(" selected") }
            writer.write(">")
            writer.text(VisitorSection.label(choice))
            writer.write("</option>")
        }
        writer.write("</select></label>")
        if model.test != .sequential {
            writer.hiddenField("test", model.test.rawValue)
        }
        // "All time" clears the days alone: the visitors and the test chosen stay.
        let kept = (model.segment == .all ? [] : ["segment=\(model.segment.name)"])
            + (model.test == .sequential ? [] : ["test=\(model.test.rawValue)"])
        writer.write("""
            <div class="reports-filter__actions"><button class="button button--primary" type="submit">Show</button>\
            <a class="button button--secondary"
            """)
        writer.attribute("href", "/reports/experiments" + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")))
        writer.write(">All time</a></div></form>")
    }

    private func experiment(_ result: ExperimentResult, index: Int, model: ExperimentsScreenModel, into writer: inout HTMLWriter) {
        let heading = "experiment-\(index)"
        writer.write("<section class=\"experiment\"")
        writer.attribute("aria-labelledby", heading)
        writer.attribute("data-experiment", result.name)
        writer.write("><h2")
        writer.attribute("id", heading)
        writer.write(">")
        writer.text(result.name)
        writer.write(" <span class=\"experiment__status\">")
        switch result.active {
        case true?: writer.write("running")
        case false?: writer.write("stopped")
        case nil: writer.write("not in the toggles")
        }
        writer.write("</span></h2>")
        if let afterwards = result.afterwards {
            writer.write("<p class=\"experiment__power\" data-afterwards>")
            writer.text(afterwards)
            writer.write("</p>")
        }
        if let visitors = result.visitors {
            VisitorSection.render(visitors, experiment: result.name, heading: heading, model: model, into: &writer)
        }
        HomeViewsHeading.render(result, model: model, into: &writer)
        let sentences = result.groups.compactMap { result.sentence(for: $0) }
        if !sentences.isEmpty {
            writer.write("<ul class=\"experiment__findings\">")
            for sentence in sentences {
                writer.write("<li>")
                writer.text(sentence)
                writer.write("</li>")
            }
            writer.write("</ul>")
        }
        if result.active != false, result.groups.count > 1, result.groups.contains(where: { $0.visitors < VisitorResult.minimumVisitors }) {
            // A large observed difference "needs" few views; the visitors, the unit that was
            // randomised, say whether there is anything to act on yet.
            writer.write("<p class=\"experiment__power\" data-too-few-visitors>")
            writer.text("Too few visitors to act on these home views: each group needs \(VisitorResult.minimumVisitors) "
                        + "(now about \(result.groups.map { ExperimentResult.count($0.visitors) }.joined(separator: " / "))).")
            writer.write("</p>")
        } else if result.active != false, let needed = result.stillNeeded {
            writer.write("<p class=\"experiment__power\">")
            writer.text(needed == 0
                ? "Enough home views per group to detect this difference at 95% confidence and 80% power."
                : "About \(ExperimentResult.count(needed)) more home views per group to detect \(plannedDifference(result)) at 95% confidence and 80% power.")
            writer.write("</p>")
        }
        table(result, heading: heading, into: &writer)
        ExperimentActions.render(result, into: &writer)
        RateChart.render(result, changes: model.changes, into: &writer)
        writer.write("</section>")
    }

    private func plannedDifference(_ result: ExperimentResult) -> String {
        let observed = result.groups.compactMap { $0.comparison?.difference }.filter { $0 != 0 }
        guard let smallest = observed.min(by: { abs($0) < abs($1) }) else { return "a 1-point difference" }
        return String(printf: "the observed difference of %.1f points", abs(smallest) * 100)
    }

    private func table(_ result: ExperimentResult, heading: String, into writer: inout HTMLWriter) {
        writer.write("<div class=\"table-scroll\" tabindex=\"0\" role=\"region\"")
        writer.attribute("aria-labelledby", heading)
        writer.write("""
            ><table class="events experiment__table"><thead><tr><th scope="col">Group</th><th scope="col">Layout</th>\
            <th scope="col">Visitors (est.)</th><th scope="col">Views</th><th scope="col">Selections</th>\
            <th scope="col">Rate (95% interval)</th><th scope="col">Difference (95% interval)</th>\
            <th scope="col">p</th><th scope="col">Views still needed</th></tr></thead><tbody>
            """)
        for group in result.groups {
            writer.write("<tr")
            writer.attribute("data-group", group.name)
            writer.write("><th scope=\"row\">")
            writer.text(group.name)
            writer.write("</th><td>")
            writer.text(group.layout ?? "")
            writer.write("</td><td")
            writer.attribute("data-visitors", group.visitors)
            writer.write(">")
            writer.text(VisitorFigure.text(group.visitors, exact: false))
            writer.write("</td><td data-views>")
            writer.write(group.views)
            writer.write("</td><td data-selections>")
            writer.write(group.selections)
            writer.write("</td><td data-rate>")
            guard group.views > 0, result.groups.first?.views ?? 0 > 0 else {
                // No percentages from nothing.
                writer.write(group.views > 0 ? "\u{2014}" : "no views yet")
                writer.write("</td><td>\u{2014}</td><td>\u{2014}</td><td></td></tr>")
                continue
            }
            writer.text("\(ExperimentResult.percent(group.rate.rate)) (\(ExperimentResult.range(group.interval)))")
            writer.write("</td><td>")
            if let comparison = group.comparison {
                writer.text("\(ExperimentResult.points(comparison.difference)) pts (\(ExperimentResult.points(comparison.interval.lowerBound)) "
                            + "to \(ExperimentResult.points(comparison.interval.upperBound)))")
                writer.write("</td><td data-p>")
                writer.text(ExperimentResult.p(comparison.pValue).replacing("p = ", with: "")
                    .replacing("p ", with: ""))
                writer.write("</td><td>")
                writer.text(group.stillNeeded.map(ExperimentResult.count) ?? "")
            } else {
                writer.write("first group</td><td></td><td>")
            }
            writer.write("</td></tr>")
        }
        writer.write("</tbody></table></div>")
    }
}
