import Foundation
import Testing
import TestSupport

/// The chart of `/reports` ends at now, or at the range's end: "Everything" over a log of the
/// last few minutes ran an hour into the future, its bars squashed to the left.
@Suite struct ReportsChartAxisTests {
    static let publicFolder = ServerProcess.publicFolder

    /// The chart's last label (`MM-DD HH:MM`, UTC), read as a time of `year`.
    static func axisEnd(_ html: HTMLElement, year: Int) throws -> Date {
        let label = try #require(html.first { $0.hasClass("chart__label") && $0["text-anchor"] == "end" }?.text)
        return try #require(Self.time("\(year)-\(label.replacingOccurrences(of: " ", with: "T")):00.000Z"), "\(label)")
    }

    @Test func everythingEndsAtNowAndARangeAtItsEnd() throws {
        let folder = try TemporaryDirectory("reports-chart-axis")
        let start = Date()
        // Ten events, one a minute, from 20 to 11 minutes ago.
        let lines = (0..<10).map { index in
            let time = Self.stamp(start.addingTimeInterval(Double(-20 * 60 + index * 60)))
            return #"{"timestamp":"\#(time)","event":"launch","layout":"grid","visitor":"v\#(index)"}"#
        }
        let seed = folder.path("seed.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        let log = folder.path("reports")
        let imported = try ServerProcess(arguments: ["reports", "import", seed, "--report-log", log], waitForListening: false)
        #expect(imported.waitForExit() == 0)
        let server = try ServerProcess(arguments: ["--port", "0", "--public", Self.publicFolder, "--report-log", log])

        let before = Date()
        let page = try HTMLDocument.parse(try server.client.get("/reports").text)
        let after = Date()
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: before).year!
        let end = try Self.axisEnd(page, year: year)
        // The last bar is the minute of now (a minute's bars: the label is its start).
        #expect(end >= before.addingTimeInterval(-60) && end <= after, "axis ends at \(end), now is \(before)")
        let chart = try #require(page.first { $0.tag == "svg" && $0.hasClass("chart") })
        let bars = chart.all(class: "chart__bar")
        #expect(bars.count == 10)
        // Eleven minutes of nothing after the last event, at the right of the chart.
        let rightmost = try #require(bars.compactMap { Int($0["x"] ?? "") }.max())
        #expect(rightmost < 600 - 10 * 10, "the last bar at x=\(rightmost) of 600")

        let numbers = try #require(try JSONSerialization.jsonObject(with: Data(server.client.get("/reports.json").body)) as? [String: Any])
        let series = try #require(numbers["series"] as? [[String: Any]])
        let lastStart = try #require(series.last?["start"] as? String)
        let last = try #require(Self.time(lastStart))
        #expect(last >= before.addingTimeInterval(-60) && last <= Date(), "series ends at \(last)")
        #expect(numbers["to"] is NSNull, "the range itself stays open")

        // A closed range ends at its end.
        let day = String(Self.stamp(before).prefix(10))
        let ranged = try HTMLDocument.parse(try server.client.get("/reports?from=\(day)&to=\(day)").text)
        let dayEnd = try Self.axisEnd(ranged, year: year)
        #expect(Self.stamp(dayEnd).hasSuffix("T23:55:00.000Z"), "five-minute bars up to the day's end: \(dayEnd)")
    }

    /// A report timestamp (`2026-11-20T10:00:00.000Z`).
    static func stamp(_ date: Date) -> String { formatter.string(from: date) }

    static func time(_ text: String) -> Date? { formatter.date(from: text) }

    static var formatter: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
