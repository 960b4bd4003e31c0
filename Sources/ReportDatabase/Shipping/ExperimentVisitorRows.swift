import Reporting

/// The experiments' exact visitor figures in the database: a row per experiment and visitor
/// (`report_experiment_visitors`: group, segment, day and time of first exposure, views,
/// selections, flags, plays) and the sums per experiment, group, segment and day of first exposure
/// (`report_experiment_sums`), so the page reads a few sums and never the events. The shipping
/// transaction only appends the batch's visitors (`VisitorChanges`) as one row of
/// `report_visitor_changes`; `VisitorFold` merges many batches' at once, set-based: copied into a
/// staging table, one statement adds each visitor's change of sums to their cells and one merges
/// them into the stored rows. Instances take turns (a transaction lock), so two never merge the same
/// visitor at once.
enum ExperimentVisitorRows {
    /// The sums' columns, in `VisitorSums`'s field order.
    static let sumColumns = ["visitors", "converting", "converting_long", "converting_short", "converting_stream", "selections",
                             "selection_squares", "views", "view_squares", "view_selection_products", "erroring", "playing",
                             "plays", "play_squares"]

    /// `VisitorRecord.sums` in SQL, over a visitor's row `c` (`views`, `selections`, `flags`, `plays`), in
    /// `sumColumns`'s order: what one visitor adds to their cell. Kept beside the Swift one by the
    /// tests that compare the database's sums with a recomputation from the raw events.
    static let sumExpressions = [
        "1",
        "(c.selections > 0)::int",
        "(c.flags & \(VisitorRecord.long) <> 0)::int",
        "(c.flags & \(VisitorRecord.short) <> 0)::int",
        "(c.flags & \(VisitorRecord.stream) <> 0)::int",
        "c.selections::bigint",
        "c.selections::bigint * c.selections",
        "c.views",
        "c.views * c.views",
        "c.views * c.selections",
        "(c.flags & \(VisitorRecord.error) <> 0)::int",
        "(c.plays > 0)::int",
        "c.plays",
        "c.plays * c.plays",
    ]

    static let visitorColumnNames = ["experiment", "visitor", "grp", "segment", "day", "first_ms", "views", "selections", "flags",
                                     "plays"]
    static var visitorColumns: String { visitorColumnNames.joined(separator: ", ") }

    /// The session's staging table; made once per connection.
    static let stagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS report_visitor_staging
            (experiment text, visitor bigint, grp text, segment smallint, day integer, first_ms bigint, views bigint,
             selections integer, flags smallint, plays bigint) ON COMMIT DELETE ROWS
        """

    /// The lock instances take while merging visitors, beside the schema's.
    static let lockKey = ReportSchema.lockKey + 1

    /// `VisitorChanges.merge` in SQL: each column of a visitor's row once the batch's row `s` is
    /// merged into the stored one `v` (absent, all NULL, for a visitor not yet seen). The earlier
    /// exposure decides the group, segment and day, the stored one on a tie; the counts add up,
    /// held at their limits; the flags join.
    static let mergedColumns: [(column: String, value: String)] = {
        let earlier = "v.first_ms IS NULL OR s.first_ms < v.first_ms"
        return [
            ("grp", "CASE WHEN \(earlier) THEN s.grp ELSE v.grp END"),
            ("segment", "CASE WHEN \(earlier) THEN s.segment ELSE v.segment END"),
            ("day", "CASE WHEN \(earlier) THEN s.day ELSE v.day END"),
            ("first_ms", "least(v.first_ms, s.first_ms)"),
            ("views", "least(coalesce(v.views, 0) + s.views, \(UInt32.max))"),
            ("selections", "least(coalesce(v.selections, 0) + s.selections, \(UInt16.max))"),
            ("flags", "coalesce(v.flags, 0) | s.flags"),
            ("plays", "least(coalesce(v.plays, 0) + s.plays, \(UInt32.max))"),
        ]
    }()

    /// Adds each cell's change to the sums, read before the rows change: per visitor of the batch
    /// their merged row's sums in its cell, less their stored row's sums in the stored row's cell
    /// (for x² that is new² − old²), summed per cell. Each visitor's merged and stored row are
    /// worked out once and read twice (a materialized CTE): a 2.6x faster statement than two rows
    /// per visitor made by a lateral join.
    static let sumsSQL: String = {
        let merged = mergedColumns.filter { $0.column != "first_ms" }
        let signed = sumExpressions.map { "sum(c.sign * (\($0)))" }.joined(separator: ", ")
        let columns = merged.map(\.column)
        return """
            WITH m AS MATERIALIZED (
                SELECT s.experiment, \(merged.map { "\($0.value) AS \($0.column)" }.joined(separator: ", ")),
                       \(columns.map { "v.\($0) AS stored_\($0)" }.joined(separator: ", "))
                FROM report_visitor_staging s LEFT JOIN report_experiment_visitors v USING (experiment, visitor))
            INSERT INTO report_experiment_sums (experiment, grp, segment, day, \(sumColumns.joined(separator: ", ")))
            SELECT c.experiment, c.grp, c.segment, c.day, \(signed)
            FROM (SELECT experiment, 1 AS sign, \(columns.joined(separator: ", ")) FROM m
                  UNION ALL
                  SELECT experiment, -1, \(columns.map { "stored_" + $0 }.joined(separator: ", ")) FROM m WHERE stored_grp IS NOT NULL)
                AS c (experiment, sign, \(columns.joined(separator: ", ")))
            GROUP BY c.experiment, c.grp, c.segment, c.day
            ON CONFLICT (experiment, grp, segment, day) DO UPDATE SET
                \(sumColumns.map { "\($0) = report_experiment_sums.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """
    }()

    /// Then the rows themselves: a `MERGE` (no speculative insert and row lock per visitor, as
    /// `ON CONFLICT` takes: about half its time for 50,000 stored visitors). Under the lock nobody
    /// adds a row meanwhile.
    static let rowsSQL = """
        MERGE INTO report_experiment_visitors v USING report_visitor_staging s
            ON v.experiment = s.experiment AND v.visitor = s.visitor
        WHEN MATCHED THEN UPDATE SET \(mergedColumns.map { "\($0.column) = \($0.value)" }.joined(separator: ", "))
        WHEN NOT MATCHED THEN INSERT (\(visitorColumns)) VALUES (\(visitorColumnNames.map { "s." + $0 }.joined(separator: ", ")))
        """

    /// Merges `changes` into the stored visitors and sums now. Inside the caller's transaction,
    /// after `stagingSQL`, with the staging table empty.
    static func write(_ changes: VisitorChanges, _ connection: PostgresConnection) throws {
        guard !changes.isEmpty else { return }
        try connection.query("SELECT pg_advisory_xact_lock($1)", ["\(lockKey)"])
        var bytes: [UInt8]? = copyRows(changes)
        try connection.copyIn("COPY report_visitor_staging FROM STDIN") { defer { bytes = nil }; return bytes }
        try merge(connection)
    }

    /// Adds what `report_visitor_staging` holds (a visitor at most once) to the sums and the rows.
    static func merge(_ connection: PostgresConnection) throws {
        try connection.execute(sumsSQL)
        try connection.execute(rowsSQL)
    }

    /// Appends a batch's changes (`copyRows`, made while reading it) for the fold, inside the
    /// shipping transaction: one row, however many visitors, so a batch writes no visitor's row
    /// (`VisitorFold`).
    static func append(_ rows: String, instance: String, _ connection: PostgresConnection) throws {
        guard !rows.isEmpty else { return }
        try connection.query("INSERT INTO report_visitor_changes (instance, changes) VALUES ($1, $2)", [instance, rows])
    }

    /// The visitors as COPY rows of `report_visitor_staging`, one line each.
    static func copyRows(_ changes: VisitorChanges) -> [UInt8] {
        var rows = CopyRows()
        rows.bytes.reserveCapacity(changes.entries.count * 64)
        for (key, entry) in changes.entries {
            rows.text(key.experiment)
            rows.tab()
            rows.number(Int64(bitPattern: key.visitor))
            rows.tab()
            rows.text(entry.group)
            for value in [Int64(entry.segment.index), Int64(entry.day), entry.firstMs, Int64(entry.record.views),
                          Int64(entry.record.selections), Int64(entry.record.flags), Int64(entry.record.plays)] {
                rows.tab()
                rows.number(value)
            }
            rows.bytes.append(10)
        }
        return rows.bytes
    }
}
