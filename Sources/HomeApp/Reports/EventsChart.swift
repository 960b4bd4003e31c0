import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// Events over the range, one bar per bucket (the bucket grows with the range), as an inline SVG
/// bar chart (no script, no style attribute).
enum EventsChart {
    static let width = 600, height = 140, chartHeight = 110
    static let minimumSlots = 60
    /// The widest bar: a range of a few buckets (an hour by the hour) draws narrow bars, not slabs.
    static let widestBar = 24

    /// `changes` are marked where they fall on the chart, and listed under it. `from` is the
    /// range's start when it has one: the series then covers the range, and the axis is the range.
    static func render(_ series: [(start: Date, count: Int)], bucket: TimeInterval, from: Date? = nil,
                       changes: [ConfigChange] = [], into writer: inout HTMLWriter) {
        let peak = max(1, series.map(\.count).max() ?? 0)
        let total = series.reduce(0) { $0 + $1.count }
        let unit = unitName(bucket)
        writer.write("<figure class=\"reports__chart\"><figcaption>")
        writer.text("Events per \(unit)")
        writer.write("</figcaption><svg class=\"chart\" viewBox=\"0 0 600 140\" role=\"img\"")
        writer.attribute("aria-label", "\(total) events; at most \(peak) in one \(unit)"
                         + (changes.isEmpty ? "" : "; \(changes.count) change\(changes.count == 1 ? "" : "s") marked, listed below"))
        writer.write("><line class=\"chart__axis\" x1=\"0\" y1=\"110\" x2=\"600\" y2=\"110\"/>")
        if let first = series.first, let last = series.last {
            // Over the whole log, at least `minimumSlots` slots, so a short log is not one wide bar;
            // the padding goes before the first point: the series ends at now, and so does the axis.
            // A range with a start is drawn as it is: padding would run the axis before its start.
            let points = Int((last.start.timeIntervalSince(first.start) / bucket).rounded()) + 1
            let buckets = from == nil ? max(Self.minimumSlots, points) : points
            let slot = Double(width) / Double(buckets)
            let start = first.start.addingTimeInterval(-Double(buckets - points) * bucket)
            let barWidth = min(Self.widestBar, max(1, Int(slot) - 2))
            for point in series where point.count > 0 {
                let index = (point.start.timeIntervalSince(start) / bucket).rounded()
                let barHeight = max(2, Int(Double(chartHeight - 18) * Double(point.count) / Double(peak)))  // under the peak label
                writer.write("<rect class=\"chart__bar\"")
                writer.attribute("x", Int(index * slot + (slot - Double(barWidth)) / 2))
                writer.attribute("y", chartHeight - barHeight)
                writer.attribute("width", barWidth)
                writer.attribute("height", barHeight)
                writer.write("><title>")
                writer.text("\(label(point.start, bucket)): \(point.count) event\(point.count == 1 ? "" : "s")")
                writer.write("</title></rect>")
            }
            let end = last.start.addingTimeInterval(bucket)
            let keys = ChangeMarkers.renderLines(changes, top: 0, bottom: chartHeight, width: width, x: { at in
                at >= start && at < end ? at.timeIntervalSince(start) / bucket * slot : nil
            }, into: &writer)
            writer.write("<text class=\"chart__label\" x=\"0\" y=\"132\">")
            writer.text(label(start, bucket))
            writer.write("</text><text class=\"chart__label\" x=\"600\" y=\"132\" text-anchor=\"end\">")
            writer.text(label(last.start, bucket))
            writer.write("</text>")
            peakLabel("\(peak)/\(unit)", clearOf: keys, into: &writer)
        }
        writer.write("</svg>")
        ChangeMarkers.renderList(changes, into: &writer)
        writer.write("</figure>")
    }

    /// The scale's label at the top left, where the change markers' keys share its row: at the top
    /// right when a key lies under it there, and between the axis' times when keys lie at both.
    private static func peakLabel(_ text: String, clearOf keys: [ClosedRange<Int>], into writer: inout HTMLWriter) {
        let span = 7 * text.count + 4
        let clear = { (place: ClosedRange<Int>) in !keys.contains { $0.overlaps(place) } }
        let (x, y, anchor) = clear(0...span) ? (0, 12, "start")
            : clear((width - span)...width) ? (width, 12, "end") : (width / 2, 132, "middle")
        writer.write("<text class=\"chart__label\" data-peak")
        writer.attribute("x", x)
        writer.attribute("y", y)
        writer.attribute("text-anchor", anchor)
        writer.write(">")
        writer.text(text)
        writer.write("</text>")
    }

    static func unitName(_ bucket: TimeInterval) -> String {
        switch bucket {
        case 60: "minute"
        case 3_600: "hour"
        case 86_400: "day"
        case ..<3_600: "\(Int(bucket / 60)) minutes"
        case ..<86_400: "\(Int(bucket / 3_600)) hours"
        default: "\(Int(bucket / 86_400)) days"
        }
    }

    /// UTC `MM-DD HH:MM` for buckets under a day, `YYYY-MM-DD` for longer ones.
    static func label(_ date: Date, _ bucket: TimeInterval) -> String {
        let stamp = ReportTimestamp.string(from: date)
        return bucket < 86_400 ? String(stamp.dropFirst(5).prefix(11)).replacing("T", with: " ")
            : String(stamp.prefix(10))
    }
}
