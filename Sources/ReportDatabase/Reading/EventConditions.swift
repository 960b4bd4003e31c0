#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// A `WHERE` clause over `report_events` for a range and filter, with only the conditions that
/// apply, so the planner sees each index it can use; `?` in a condition is the next parameter.
struct EventConditions {
    private(set) var clauses: [String] = []
    private(set) var parameters: [String?] = []

    /// Events in `range` (whole minutes, as the local store counts) matching `filter`.
    init(_ range: ReportRange, _ filter: ReportFilter) {
        if let from = range.fromMinute { add("time >= ?::timestamptz", Self.stamp(minute: from)) }
        if let to = range.toMinute { add("time < ?::timestamptz", Self.stamp(minute: to)) }
        if let since = filter.since { add("time >= ?::timestamptz", ReportTimestamp.string(from: since)) }
        if let event = filter.event { add("name = ?", event) }
        if let layout = filter.layout { add("layout = ?", layout) }
        if let item = filter.item { add("item = ?", item) }
        // In the index's byte order (`report_events_visitor`), which the start of an id needs too.
        if let visitor = filter.visitor { add("visitor COLLATE \"C\" = ?", visitor) }
    }

    mutating func add(_ condition: String, _ values: String?...) {
        var sql = ""
        var next = values.makeIterator()
        for character in condition {
            guard character == "?", let value = next.next() else { sql.append(character); continue }
            parameters.append(value)
            sql += "$\(parameters.count)"
        }
        clauses.append(sql)
    }

    var sql: String { clauses.isEmpty ? "true" : clauses.joined(separator: " AND ") }

    static func stamp(minute: Int64) -> String {
        ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: minute * 60_000))
    }
}
