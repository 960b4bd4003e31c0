#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// The events table's daily partitions: created ahead as batches need them (in their own short
/// transaction, under the schema lock, so instances never race), dropped whole by retention.
struct EventPartitions {
    static let secondsPerDay: Int64 = 86_400
    /// Days known to exist on this connection's server, so a batch rarely asks.
    private var known = Set<Int64>()

    /// The partition for day `day` (days since 1970-01-01, UTC): `report_events_YYYYMMDD`.
    static func name(day: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(day * secondsPerDay))
        return "report_events_" + String(ReportTimestamp.string(from: date).prefix(10).filter(\.isNumber))
    }

    static func day(ms: Int64) -> Int64 {
        ms >= 0 ? ms / 1000 / secondsPerDay : (ms / 1000 - secondsPerDay + 1) / secondsPerDay
    }

    /// Makes sure a partition exists for every day in `days`.
    mutating func ensure(_ days: Set<Int64>, on connection: PostgresConnection) throws {
        let missing = days.subtracting(known)
        guard !missing.isEmpty else { return }
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock($1)", ["\(ReportSchema.lockKey)"])
            for day in missing.sorted() {
                let from = ReportTimestamp.string(from: Date(timeIntervalSince1970: TimeInterval(day * Self.secondsPerDay)))
                let to = ReportTimestamp.string(from: Date(timeIntervalSince1970: TimeInterval((day + 1) * Self.secondsPerDay)))
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS \(Self.name(day: day)) PARTITION OF report_events
                    FOR VALUES FROM ('\(from)') TO ('\(to)')
                    """)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        known.formUnion(missing)
    }

    /// Drops the partitions (and the rollups) of days before `keepFrom`; returns the names dropped.
    mutating func dropBefore(day keepFrom: Int64, on connection: PostgresConnection) throws -> [String] {
        let rows = try connection.query("""
            SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'report_events'::regclass ORDER BY 1
            """)
        let cutoff = Self.name(day: keepFrom)
        let old = rows.rows.compactMap { $0[0] }.filter { $0.count == cutoff.count && $0 < cutoff }
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock($1)", ["\(ReportSchema.lockKey)"])
            for name in old { try connection.execute("DROP TABLE IF EXISTS \(name)") }
            let from = ReportTimestamp.string(from: Date(timeIntervalSince1970: TimeInterval(keepFrom * Self.secondsPerDay)))
            try connection.query("DELETE FROM report_minutes WHERE minute < $1", [from])
            try connection.query("DELETE FROM report_experiment_counts WHERE start < $1", [from])
            try connection.query("DELETE FROM report_experiment_sketches WHERE start < $1", [from])
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        known = known.filter { $0 >= keepFrom }
        return old
    }

    /// Forgets what it knew (after a reconnect: the server may have been restored or reset).
    mutating func forget() { known = [] }
}
