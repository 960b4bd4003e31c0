#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The shared stream's rows after a key, up to a time, in key order, a page at a time: what a
/// watcher that reconnects with `Last-Event-ID` missed. The key's time bounds the scan from below
/// (the BRIN index on time finds it); names compare byte by byte, as the key does.
public struct DatabaseEventsAfter: Sendable {
    let reports: DatabaseReports
    let pageRows: Int
    private var after: DatabaseEventKey
    private let until: String

    /// Rows after `after` whose time is at most `until`.
    public init(_ reports: DatabaseReports, after: DatabaseEventKey, until: String, pageRows: Int = 1000) {
        self.reports = reports
        self.after = after
        self.until = until
        self.pageRows = pageRows
    }

    /// The key of the last row read (the one it started after, before the first).
    public var position: DatabaseEventKey { after }

    /// The next rows, or nil at the end; throws when the database cannot answer.
    public mutating func next() throws -> [DatabaseEvent]? {
        let key = after
        let rows = try reports.withConnection { connection in
            try connection.query(Self.sql, [key.time, key.instance, key.segment, "\(key.offset)", until, "\(pageRows)"])
        }
        guard let last = rows.rows.last else { return nil }
        after = DatabaseEventKey(time: last[0] ?? key.time, instance: last[1] ?? key.instance,
                                 segment: last[2] ?? key.segment, offset: last[3].flatMap { Int64($0) } ?? key.offset)
        return rows.rows.compactMap(DatabaseEvent.init(row:))
    }

    static let sql = """
        SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), instance, segment, "offset",
               name, layout, item, visitor, request, properties::text
        FROM report_events
        WHERE time >= $1::timestamptz AND time <= $5::timestamptz
          AND (time, instance COLLATE "C", segment COLLATE "C", "offset") > ($1::timestamptz, $2::text COLLATE "C", $3::text COLLATE "C", $4::bigint)
        ORDER BY time, instance COLLATE "C", segment COLLATE "C", "offset" LIMIT $6::int
        """
}
