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
        var cell: Range<Int>
        var firstMs: Int64
        var views: Int64
        var selections: Int64
        var flags: Int64
        var plays: Int64
    }

    /// A line of the batches, where it lies in their bytes: sorted by visitor, experiment and
    /// position, so one visitor's lines lie together, oldest batch first.
    private struct Found {
        var visitor: Int64
        /// The experiment's bytes hashed (FNV-1a), so a visitor's lines sort by experiment without
        /// comparing names but on a tie.
        var experiment: UInt64
        var start: Int
        /// The tab after the experiment, and the one after the visitor.
        var experimentEnd: Int
        var keyEnd: Int
        var end: Int
    }

    /// `VisitorChanges.merge` over the batches' lines, oldest batch first: the earliest exposure
    /// decides the group, segment and day (the earlier batch on a tie, as when merged one at a
    /// time); the counts add up, held at their limits; the flags join. Done here rather than in
    /// SQL, where ordered aggregates cost the fold more than writing the rows; the lines are
    /// sorted rather than hashed (a table of every visitor cost the shipper's process more than
    /// reading its events).
    static func combined(_ batches: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(batches.reduce(0) { $0 + $1.utf8.count + 1 })
        for batch in batches {
            bytes.append(contentsOf: batch.utf8)
            if bytes.last != 10 { bytes.append(10) }
        }
        return bytes.withUnsafeBufferPointer { bytes in
            // experiment, visitor | grp, segment, day | first_ms, views, selections, flags, plays
            var found: [Found] = []
            var start = 0
            while start < bytes.count {
                var tabs = 0, experimentEnd = 0, keyEnd = 0
                var end = start
                while end < bytes.count, bytes[end] != 10 {
                    if bytes[end] == 9 {
                        tabs += 1
                        if tabs == 1 { experimentEnd = end } else if tabs == 2 { keyEnd = end }
                    }
                    end += 1
                }
                if tabs == 9 {
                    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                    for index in start..<experimentEnd { hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
                    found.append(Found(visitor: number(bytes, experimentEnd + 1, keyEnd), experiment: hash, start: start,
                                       experimentEnd: experimentEnd, keyEnd: keyEnd, end: end))
                }
                start = end + 1
            }
            /// The names' order (bytewise, then the shorter first); 0 when equal.
            func order(_ a: Found, _ b: Found) -> Int {
                let (left, right) = (a.experimentEnd - a.start, b.experimentEnd - b.start)
                for offset in 0..<min(left, right) where bytes[a.start + offset] != bytes[b.start + offset] {
                    return bytes[a.start + offset] < bytes[b.start + offset] ? -1 : 1
                }
                return (left - right).signum()
            }
            found.sort {
                if $0.visitor != $1.visitor { return $0.visitor < $1.visitor }
                if $0.experiment != $1.experiment { return $0.experiment < $1.experiment }
                let names = order($0, $1)
                return names != 0 ? names < 0 : $0.start < $1.start
            }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count / max(batches.count, 1) + found.count * 8)
            var index = 0
            while index < found.count {
                let first = found[index]
                var next = index + 1
                while next < found.count, found[next].visitor == first.visitor, found[next].experiment == first.experiment,
                      order(found[next], first) == 0 { next += 1 }
                defer { index = next }
                guard next > index + 1 else {
                    // Seen in one batch only: the line as it was.
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[first.start...first.end]))
                    continue
                }
                var merged = line(bytes, first)
                for other in found[(index + 1)..<next] {
                    let line = line(bytes, other)
                    if line.firstMs < merged.firstMs {
                        merged.cell = line.cell
                        merged.firstMs = line.firstMs
                    }
                    merged.views = min(merged.views + line.views, Int64(UInt32.max))
                    merged.selections = min(merged.selections + line.selections, Int64(UInt16.max))
                    merged.flags |= line.flags
                    merged.plays = min(merged.plays + line.plays, Int64(UInt32.max))
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[first.start...first.keyEnd]))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[merged.cell]))
                var numbers = CopyRows()
                for value in [merged.firstMs, merged.views, merged.selections, merged.flags, merged.plays] {
                    numbers.tab()
                    numbers.number(value)
                }
                out.append(contentsOf: numbers.bytes)
                out.append(10)
            }
            return out
        }
    }

    /// The numbers and cell of a line the first pass found.
    private static func line(_ bytes: UnsafeBufferPointer<UInt8>, _ found: Found) -> Line {
        // The tabs after the visitor: before segment, day, first_ms, views, selections, flags, plays.
        var tabs: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tabs) { raw in
            let tabs = raw.bindMemory(to: Int.self)
            var count = 0
            for index in (found.keyEnd + 1)..<found.end where bytes[index] == 9 {
                tabs[count] = index
                count += 1
            }
        }
        return Line(cell: (found.keyEnd + 1)..<tabs.2, firstMs: number(bytes, tabs.2 + 1, tabs.3),
                    views: number(bytes, tabs.3 + 1, tabs.4), selections: number(bytes, tabs.4 + 1, tabs.5),
                    flags: number(bytes, tabs.5 + 1, tabs.6), plays: number(bytes, tabs.6 + 1, found.end))
    }

    /// The decimal integer in `bytes[from..<to]`.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int64 {
        var value: Int64 = 0
        let negative = from < to && bytes[from] == UInt8(ascii: "-")
        for index in (negative ? from + 1 : from)..<to { value = value &* 10 &+ Int64(bytes[index] &- 48) }
        return negative ? -value : value
    }
}
