import Foundation
import Reporting
import Synchronization

/// The report database read back for the report pages: counts over every instance and how far
/// each instance has shipped. One connection, opened on first use and reopened after a failure
/// (at most every few seconds, so a database that is down costs a page nothing but a note).
public final class SharedReports: Sendable {
    /// What the pages show from the database.
    public struct Overview: Sendable {
        public var total = 0
        public var byEvent: [String: Int] = [:]
        public var byLayout: [String: Int] = [:]
        public var instances: [Instance] = []
        /// Every instance's events before this time are in the counts (the oldest instance's mark).
        public var completeUntil: Date? { instances.map { $0.completeUntil ?? .distantPast }.min() }
    }

    public struct Instance: Sendable {
        public var name: String
        public var events: Int
        public var shippedAt: Date?
        public var completeUntil: Date?
    }

    private final class Held: @unchecked Sendable {
        // @unchecked: only touched with `state`'s lock held.
        var connection: PostgresConnection?
        var failedAt: Date?
    }

    let url: String
    private let state = Mutex(())
    private let held = Held()
    private let retryAfter: TimeInterval = 5

    public init(url: String) { self.url = url }

    /// Counts matching the filter over every instance; throws when the database cannot answer.
    public func overview(event: String? = nil, layout: String? = nil, item: String? = nil,
                         visitor: String? = nil) throws -> Overview {
        try withConnection { try query($0, event: event, layout: layout, item: item, visitor: visitor) }
    }

    /// Runs `body` on the held connection, opening it first if needed; a failure that leaves the
    /// connection unusable drops it and holds off reconnecting for `retryAfter`.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try state.withLock { _ in
            if held.connection?.isUsable != true {
                held.connection = nil
                if let failedAt = held.failedAt, Date().timeIntervalSince(failedAt) < retryAfter {
                    throw PostgresError(.unavailable, message: "the report database was unreachable moments ago")
                }
                do {
                    held.connection = try PostgresConnection(url: url, applicationName: "dynamic-home reports")
                    held.failedAt = nil
                } catch {
                    held.failedAt = Date()
                    throw error
                }
            }
            do {
                return try body(held.connection!)
            } catch {
                if held.connection?.isUsable != true { held.connection = nil; held.failedAt = Date() }
                throw error
            }
        }
    }

    private func query(_ connection: PostgresConnection, event: String?, layout: String?, item: String?,
                       visitor: String?) throws -> Overview {
        var overview = Overview()
        // The per-minute counts answer event and layout filters; item and visitor need the events.
        let counts = item == nil && visitor == nil
            ? try connection.query("""
                SELECT name, layout, sum(events)::bigint AS n FROM report_minutes
                WHERE ($1::text IS NULL OR name = $1) AND ($2::text IS NULL OR layout = $2) GROUP BY 1, 2
                """, [event, layout])
            : try connection.query("""
                SELECT name, coalesce(layout, '') AS layout, count(*) AS n FROM report_events
                WHERE ($1::text IS NULL OR name = $1) AND ($2::text IS NULL OR layout = $2)
                  AND ($3::text IS NULL OR item = $3) AND ($4::text IS NULL OR visitor = $4) GROUP BY 1, 2
                """, [event, layout, item, visitor])
        for row in counts.rows {
            let name = row[0] ?? "", layout = row[1] ?? "", count = Int(row[2] ?? "") ?? 0
            overview.total += count
            overview.byEvent[name, default: 0] += count
            if !layout.isEmpty { overview.byLayout[layout, default: 0] += count }
        }
        let utc = "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'"
        let instances = try connection.query("""
            SELECT instance, events, to_char(shipped_at AT TIME ZONE 'UTC', \(utc)) AS shipped,
                   to_char(complete_until AT TIME ZONE 'UTC', \(utc)) AS complete
            FROM report_positions ORDER BY instance
            """)
        overview.instances = instances.rows.map { row in
            Instance(name: row[0] ?? "", events: Int(row[1] ?? "") ?? 0,
                     shippedAt: row[2].flatMap(ReportTimestamp.parse), completeUntil: row[3].flatMap(ReportTimestamp.parse))
        }
        return overview
    }
}
