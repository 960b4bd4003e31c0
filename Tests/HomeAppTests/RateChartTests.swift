import Foundation
import ScreenKit
import Testing
import TestSupport
@testable import HomeApp
@testable import Reporting

/// The experiments page's rate per day: the change markers' keys keep a row of their own above
/// the points, and on a single day a change's line falls where in the day it came.
@Suite struct RateChartTests {
    /// 2026-11-29 00:00 UTC.
    static let day = Date(timeIntervalSince1970: 1_795_910_400)

    static func chart(days: Int, changeAt: TimeInterval) throws -> HTMLElement {
        let counts = [("control", 0.25), ("grid3", 0.6)].map { name, rate in
            ReportGroupCounts(group: name, layouts: [:], views: 100 * days, selections: Int(rate * 100) * days, visitors: 50,
                              days: (0..<days).map { (day: Self.day.addingTimeInterval(Double($0) * 86_400), views: 100, selections: Int(rate * 100)) })
        }
        let result = ExperimentResult(name: "poster", counts: counts, toggles: nil, displayNames: [:])
        let change = try #require(ConfigChange(ReportEvent("toggles_changed", timestamp: Self.day.addingTimeInterval(changeAt),
                                                           properties: ["version": "2"])))
        var writer = HTMLWriter(capacity: 4_096)
        RateChart.render(result, changes: [change], into: &writer)
        return try HTMLDocument.parse(String(decoding: writer.finish(), as: UTF8.self))
    }

    @Test(arguments: [1, 3])
    func theHighestPointLiesBelowTheMarkersKeys(days: Int) throws {
        let chart = try Self.chart(days: days, changeAt: 14 * 3_600)
        let key = try #require(chart.all(class: "chart__marker-key").first)
        let keyBottom = try #require(Int(key["y"] ?? ""))
        let points = chart.all(class: "chart__point")
        #expect(points.count == 2 * days)
        // A point's circle (r 4) starts below the key's baseline and the label's descent.
        #expect(points.allSatisfy { (Int($0["cy"] ?? "") ?? 0) - 4 > keyBottom + 2 }, "\(points.map { $0["cy"] ?? "" })")
    }

    @Test func onOneDayAChangesLineFallsWhereInTheDayItCame() throws {
        let chart = try Self.chart(days: 1, changeAt: 14.5 * 3_600)
        let line = try #require(chart.all("line").first { $0.parent?.hasClass("chart__marker") == true })
        let points = Set(chart.all(class: "chart__point").compactMap { $0["cx"] })
        #expect(points == ["322"])
        let x = try #require(Double(line["x1"] ?? ""))
        #expect(abs(x - (52 + 540 * 14.5 / 24)) < 1, "at 14:30 of the day, not on the day's point")
    }
}
