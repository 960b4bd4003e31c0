#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The report database read back for the report pages: every instance's events and how far
/// each instance has shipped. One connection, opened on first use and reopened after a failure
/// (at most every few seconds, so a database that is down costs a page nothing but a note).
public final class DatabaseReports: Sendable {
    public struct Instance: Sendable {
        public var name: String
        public var events: Int
        public var shippedAt: Date?
        public var completeUntil: Date?
    }

    /// Every instance's events before this time are in the database (the oldest instance's
    /// mark); nil when an instance has none complete yet, or there is no instance.
    public static func completeUntil(_ instances: [Instance]) -> Date? {
        guard !instances.isEmpty, instances.allSatisfy({ $0.completeUntil != nil }) else { return nil }
        return instances.compactMap(\.completeUntil).min()
    }

    let url: String
    private let held: HeldConnection

    public init(url: String) {
        self.url = url
        // Migrated on connecting, as every part does: on a new database the first to connect makes
        // the schema, and no reader meets a table that is not there yet.
        held = HeldConnection(url: url, applicationName: "dynamic-home reports", retryAfter: 5,
                              unreachable: "the report database was unreachable moments ago", brokenUseFails: true,
                              prepare: { try ReportSchema.migrate($0) })
    }

    /// How far each instance has shipped; throws when the database cannot answer.
    public func instances() throws -> [Instance] {
        let utc = Self.utc
        let rows = try withConnection { connection in
            try connection.query("""
                SELECT instance, events, to_char(shipped_at AT TIME ZONE 'UTC', \(utc)) AS shipped,
                       to_char(complete_until AT TIME ZONE 'UTC', \(utc)) AS complete
                FROM report_positions ORDER BY instance
                """)
        }
        return rows.rows.map { row in
            Instance(name: row[0] ?? "", events: Int(row[1] ?? "") ?? 0,
                     shippedAt: row[2].flatMap(ReportTimestamp.parse), completeUntil: row[3].flatMap(ReportTimestamp.parse))
        }
    }

    /// Runs `body` on the held connection, opening it first if needed; a failure that leaves the
    /// connection unusable drops it and holds off reconnecting for a few seconds.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try held.with(failFast: true, body)
    }
}
