#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// `/reports` read from every instance's events, by the local store's rules (whole minutes, the
/// same buckets, the same visitor budget), so each instance tells the same story. Counts without
/// an item or visitor filter come from `report_minutes`; the rest reads `report_events` through
/// its indexes (migration 5), never the whole table.
extension DatabaseReports {
    /// The first and last minute of every instance's events, or nil when there are none.
    public func extent() throws -> (first: Date, last: Date)? {
        let rows = try withConnection { connection in
            try connection.query("""
                SELECT to_char(min(minute) AT TIME ZONE 'UTC', \(Self.utc)), to_char(max(minute) AT TIME ZONE 'UTC', \(Self.utc))
                FROM report_minutes
                """)
        }
        guard let first = rows.rows.first?[0].flatMap(ReportTimestamp.parse),
              let last = rows.rows.first?[1].flatMap(ReportTimestamp.parse) else { return nil }
        return (first, last)
    }

    /// Totals, per event and layout, a series and distinct visitors over `range`, as
    /// `ReportStore.summary` gives them for one log. Visitors are counted exactly (every filter
    /// followed) up to `visitorBudget` matching events; beyond, not counted. `dropped` is left 0:
    /// each instance knows only its own losses. With `cut`, only the events before it count.
    public func summary(_ range: ReportRange, filter: ReportFilter, extent: (first: Date, last: Date)?,
                        before cut: Date? = nil, visitorBudget: Int = ReportStore.visitorLineBudget) throws -> ReportSummary {
        var summary = ReportSummary()
        summary.from = range.fromMinute.map { ReportTimestamp.date(milliseconds: $0 * 60_000) }
        summary.to = range.toMinute.map { ReportTimestamp.date(milliseconds: $0 * 60_000) }
        let minute = { (date: Date) in ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(date), 60_000) }
        guard let firstMinute = range.fromMinute ?? extent.map({ minute($0.first) }),
              let endMinute = range.toMinute ?? extent.map({ minute($0.last) + 1 }), endMinute > firstMinute else {
            summary.visitorsExact = true
            return summary
        }
        // The local store counts items by the hour; the same buckets keep the pages alike.
        let smallest: Int64 = filter.item == nil ? 1 : 60
        let bucket = ReportStore.bucketMinutes.first { $0 >= smallest && (endMinute - firstMinute) / $0 <= 300 } ?? 10080
        let base = ReportTimestamp.floorDiv(firstMinute, bucket) * bucket
        var series = [Int](repeating: 0, count: Int((endMinute - 1 - base) / bucket + 1))
        summary.bucket = TimeInterval(bucket * 60)
        let counted = ReportRange(from: ReportTimestamp.date(milliseconds: firstMinute * 60_000),
                                  to: ReportTimestamp.date(milliseconds: endMinute * 60_000))
        let fromEvents = filter.item != nil || filter.visitor != nil || filter.since != nil
        let cutStamp = cut.map(ReportTimestamp.string(from:))
        // Whole minutes from `report_minutes`; the minute the cut falls in, up to it, from the events.
        let cutMinute = cut.map { EventConditions.stamp(minute: minute($0)) }
        let rows = try withConnection { connection in
            func counts(fromEvents: Bool, _ conditions: EventConditions) throws -> [[String?]] {
                let at = conditions.parameters.count
                let sql = fromEvents
                    ? """
                      SELECT (floor(extract(epoch FROM time) / 60)::bigint - $\(at + 1)::bigint) / $\(at + 2)::bigint, name,
                             coalesce(layout, ''), count(*) FROM report_events WHERE \(conditions.sql) GROUP BY 1, 2, 3
                      """
                    : """
                      SELECT (extract(epoch FROM minute)::bigint / 60 - $\(at + 1)::bigint) / $\(at + 2)::bigint, name, layout,
                             sum(events)::bigint FROM report_minutes WHERE \(conditions.sql) GROUP BY 1, 2, 3
                      """
                return try connection.query(sql, conditions.parameters + ["\(base)", "\(bucket)"]).rows
            }
            var events = EventConditions(counted, filter)
            guard !fromEvents else {
                if let cutStamp { events.add("time < ?::timestamptz", cutStamp) }
                return try counts(fromEvents: true, events)
            }
            var minutes = Self.minuteConditions(counted, filter)
            guard let cutStamp, let cutMinute else { return try counts(fromEvents: false, minutes) }
            minutes.add("minute < ?::timestamptz", cutMinute)
            events.add("time >= ?::timestamptz AND time < ?::timestamptz", cutMinute, cutStamp)
            return try counts(fromEvents: false, minutes) + counts(fromEvents: true, events)
        }
        for row in rows {
            guard let index = row[0].flatMap({ Int($0) }), let name = row[1], let count = row[3].flatMap({ Int($0) }) else { continue }
            summary.total += count
            summary.byEvent[name, default: 0] += count
            if let layout = row[2], !layout.isEmpty { summary.byLayout[layout, default: 0] += count }
            if series.indices.contains(index) { series[index] += count }
        }
        summary.series = series.enumerated().map { index, count in
            (ReportTimestamp.date(milliseconds: (base + Int64(index) * bucket) * 60_000), count)
        }
        summary.visitorsExact = true
        if summary.total > visitorBudget {
            summary.visitorsCounted = false
        } else if summary.total > 0 {
            var conditions = EventConditions(counted, filter)
            if let cutStamp { conditions.add("time < ?::timestamptz", cutStamp) }
            summary.visitors = try withConnection { connection in
                try connection.query("""
                    SELECT count(DISTINCT visitor) FROM report_events WHERE \(conditions.sql) AND visitor <> ''
                    """, conditions.parameters)
            }.rows.first?[0].flatMap { Int($0) } ?? 0
        }
        return summary
    }

    /// The newest events in `range` matching `filter`, before `before` (nil: the newest), in the
    /// shared order; `next` goes on with older ones.
    public func events(_ range: ReportRange, filter: ReportFilter, before: DatabaseEventKey?,
                       limit: Int) throws -> (events: [ReportEvent], next: DatabaseEventKey?) {
        var conditions = EventConditions(range, filter)
        if let before {
            // Bounded by time first, so the index on time finds the page; ties by the names' bytes.
            conditions.add("time <= ?::timestamptz", before.time)
            conditions.add("(time < ?::timestamptz OR (instance COLLATE \"C\", segment COLLATE \"C\", \"offset\") < (?::text COLLATE \"C\", ?::text COLLATE \"C\", ?::bigint))",
                           before.time, before.instance, before.segment, "\(before.offset)")
        }
        let rows = try withConnection { connection in
            try connection.query("""
                SELECT to_char(time AT TIME ZONE 'UTC', \(Self.utc)), instance, segment, "offset",
                       name, layout, item, visitor, request, properties::text
                FROM report_events WHERE \(conditions.sql)
                ORDER BY time DESC, instance COLLATE "C" DESC, segment COLLATE "C" DESC, "offset" DESC LIMIT \(limit + 1)
                """, conditions.parameters)
        }
        let page = rows.rows.prefix(limit)
        let next = rows.count > limit ? page.last.flatMap(DatabaseEvent.init(row:))?.key : nil
        return (page.compactMap(DatabaseLines.event), next)
    }

    /// The ids in `range` that start with `prefix`, at most `limit` of them.
    public func visitors(startingWith prefix: String, in range: ReportRange, limit: Int) throws -> [String] {
        var conditions = EventConditions(range, ReportFilter())
        // Every id that starts so sorts from the prefix up to the prefix followed by U+10FFFF.
        conditions.add("visitor COLLATE \"C\" >= ? AND visitor COLLATE \"C\" < ?", prefix, prefix + "\u{10FFFF}")
        return try withConnection { connection in
            try connection.query("""
                SELECT DISTINCT visitor COLLATE "C" FROM report_events WHERE \(conditions.sql) ORDER BY 1 LIMIT \(limit)
                """, conditions.parameters)
        }.rows.compactMap { $0[0] }
    }

    /// The toggles' and the catalogue's changes (`toggles_changed`, `content_changed`) in
    /// `range`, oldest first, at most `limit`.
    public func changes(_ range: ReportRange, limit: Int) throws -> [ReportEvent] {
        let conditions = EventConditions(range, ReportFilter())
        // Written as `report_events_changes`' predicate is, so the planner takes that index.
        return try withConnection { connection in
            try connection.query("""
                SELECT to_char(time AT TIME ZONE 'UTC', \(Self.utc)), instance, segment, "offset",
                       name, layout, item, visitor, request, properties::text
                FROM report_events WHERE name IN ('toggles_changed', 'content_changed') AND \(conditions.sql)
                ORDER BY time LIMIT \(limit)
                """, conditions.parameters)
        }.rows.compactMap(DatabaseLines.event)
    }

    /// `report_minutes`' conditions for a range and an event or layout filter.
    private static func minuteConditions(_ range: ReportRange, _ filter: ReportFilter) -> EventConditions {
        var conditions = EventConditions(ReportRange(), ReportFilter())
        if let from = range.fromMinute { conditions.add("minute >= ?::timestamptz", EventConditions.stamp(minute: from)) }
        if let to = range.toMinute { conditions.add("minute < ?::timestamptz", EventConditions.stamp(minute: to)) }
        if let event = filter.event { conditions.add("name = ?", event) }
        if let layout = filter.layout { conditions.add("layout = ?", layout) }
        return conditions
    }

    static let utc = "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'"
}
