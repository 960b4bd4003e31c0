import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// Every instance's report lines from the database, oldest first, a page at a time: the lines as
/// each instance's log holds them, ordered by time, then instance and position. Pages are time
/// windows (so the BRIN index on time finds them), widened while they come back thin and
/// narrowed when full, and resumed after the last row when a window holds more than a page.
/// Lines shipped after the reader started, with later times than its start, are not included.
public struct DatabaseLines: Sendable {
    let reports: DatabaseReports
    /// The rows per query.
    let pageRows: Int
    /// The window's start (ms since 1970) and width.
    private var fromMs: Int64
    private var widthMs: Int64 = 60_000
    private let endMs: Int64
    /// The current window's end while it is read a page at a time (it holds still meanwhile).
    private var windowEndMs: Int64?
    /// The last row sent within the current window, if any: (time, instance, segment, offset).
    private var after: (time: String, instance: String, segment: String, offset: String)?

    /// Lines at or after `since` (all with nil) up to now.
    public init(_ reports: DatabaseReports, since: Date?, pageRows: Int = 2000) {
        self.reports = reports
        self.pageRows = pageRows
        fromMs = since.map(ReportTimestamp.milliseconds) ?? 0
        endMs = ReportTimestamp.milliseconds(Date()) + 1
    }

    /// The next lines (newline-terminated), or nil at the end; throws when the database cannot answer.
    public mutating func next() throws -> [UInt8]? {
        while fromMs < endMs {
            let toMs = windowEndMs ?? min(endMs, fromMs + widthMs)
            let rows = try reports.withConnection { connection in
                try connection.query(Self.sql, [
                    ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: fromMs)),
                    ReportTimestamp.string(from: ReportTimestamp.date(milliseconds: toMs)),
                    after?.time, after?.instance, after?.segment, after?.offset, "\(pageRows)",
                ])
            }
            if rows.count == pageRows, let last = rows.rows.last {
                after = (last[0] ?? "", last[1] ?? "", last[2] ?? "", last[3] ?? "")
                windowEndMs = toMs
                widthMs = max(1, widthMs / 2)
            } else {
                after = nil
                windowEndMs = nil
                fromMs = toMs
                if rows.count < pageRows / 4 { widthMs = min(widthMs * 4, 366 * 86_400_000) }
            }
            guard !rows.rows.isEmpty else { continue }
            var bytes: [UInt8] = []
            for row in rows.rows { Self.event(row)?.appendJSONLine(to: &bytes) }
            return bytes
        }
        return nil
    }

    /// The event a row holds: time, instance, segment, offset, name, layout, item, visitor, request, properties.
    static func event(_ row: [String?]) -> ReportEvent? {
        guard let time = row[0].flatMap(ReportTimestamp.parse), let name = row[4] else { return nil }
        let json = row[9].flatMap { try? JSONValue(reading: Data($0.utf8)) }?.members ?? [:]
        return ReportEvent(.init(rawValue: name), timestamp: time, layout: row[5], item: row[6], visitor: row[7],
                           request: row[8], properties: json.compactMapValues(\.string))
    }

    static let sql = """
        SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), instance, segment, "offset",
               name, layout, item, visitor, request, properties::text
        FROM report_events
        WHERE time >= $1::timestamptz AND time < $2::timestamptz
          AND ($3::timestamptz IS NULL OR (time, instance, segment, "offset") > ($3::timestamptz, $4, $5, $6::bigint))
        ORDER BY time, instance, segment, "offset" LIMIT $7::int
        """
}
