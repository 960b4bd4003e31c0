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

    /// Thirty changes in an hour, in bursts and spread out: no two labels overlap, every change
    /// keeps its line, and each label names its first key and how many more it stands for.
    @Test func manyChangesInAnHourDrawLabelsThatNeverOverlap() throws {
        let series = (0..<60).map { (start: Self.origin.addingTimeInterval(Double($0) * 60), count: 1) }
        // A burst of 16 a quarter-minute apart from minute 10, then 14 every two and a half minutes from minute 25.
        let burst: [TimeInterval] = (0..<16).map { index in 600 + 15 * TimeInterval(index) }
        let spread: [TimeInterval] = (0..<14).map { index in 1_500 + 150 * TimeInterval(index) }
        let times = burst + spread
        let changes = try times.enumerated().map { try Self.change($0.offset + 2, at: Self.origin.addingTimeInterval($0.element)) }
        let chart = try Self.chart(series, bucket: 60, changes: changes)
        #expect(chart.all { $0["data-marker"] != nil }.count == 30)
        let keys = chart.all(class: "chart__marker-key")
        let spans = keys.compactMap { key -> ClosedRange<Int>? in
            guard let x = Int(key["x"] ?? "") else { return nil }
            let width = 6 * key.text.count
            switch key["text-anchor"] {
            case "start": return x...(x + width)
            case "end": return (x - width)...x
            default: return (x - width / 2)...(x + width / 2)
            }
        }
        #expect(spans.count == keys.count && spans.count > 1)
        for (left, right) in zip(spans, spans.dropFirst()) { #expect(left.upperBound < right.lowerBound, "\(keys.map(\.text)) \(spans)") }
        func stands(for label: String) -> Int {
            let parts = label.components(separatedBy: " +")
            if parts.count == 2, let more = Int(parts[1]) { return more + 1 }
            return label.split(separator: ",").count
        }
        let counted = keys.map { stands(for: $0.text) }.reduce(0, +)
        #expect(counted == 30, "\(keys.map(\.text))")
        #expect(keys.first?.text == "T2 +15", "the burst of 16 as one label")
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

    /// The scale's label shares the top row with the markers' keys: it moves to the right when a
    /// change at the range's start has its key under it, and between the times when both ends have one.
    @Test func thePeakLabelKeepsClearOfTheMarkersKeys() throws {
        let series = (0..<60).map { (start: Self.origin.addingTimeInterval(Double($0) * 60), count: $0 == 30 ? 96 : 1) }
        let end = Self.origin.addingTimeInterval(59 * 60)
        func peak(_ changes: [ConfigChange]) throws -> [String?] {
            let label = try #require(try Self.chart(series, bucket: 60, from: Self.origin, changes: changes).first { $0["data-peak"] != nil })
            #expect(label.text == "96/minute")
            return [label["x"], label["y"], label["text-anchor"]]
        }
        #expect(try peak([]) == ["0", "12", "start"])
        #expect(try peak([try Self.change(4, at: Self.origin.addingTimeInterval(30 * 60))]) == ["0", "12", "start"])
        #expect(try peak([try Self.change(2, at: Self.origin)]) == ["600", "12", "end"])
        #expect(try peak([try Self.change(2, at: Self.origin), try Self.change(3, at: end)]) == ["300", "132", "middle"])
    }
}
