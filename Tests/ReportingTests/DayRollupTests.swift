import Foundation
import ReportFixtures
import Testing
import TestSupport

@testable import Reporting

/// Closed segments answer whole days from their day rows and whole hours from their hour rows;
/// the figures are those of the minutes, for ranges that start and end mid-day and on days.
@Suite struct DayRollupTests {
    /// Four and a bit days of random events in closed, compressed segments, and the same directory
    /// with its rollups removed: a reader then counts every minute again and keeps them all.
    static func stores(_ directory: TemporaryDirectory) throws -> (days: ReportStore, minutes: ReportStore, events: [ReportEvent]) {
        let events = RandomReportLog.events(26_000, seed: 41, start: dayStart + 37 * 60_000 + 1_234, maxStep: 60_000)
        try ReportLog.write(events, to: directory.path("reports"), segmentBytes: 512 << 10, compressed: true)
        try FileManager.default.copyItem(atPath: directory.path("reports"), toPath: directory.path("minutes"))
        for name in listing(directory.path("minutes")) where name.hasSuffix(SegmentName.rollup) {
            unlink(directory.path("minutes") + "/" + name)
        }
        return (try ReportStore(directory: directory.path("reports")), try ReportStore(directory: directory.path("minutes")), events)
    }

    static func at(_ day: Int, _ minute: Int64 = 0) -> Date {
        ReportTimestamp.date(milliseconds: dayStart + Int64(day) * ReportTimestamp.msPerDay + minute * 60_000)
    }

    @Test func dayAndHourRowsGiveTheMinutesFigures() throws {
        let directory = try TemporaryDirectory("day-rollups")
        defer { directory.remove() }
        let (days, minutes, events) = try Self.stores(directory)
        #expect(days.catalog.segments.count >= 8)
        #expect(days.catalog.segments.allSatisfy { $0.daily != nil && $0.dailyGroups != nil && $0.rollup.groups.isEmpty })
        #expect(minutes.catalog.segments.allSatisfy { $0.daily == nil && !$0.rollup.groups.isEmpty })
        let lastDay = Int(ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(events.last!.timestamp) - dayStart, ReportTimestamp.msPerDay))
        #expect(lastDay >= 4)
        let ranges: [(Date?, Date?)] = [
            (nil, nil),  // everything: open ends
            (Self.at(1), Self.at(3)),  // whole days
            (Self.at(0), Self.at(lastDay + 1)),
            (Self.at(1, 12 * 60 + 34), Self.at(3, 5 * 60 + 17)),  // mid-day to mid-day
            (Self.at(0, 37), Self.at(2)),  // mid-day to a day
            (Self.at(1), Self.at(2, 60 * 13)),  // a day to an hour
            (Self.at(2, 60 * 7 + 1), Self.at(2, 60 * 7 + 59)),  // within an hour
            (Self.at(1, 600), nil),  // open at the end
            (nil, Self.at(2, 61)),  // open at the start
            (Self.at(0), Self.at(30)),  // a month: the series by six hours
            (Self.at(0, 5), Self.at(120)),  // four months: the series by the day
        ]
        for (from, to) in ranges {
            let range = ReportRange(from: from, to: to)
            for filter in [ReportFilter(), ReportFilter(event: "launch"), ReportFilter(layout: "grid"), ReportFilter(item: "m3")] {
                let byDays = days.summary(range, filter: filter)
                let byMinutes = minutes.summary(range, filter: filter)
                #expect(byDays == byMinutes, "\(from.map(ReportTimestamp.string) ?? "…")–\(to.map(ReportTimestamp.string) ?? "…") \(filter)")
                #expect(byDays.total == ReportStoreTests.naive(events, range, filter).0)
                // The series points are each bucket's events (checked against the events themselves).
                let width = Int64(byDays.bucket * 1000)
                var buckets: [Int64: Int] = [:]
                for event in events where filter.matches(event) && range.contains(ms: ReportTimestamp.milliseconds(event.timestamp)) {
                    buckets[ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(event.timestamp), width), default: 0] += 1
                }
                for point in byDays.series {
                    #expect(point.count == buckets[ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(point.start), width)] ?? 0)
                }
            }
            #expect(days.experiments(range) == minutes.experiments(range), "experiments \(String(describing: from))–\(String(describing: to))")
        }
    }

    @Test func aWholeDayIsReadFromItsDayRowsAndPartialHoursFromTheirMinutes() throws {
        let directory = try TemporaryDirectory("day-rollup-pieces")
        defer { directory.remove() }
        let (days, _, _) = try Self.stores(directory)
        let day1 = Int32(ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(Self.at(1)), 60_000))
        let inDay1 = days.catalog.segments.filter { segment in
            ReportTimestamp.floorDiv(segment.rollup.firstMs, ReportTimestamp.msPerDay) == Int64(day1) / 1440
        }
        #expect(inDay1.count >= 2)
        for segment in inDay1 {
            // Whole days: one day row set a segment; by the hour: whole hours; by the minute: minutes.
            #expect(segment.pieces(from: day1, to: day1 + 2880, grain: 1440).map(\.grain) == [1440])
            #expect(segment.pieces(from: day1, to: day1 + 2880, grain: 60).allSatisfy { $0.grain == 60 })
            #expect(segment.pieces(from: day1, to: day1 + 2880, grain: 15).allSatisfy { $0.grain == 1 })
        }
        // A range cutting an hour in the middle of a segment reads that hour's minutes only.
        let middle = inDay1[inDay1.count / 2]
        let first = Int32(ReportTimestamp.floorDiv(middle.rollup.firstMs, 60_000))
        let end = Int32(ReportTimestamp.floorDiv(middle.rollup.lastMs, 60_000) + 1)
        try #require(end - first > 150, "a segment of more than two hours")
        let cut = (first / 60 + 1) * 60 + 17
        let pieces = middle.pieces(from: cut, to: day1 + 2880, grain: 1440)
        #expect(pieces.contains { $0.grain == 1 && $0.from == cut && $0.to == cut + 43 })
        #expect(pieces.contains { $0.grain == 60 })
    }
}
