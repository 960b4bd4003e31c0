import Reporting

/// The experiments' exact visitor figures in the database: a row per experiment and visitor
/// (`report_experiment_visitors`: group, segment, day and time of first exposure, views,
/// selections, flags) and the sums per experiment, group, segment and day of first exposure
/// (`report_experiment_sums`), so the page reads a few sums and never the events. Written in the
/// shipping transaction: the batch's visitors (`VisitorChanges`) are merged with their stored rows
/// and each visitor's change of sums is added to their cell, by the same code as the local tallies.
/// Instances take turns (a transaction lock), so two never merge the same visitor at once.
enum ExperimentVisitorRows {
    /// The sums' columns, in `VisitorSums`'s field order.
    static let sumColumns = ["visitors", "converting", "converting_long", "converting_short", "converting_stream", "selections",
                             "selection_squares", "views", "view_squares", "view_selection_products", "erroring"]

    static let visitorColumns = "experiment, visitor, grp, segment, day, first_ms, views, selections, flags"

    /// The session's staging tables; made once per connection.
    static let stagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS report_visitor_staging
            (experiment text, visitor bigint, grp text, segment smallint, day integer, first_ms bigint, views bigint,
             selections integer, flags smallint) ON COMMIT DELETE ROWS;
        CREATE TEMP TABLE IF NOT EXISTS report_visitor_sum_staging
            (experiment text, grp text, segment smallint, day integer, \(sumColumns.map { "\($0) bigint" }.joined(separator: ", ")))
            ON COMMIT DELETE ROWS
        """

    /// The lock instances take while merging visitors, beside the schema's.
    static let lockKey = ReportSchema.lockKey + 1

    /// Merges `changes` into the stored visitors and sums. Inside the caller's transaction, after `stagingSQL`.
    static func write(_ changes: VisitorChanges, _ connection: PostgresConnection) throws {
        guard !changes.isEmpty else { return }
        try connection.query("SELECT pg_advisory_xact_lock($1)", ["\(lockKey)"])
        try copy(changes.entries.map { ($0.key, $0.value) }, connection)
        let stored = try connection.query("""
            SELECT v.experiment, v.visitor, v.grp, v.segment, v.day, v.first_ms, v.views, v.selections, v.flags
            FROM report_experiment_visitors v JOIN report_visitor_staging s USING (experiment, visitor)
            """)
        var before: [VisitorChanges.Key: VisitorChanges.Entry] = [:]
        before.reserveCapacity(stored.rows.count)
        for row in stored.rows {
            guard let experiment = row[0], let visitor = row[1].flatMap({ Int64($0) }), let group = row[2],
                  let segment = row[3].flatMap({ Int($0) }), let day = row[4].flatMap({ Int32($0) }),
                  let firstMs = row[5].flatMap({ Int64($0) }), let views = row[6].flatMap({ UInt64($0) }),
                  let selections = row[7].flatMap({ Int($0) }), let flags = row[8].flatMap({ UInt8($0) })
            else { continue }
            before[VisitorChanges.Key(experiment: experiment, visitor: UInt64(bitPattern: visitor))] = VisitorChanges.Entry(
                group: group, segment: VisitorSegment(index: segment), day: day, firstMs: firstMs,
                record: VisitorRecord(views: UInt32(clamping: views), selections: UInt16(clamping: selections), flags: flags))
        }
        var merged: [(VisitorChanges.Key, VisitorChanges.Entry)] = []
        merged.reserveCapacity(changes.entries.count)
        var cells: [String: [VisitorChanges.Cell: VisitorSums]] = [:]
        for (key, entry) in changes.entries {
            let old = before[key]
            let new = old.map { VisitorChanges.merge(stored: $0, new: entry) } ?? entry
            merged.append((key, new))
            VisitorChanges.change(from: old, to: new, into: &cells[key.experiment, default: [:]])
        }
        try connection.execute("TRUNCATE report_visitor_staging")
        try copy(merged, connection)
        // An update joined with the staging rows, then an insert of the new ones: under the lock
        // nobody adds a row between the two, and it costs a fifth of `ON CONFLICT` for 50,000 rows
        // (the table's free space lets most updates stay on their page, leaving the key's index alone).
        try connection.execute("""
            UPDATE report_experiment_visitors v SET grp = s.grp, segment = s.segment, day = s.day, first_ms = s.first_ms,
                views = s.views, selections = s.selections, flags = s.flags
            FROM report_visitor_staging s WHERE v.experiment = s.experiment AND v.visitor = s.visitor
            """)
        try connection.execute("""
            INSERT INTO report_experiment_visitors (\(visitorColumns))
            SELECT \(visitorColumns) FROM report_visitor_staging s WHERE NOT EXISTS
                (SELECT 1 FROM report_experiment_visitors v WHERE v.experiment = s.experiment AND v.visitor = s.visitor)
            """)
        var rows = CopyRows(instance: "")
        for (experiment, byCell) in cells {
            for (cell, sums) in byCell {
                rows.text(experiment)
                rows.tab()
                rows.text(cell.group)
                rows.bytes.append(contentsOf: "\t\(cell.segment.index)\t\(cell.day)".utf8)
                for field in 0..<VisitorSums.fieldCount { rows.bytes.append(contentsOf: "\t\(sums[field: field])".utf8) }
                rows.bytes.append(10)
            }
        }
        var bytes: [UInt8]? = rows.bytes
        try connection.copyIn("COPY report_visitor_sum_staging FROM STDIN") { defer { bytes = nil }; return bytes }
        try connection.execute("""
            INSERT INTO report_experiment_sums (experiment, grp, segment, day, \(sumColumns.joined(separator: ", ")))
            SELECT experiment, grp, segment, day, \(sumColumns.joined(separator: ", ")) FROM report_visitor_sum_staging
            ON CONFLICT (experiment, grp, segment, day) DO UPDATE SET
                \(sumColumns.map { "\($0) = report_experiment_sums.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """)
    }

    private static func copy(_ entries: [(VisitorChanges.Key, VisitorChanges.Entry)], _ connection: PostgresConnection) throws {
        var rows = CopyRows(instance: "")
        rows.bytes.reserveCapacity(entries.count * 64)
        for (key, entry) in entries {
            rows.text(key.experiment)
            rows.bytes.append(contentsOf: "\t\(Int64(bitPattern: key.visitor))\t".utf8)
            rows.text(entry.group)
            rows.bytes.append(contentsOf: ("\t\(entry.segment.index)\t\(entry.day)\t\(entry.firstMs)\t\(entry.record.views)"
                + "\t\(entry.record.selections)\t\(entry.record.flags)\n").utf8)
        }
        var bytes: [UInt8]? = rows.bytes
        try connection.copyIn("COPY report_visitor_staging FROM STDIN") { defer { bytes = nil }; return bytes }
    }
}
