import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// The selection rate per day of each group, as an inline SVG line chart in the style of the
/// events chart (no script, no style attribute; colours from classes), with a legend.
enum RateChart {
    static let width = 600, chartHeight = 130, left = 44
    /// The scale's top: the row above it is the change markers' keys, which a point at the top
    /// of the scale lay under.
    static let plotTop = 24

    /// `changes` are marked on the day they fall in (where in the day, between its point and the
    /// next), and listed under the chart.
    static func render(_ result: ExperimentResult, changes: [ConfigChange] = [], into writer: inout HTMLWriter) {
        let days = Array(Set(result.groups.flatMap { $0.days.map(\.day) })).sorted()
        writer.write("<figure class=\"reports__chart experiment__chart\"><figcaption>Selection rate per day (UTC)</figcaption>")
        guard let firstDay = days.first, let lastDay = days.last else {
            writer.write("<p class=\"reports__empty\">No home views yet.</p>")
            ChangeMarkers.renderList(changes, into: &writer)
            writer.write("</figure>")
            return
        }
        let rates = result.groups.map { group in
            group.days.filter { $0.views > 0 }.map { (day: $0.day, rate: min(1, Double($0.selections) / Double($0.views))) }
        }
        // The top of the scale: the highest daily rate rounded up to a whole 5 points (at least 5%).
        let peak = rates.flatMap { $0.map(\.rate) }.max() ?? 0
        let top = max(0.05, (peak * 20).rounded(.up) / 20)
        writer.write("<svg class=\"chart\" viewBox=\"0 0 600 160\" role=\"img\"")
        writer.attribute("aria-label", result.groups.map { "\($0.label) \(ExperimentResult.percent($0.rate.rate)) overall" }
            .joined(separator: ", ") + "; \(days.count) day\(days.count == 1 ? "" : "s")"
            + (changes.isEmpty ? "" : "; \(changes.count) change\(changes.count == 1 ? "" : "s") marked, listed below"))
        writer.write(">")
        writer.write("<line class=\"chart__axis\" x1=\"44\" y1=\"130\" x2=\"600\" y2=\"130\"/>")
        writer.write("<line class=\"chart__axis\" x1=\"44\" y1=\"4\" x2=\"44\" y2=\"130\"/>")
        let span = max(1, days.count - 1)
        func x(_ day: Date) -> Int {
            let index = days.firstIndex(of: day) ?? 0
            return days.count == 1 ? (left + width) / 2 : left + 8 + (width - left - 16) * index / span
        }
        func y(_ rate: Double) -> Int { chartHeight - Int(Double(chartHeight - plotTop) * rate / top) }
        for (index, points) in rates.enumerated() where !points.isEmpty {
            let series = index % 4
            if points.count > 1 {
                writer.write("<polyline class=\"chart__line chart__line--")
                writer.write(series)
                writer.write("\"")
                writer.attribute("points", points.map { "\(x($0.day)),\(y($0.rate))" }.joined(separator: " "))
                writer.write("/>")
            }
            for point in points {
                writer.write("<circle class=\"chart__point chart__point--")
                writer.write(series)
                writer.write("\"")
                writer.attribute("cx", x(point.day))
                writer.attribute("cy", y(point.rate))
                writer.write(" r=\"4\"><title>")
                writer.text("\(result.groups[index].label), \(day(point.day)): \(ExperimentResult.percent(point.rate))")
                writer.write("</title></circle>")
            }
        }
        ChangeMarkers.renderLines(changes, top: 4, bottom: chartHeight, width: width, x: { at in
            // Between the points of the day it falls in and the next day (one day's step past the
            // last); one day alone is the whole width, its point in the middle, so a change's line
            // falls where in the day it came rather than through every point.
            guard let index = days.lastIndex(where: { $0 <= at }), at < days[index].addingTimeInterval(86_400) else { return nil }
            let share = at.timeIntervalSince(days[index]) / 86_400
            if days.count == 1 { return Double(left + 8) + Double(width - left - 16) * share }
            return Double(x(days[index])) + Double(width - left - 16) / Double(span) * share
        }, into: &writer)
        writer.write("<text class=\"chart__label\" text-anchor=\"end\" x=\"38\"")
        writer.attribute("y", plotTop + 4)
        writer.write(">")
        writer.text(String(printf: "%.0f%%", top * 100))
        writer.write("</text><text class=\"chart__label\" x=\"38\" y=\"130\" text-anchor=\"end\">0%</text>")
        writer.write("<text class=\"chart__label\" x=\"44\" y=\"152\">")
        writer.text(day(firstDay))
        writer.write("</text>")
        if days.count > 1 {
            writer.write("<text class=\"chart__label\" x=\"600\" y=\"152\" text-anchor=\"end\">")
            writer.text(day(lastDay))
            writer.write("</text>")
        }
        writer.write("</svg><ul class=\"chart-legend\">")
        for (index, group) in result.groups.enumerated() {
            writer.write("<li><span class=\"chart-legend__swatch chart-legend__swatch--")
            writer.write(index % 4)
            writer.write("\"></span>")
            writer.text(group.label == "Group \(group.name)" ? group.label : "\(group.label) (group \(group.name))")
            writer.write("</li>")
        }
        writer.write("</ul>")
        ChangeMarkers.renderList(changes, into: &writer)
        writer.write("</figure>")
    }

    /// `YYYY-MM-DD`, from the report timestamp format.
    private static func day(_ date: Date) -> String {
        String(ReportTimestamp.string(from: date).prefix(10))
    }
}
