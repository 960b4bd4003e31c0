import Foundation
import ScreenKit
import Testing
import TestSupport
@testable import HomeApp
@testable import Reporting

/// The report chart's axis and its change markers, drawn from a series as `/reports` gets it.
@Suite struct EventsChartTests {
    static let hour: TimeInterval = 3_600
    /// 2026-11-29 05:00 UTC.
    static let origin = Date(timeIntervalSince1970: 1_795_928_400)

    static func chart(_ series: [(start: Date, count: Int)], bucket: TimeInterval, from: Date? = nil,
                      changes: [ConfigChange] = []) throws -> HTMLElement {
        var writer = HTMLWriter(capacity: 4_096)
        EventsChart.render(series, bucket: bucket, from: from, changes: changes, into: &writer)
        return try HTMLDocument.parse(String(decoding: writer.finish(), as: UTF8.self))
    }

    static func change(_ version: Int, at: Date) throws -> ConfigChange {
        try #require(ConfigChange(ReportEvent("toggles_changed", timestamp: at, properties: ["version": "\(version)"])))
    }

    static func startLabel(_ chart: HTMLElement) -> String? {
        chart.first { $0.hasClass("chart__label") && $0["x"] == "0" && $0["y"] == "132" }?.text
    }

    /// The last hour by the hour (an item filter's grain) is two bars across the chart, the axis
    /// from the range's start; the whole log is padded before its first point, as before.
    @Test func aRangesAxisStartsAtItsStartAndFewBarsStayNarrow() throws {
        let series = [(start: Self.origin, count: 3), (start: Self.origin.addingTimeInterval(Self.hour), count: 5)]
        let ranged = try Self.chart(series, bucket: Self.hour, from: Self.origin.addingTimeInterval(20 * 60))
        #expect(Self.startLabel(ranged) == "11-29 05:00")
        let bars = ranged.all(class: "chart__bar")
        #expect(bars.count == 2)
        #expect(bars.allSatisfy { Int($0["width"] ?? "") ?? 0 <= EventsChart.widestBar })
        #expect(bars.compactMap { Int($0["x"] ?? "") } == [138, 438], "each in the middle of its half")
        let everything = try Self.chart(series, bucket: Self.hour)
        #expect(Self.startLabel(everything) == "11-26 19:00", "58 hours of padding before the first point")
    }

    /// Two changes a few pixels apart share one label, and a label at the right edge is drawn
    /// leftward of its line, not cut by the chart's edge; each change keeps its own line and title.
    @Test func nearbyMarkersShareALabelAndNoneIsCutAtTheEdge() throws {
        let series = (0..<60).map { (start: Self.origin.addingTimeInterval(Double($0) * 60), count: 1) }
        let end = Self.origin.addingTimeInterval(59 * 60)
        let chart = try Self.chart(series, bucket: 60, changes: [
            try Self.change(2, at: end), try Self.change(3, at: end.addingTimeInterval(20)),
            try Self.change(4, at: Self.origin.addingTimeInterval(30 * 60)),
        ])
        #expect(chart.all { $0["data-marker"] != nil }.count == 3)
        let keys = chart.all(class: "chart__marker-key")
        #expect(keys.map(\.text) == ["T4", "T2,T3"])
        #expect(keys.map { $0["text-anchor"] } == ["middle", "end"])
    }
}
