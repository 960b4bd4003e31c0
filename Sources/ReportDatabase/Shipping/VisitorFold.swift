#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Folds the visitors' changes the shippers appended (`report_visitor_changes`, a row per batch)
/// into the visitor rows and sums, many batches in one transaction: a visitor in every batch is
/// written once per fold, not once per batch. Taking the changes (deleted), writing the rows and
/// sums and committing are one transaction, so a fold cut short anywhere leaves the changes
/// waiting for the next, and none is folded twice. One instance folds at a time (the visitors'
/// lock, tried, not waited for: whoever holds it is folding the same rows).
enum VisitorFold {
    /// What a fold did and what it left waiting.
    struct Outcome: Sendable, Equatable {
        /// Batches of changes folded (0 when another instance held the lock, or none waited).
        var folded = 0
        /// Batches still waiting after it, and the age in seconds of the oldest (nil: none).
        var waiting = 0
        var oldestAge: Double?
    }

    /// Folds up to `limit` batches of changes, oldest first, on a connection with
    /// `ExperimentVisitorRows.stagingSQL` made.
    static func run(_ connection: PostgresConnection, limit: Int) throws -> Outcome {
        var outcome = Outcome()
        try connection.execute("BEGIN")
        do {
            let locked = try connection.query("SELECT pg_try_advisory_xact_lock($1) AS locked", ["\(ExperimentVisitorRows.lockKey)"])
            if locked.value(0, "locked") == "t" {
                let taken = try connection.query("""
                    DELETE FROM report_visitor_changes
                    WHERE id IN (SELECT id FROM report_visitor_changes ORDER BY id LIMIT $1)
                    RETURNING id, changes
                    """, ["\(limit)"])
                let batches = taken.rows.compactMap { row in row[0].flatMap { Int64($0) }.map { ($0, row[1] ?? "") } }
                    .sorted { $0.0 < $1.0 }.map(\.1)
                try stage(batches, connection)
                outcome.folded = batches.count
            }
            let left = try connection.query("""
                SELECT count(*) AS waiting, extract(epoch FROM clock_timestamp() - min(appended_at)) AS age
                FROM report_visitor_changes
                """)
            outcome.waiting = left.int(0, "waiting") ?? 0
            outcome.oldestAge = left.value(0, "age").flatMap { Double($0) }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return outcome
    }

    /// Puts the batches' changes into `report_visitor_staging`, a visitor once, and merges them.
    private static func stage(_ batches: [String], _ connection: PostgresConnection) throws {
        guard !batches.isEmpty else { return }
        // One batch names a visitor once: straight in.
        var bytes: [UInt8]? = batches.count == 1 ? Array(batches[0].utf8) : combined(batches)
        try connection.copyIn("COPY report_visitor_staging FROM STDIN") { defer { bytes = nil }; return bytes }
        try ExperimentVisitorRows.merge(connection)
    }

    /// A visitor's line merged over the batches, in the staging table's columns. The text columns
    /// stay as escaped in the lines: they are only compared and written back.
    private struct Line {
        /// Group, segment and day, as written.
        var cell: ArraySlice<UInt8>
        var firstMs: Int64
        var views: Int64
        var selections: Int64
        var flags: Int64
        var plays: Int64
    }

    /// `VisitorChanges.merge` over the batches' lines, oldest batch first: the earliest exposure
    /// decides the group, segment and day (the earlier batch on a tie, as when merged one at a
    /// time); the counts add up, held at their limits; the flags join. Done here rather than in
    /// SQL, where ordered aggregates cost the fold more than writing the rows.
    static func combined(_ batches: [String]) -> [UInt8] {
        var lines: [ArraySlice<UInt8>: Line] = [:]
        var order: [ArraySlice<UInt8>] = []
        for batch in batches {
            let bytes = Array(batch.utf8)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
                defer { start = end + 1 }
                // experiment, visitor | grp, segment, day | first_ms, views, selections, flags, plays
                var tabs: [Int] = []
                tabs.reserveCapacity(9)
                for index in start..<end where bytes[index] == 9 { tabs.append(index) }
                guard tabs.count == 9 else { continue }
                func number(_ field: Int) -> Int64 {
                    let from = field == 0 ? start : tabs[field - 1] + 1, to = field == 9 ? end : tabs[field]
                    var value: Int64 = 0
                    let negative = from < to && bytes[from] == UInt8(ascii: "-")
                    for digit in bytes[(negative ? from + 1 : from)..<to] { value = value &* 10 &+ Int64(digit &- 48) }
                    return negative ? -value : value
                }
                let key = bytes[start..<tabs[1]]
                let line = Line(cell: bytes[(tabs[1] + 1)..<tabs[4]], firstMs: number(5), views: number(6),
                                selections: number(7), flags: number(8), plays: number(9))
                guard var stored = lines[key] else {
                    lines[key] = line
                    order.append(key)
                    continue
                }
                if line.firstMs < stored.firstMs {
                    stored.cell = line.cell
                    stored.firstMs = line.firstMs
                }
                stored.views = min(stored.views + line.views, Int64(UInt32.max))
                stored.selections = min(stored.selections + line.selections, Int64(UInt16.max))
                stored.flags |= line.flags
                stored.plays = min(stored.plays + line.plays, Int64(UInt32.max))
                lines[key] = stored
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(order.count * 64)
        for key in order {
            let line = lines[key]!
            out.append(contentsOf: key)
            out.append(9)
            out.append(contentsOf: line.cell)
            out.append(contentsOf: "\t\(line.firstMs)\t\(line.views)\t\(line.selections)\t\(line.flags)\t\(line.plays)\n".utf8)
        }
        return out
    }
}
