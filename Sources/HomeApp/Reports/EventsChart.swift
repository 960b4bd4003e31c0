import Foundation
import Reporting
import ScreenKit

/// Events per minute over the last hour, as an inline SVG bar chart (no script, no style attribute).
enum EventsChart {
    static let width = 600, height = 140, chartHeight = 110

    static func render(_ minutes: [MinuteCount], into writer: inout HTMLWriter) {
        let peak = max(1, minutes.map(\.count).max() ?? 0)
        let total = minutes.reduce(0) { $0 + $1.count }
        writer.write("<figure class=\"reports__chart\"><figcaption>Events per minute, last hour</figcaption>")
        writer.write("<svg class=\"chart\" viewBox=\"0 0 600 140\" role=\"img\"")
        writer.attribute("aria-label", "\(total) events in the last hour; at most \(peak) in one minute")
        writer.write("><line class=\"chart__axis\" x1=\"0\" y1=\"110\" x2=\"600\" y2=\"110\"/>")
        let slot = Double(width) / Double(max(1, minutes.count))
        for (index, minute) in minutes.enumerated() where minute.count > 0 {
            let barHeight = max(2, Int(Double(chartHeight - 6) * Double(minute.count) / Double(peak)))
            writer.write("<rect class=\"chart__bar\"")
            writer.attribute("x", Int(Double(index) * slot + 1))
            writer.attribute("y", chartHeight - barHeight)
            writer.attribute("width", max(1, Int(slot) - 2))
            writer.attribute("height", barHeight)
            writer.write("><title>")
            writer.text("\(clock(minute.start)): \(minute.count) event\(minute.count == 1 ? "" : "s")")
            writer.write("</title></rect>")
        }
        if let first = minutes.first, let last = minutes.last {
            writer.write("<text class=\"chart__label\" x=\"0\" y=\"132\">")
            writer.text(clock(first.start))
            writer.write("</text><text class=\"chart__label\" x=\"600\" y=\"132\" text-anchor=\"end\">")
            writer.text(clock(last.start))
            writer.write("</text><text class=\"chart__label\" x=\"0\" y=\"12\">")
            writer.write(peak)
            writer.write("/min</text>")
        }
        writer.write("</svg></figure>")
    }

    /// `HH:MM` UTC, from the report timestamp format.
    private static func clock(_ date: Date) -> String {
        String(ReportTimestamp.string(from: date).dropFirst(11).prefix(5))
    }
}
