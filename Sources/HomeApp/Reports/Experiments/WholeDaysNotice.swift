#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting
import ScreenKit

/// Above the experiments, once, for a range whose bound has a time: the tallies keep each visitor's
/// day of first exposure, not its time, so every experiment's visitor figures count those whole UTC
/// days while the home views count the exact range. Says so, and links to the range of whole days,
/// where both agree.
enum WholeDaysNotice {
    static func render(_ model: ExperimentsScreenModel, into writer: inout HTMLWriter) {
        guard let days = ExperimentReportRoutes.exposureDays(model.range.range) else { return }
        let range = model.range.range
        var widened: [String] = []
        var query: [String] = []
        if let from = range.from, days.lowerBound != .min {
            if Self.hasTime(from) { widened.append("from the start of \(day(days.lowerBound)), not \(time(from))") }
            query.append("from=\(day(days.lowerBound))")
        }
        if let to = range.to, days.upperBound != .max {
            if Self.hasTime(to) { widened.append("to the end of \(day(days.upperBound - 1)), not \(time(to))") }
            query.append("to=\(day(days.upperBound - 1))")
        }
        guard !widened.isEmpty else { return }
        if model.segment != .all { query.append("segment=\(model.segment.name)") }
        if model.test != .sequential { query.append("test=\(model.test.rawValue)") }
        writer.write("<p class=\"experiment__power\" data-whole-days>")
        writer.text("The visitor figures below count whole UTC days of first exposure, \(widened.joined(separator: ", and ")): "
                    + "they take in visitors first exposed outside the times asked, while the home views count the exact "
                    + "range. ")
        writer.write("<a")
        writer.attribute("href", "/reports/experiments?" + query.joined(separator: "&"))
        writer.write(">Show whole days for both</a></p>")
    }

    private static func hasTime(_ date: Date) -> Bool { date.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) != 0 }

    private static func day(_ day: Int32) -> String {
        String(ReportTimestamp.string(from: Date(timeIntervalSince1970: Double(day) * 86_400)).prefix(10))
    }

    /// `14:05:00 UTC`, with milliseconds when it has them.
    private static func time(_ date: Date) -> String {
        let stamp = ReportTimestamp.string(from: date).dropLast().dropFirst(11)
        return (stamp.hasSuffix(".000") ? String(stamp.dropLast(4)) : String(stamp)) + " UTC"
    }
}
