#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// Every instance's rows of some events (by name), optionally of some visitors alone, from a time
/// on, in the shared order (time, instance, segment, offset), a page at a time: what an instance
/// reads back of the others' viewing (a visitor it does not hold, its index at start, the plays
/// of the statistics' windows). Pages are keyed, so a read of millions of rows holds none of them.
public struct DatabaseEventsNamed: Sendable {
    let reports: DatabaseReports
    let pageRows: Int
    private let names: String
    private let visitors: String?
    private let until: String
    private var after: DatabaseEventKey

    /// Rows of `names` (of `visitors` when given) whose time is at least `from` and before `until`.
    public init(_ reports: DatabaseReports, names: [String], visitors: [String]? = nil, from: Date, until: Date,
                pageRows: Int = 5000) {
        self.reports = reports
        self.names = PostgresArray.text(names)
        self.visitors = visitors.map(PostgresArray.text)
        // Within the years a timestamp is written in: `distantPast` and `distantFuture` are not.
        self.until = ReportTimestamp.string(from: min(until, Self.latest))
        after = .before(ReportTimestamp.string(from: max(from, Date(timeIntervalSince1970: 0))))
        self.pageRows = pageRows
    }

    /// The next rows, or nil at the end; throws when the database cannot answer.
    public mutating func next() throws -> [DatabaseEvent]? {
        let key = after
        let parameters = [key.time, key.instance, key.segment, "\(key.offset)", until, "\(pageRows)", names, visitors]
        let rows = try reports.withConnection { connection in try connection.query(Self.sql, parameters) }
        guard let last = rows.rows.last else { return nil }
        after = DatabaseEventKey(time: last[0] ?? key.time, instance: last[1] ?? key.instance,
                                 segment: last[2] ?? key.segment, offset: last[3].flatMap { Int64($0) } ?? key.offset)
        return rows.rows.compactMap(DatabaseEvent.init(row:))
    }

    private static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    static let sql = """
        SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), instance, segment, "offset",
               name, layout, item, visitor, request, properties::text
        FROM report_events
        WHERE time >= $1::timestamptz AND time < $5::timestamptz AND name = ANY($7::text[])
          AND ($8::text[] IS NULL OR visitor COLLATE "C" = ANY($8::text[]))
          AND (time, instance COLLATE "C", segment COLLATE "C", "offset") > ($1::timestamptz, $2::text COLLATE "C", $3::text COLLATE "C", $4::bigint)
        ORDER BY time, instance COLLATE "C", segment COLLATE "C", "offset" LIMIT $6::int
        """
}
