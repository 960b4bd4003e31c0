#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The counts of `/reports` and `/reports.json` with a series of at most `maximumPoints`: the
/// store's widest bucket is a week, so `from=0000-01-01&to=9999-12-31` gave 521,776 points
/// (24.5 MB of JSON, a 4 MB array before that) for a log of a few days.
enum SeriesBound {
    static let maximumPoints = 1500

    /// The store's summary over `range`, its series bounded. A range longer than the widest
    /// buckets allow is counted over the part the log covers (no event lies outside it, so the
    /// totals are the same); adjacent points are then added together until few enough are left.
    static func summary(_ store: ReportStore, _ range: ReportRange, filter: ReportFilter, now: Date = Date()) -> ReportSummary {
        summary(extent: store.extent, range, now: now) { store.summary($0, filter: filter) }
    }

    /// The same for any log whose first and last event times are `extent`: `count` gives the
    /// summary of the range to count (every instance's, from the report database).
    static func summary(extent: (first: Date, last: Date)?, _ range: ReportRange, now: Date = Date(),
                        count: (ReportRange) throws -> ReportSummary) rethrows -> ReportSummary {
        var summary = try count(counted(closed(range, extent: extent, now: now), extent: extent, now: now))
        summary.from = range.from.map(wholeMinute)
        summary.to = range.to.map(wholeMinute)
        return capped(summary)
    }

    /// `range` with an open end closed at now (the minute after it), or after the log's last event
    /// when that is later: the series then runs to now, and a chart of "Everything" ends there,
    /// not at the last event nor an hour past it.
    static func closed(_ range: ReportRange, extent: (first: Date, last: Date)?, now: Date) -> ReportRange {
        guard range.to == nil else { return range }
        let last = max(now, extent?.last ?? now)
        return ReportRange(from: range.from, to: wholeMinute(last).addingTimeInterval(60))
    }

    /// `range`, or when it spans more than `maximumPoints` weeks, its part from the log's first
    /// event to its last (an empty range when the log has none there).
    static func counted(_ range: ReportRange, extent: (first: Date, last: Date)?, now: Date) -> ReportRange {
        guard range.from != nil || range.to != nil else { return range }
        let first = extent.map { wholeMinute($0.first) } ?? now
        let end = extent.map { wholeMinute($0.last).addingTimeInterval(60) } ?? now
        // What the store would span: an open end stops at the log's first or last event.
        guard (range.to ?? end).timeIntervalSince(range.from ?? first) > Double(maximumPoints) * 7 * 86_400 else { return range }
        guard extent != nil else { return ReportRange(from: now, to: now) }
        let start = max(range.from ?? first, first), stop = min(range.to ?? end, end)
        return start < stop ? ReportRange(from: start, to: stop) : ReportRange(from: now, to: now)
    }

    /// Adds adjacent points together, as few at a time as leave at most `maximumPoints`; the
    /// bucket widens by as much.
    static func capped(_ summary: ReportSummary) -> ReportSummary {
        guard summary.series.count > maximumPoints else { return summary }
        let merge = (summary.series.count + maximumPoints - 1) / maximumPoints
        var capped = summary
        capped.series = stride(from: 0, to: summary.series.count, by: merge).map { start in
            let points = summary.series[start..<min(start + merge, summary.series.count)]
            return (points.first!.start, points.reduce(0) { $0 + $1.count })
        }
        capped.bucket = summary.bucket * Double(merge)
        return capped
    }

    private static func wholeMinute(_ date: Date) -> Date {
        ReportTimestamp.date(milliseconds: ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(date), 60_000) * 60_000)
    }
}
