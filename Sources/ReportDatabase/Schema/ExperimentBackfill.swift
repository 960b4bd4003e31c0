import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// Fills the experiment rollups from the events already in the database, for a schema that had
/// none: read once through a cursor, counted per instance as the shipper counts a batch.
enum ExperimentBackfill {
    static func run(_ connection: PostgresConnection) throws {
        try connection.execute(ExperimentFigures.stagingSQL)
        try connection.execute("""
            DECLARE report_backfill NO SCROLL CURSOR FOR
            SELECT (extract(epoch FROM time) * 1000)::bigint, instance, name, layout, visitor, properties::text
            FROM report_events WHERE properties::text LIKE '%"experiment%'
            """)
        var figures: [String: ExperimentFigures] = [:]
        while true {
            let page = try connection.query("FETCH 10000 FROM report_backfill")
            if page.rows.isEmpty { break }
            for row in page.rows {
                guard let ms = row[0].flatMap({ Int64($0) }), let instance = row[1], let name = row[2],
                      let properties = properties(row[5])
                else { continue }
                figures[instance, default: ExperimentFigures()].add(ms: ms, name: name, layout: row[3], visitor: row[4],
                                                                    properties: properties)
            }
        }
        try connection.execute("CLOSE report_backfill")
        for (instance, counted) in figures { try counted.write(connection, instance: instance) }
    }

    /// A row's properties; nil unless they are an object of strings.
    static func properties(_ text: String?) -> [String: String]? {
        guard let members = text.flatMap({ try? JSONValue(reading: Data($0.utf8)) })?.members else { return nil }
        let strings = members.compactMapValues(\.string)
        return strings.count == members.count ? strings : nil
    }

    /// Fills the visitor rows and sums from the events already there, oldest first, a page at a
    /// time through the shipper's own merge.
    static func visitors(_ connection: PostgresConnection) throws {
        try connection.execute(ExperimentVisitorRows.stagingSQL)
        try connection.execute("""
            DECLARE report_visitor_backfill NO SCROLL CURSOR FOR
            SELECT (extract(epoch FROM time) * 1000)::bigint, name, visitor, properties::text
            FROM report_events WHERE visitor IS NOT NULL AND properties::text LIKE '%"experiment%' ORDER BY time
            """)
        while true {
            let page = try connection.query("FETCH 50000 FROM report_visitor_backfill")
            if page.rows.isEmpty { break }
            var changes = VisitorChanges()
            for row in page.rows {
                guard let ms = row[0].flatMap({ Int64($0) }), let name = row[1],
                      let properties = properties(row[3])
                else { continue }
                changes.add(ms: ms, name: ReportEvent.Name(rawValue: name), visitor: row[2], properties: properties)
            }
            // One transaction for every page: the staging tables are emptied by hand.
            try connection.execute("TRUNCATE report_visitor_staging")
            try ExperimentVisitorRows.write(changes, connection)
        }
        try connection.execute("CLOSE report_visitor_backfill")
    }

    /// For a schema that had no visitor rows, fills them whole (`visitors`); for one that had them
    /// without plays, counts each visitor's `play_started` events from the events still there
    /// (retention may have dropped older ones) into their row and their cell's sums.
    static func visitorsOrPlays(_ connection: PostgresConnection) throws {
        guard try connection.query("SELECT count(*) AS n FROM (SELECT 1 FROM report_experiment_visitors LIMIT 1) f").int(0, "n") == 1 else {
            return try visitors(connection)
        }
        try connection.execute("""
            CREATE TEMP TABLE report_play_backfill (experiment text, visitor bigint, plays bigint) ON COMMIT DROP
            """)
        try connection.execute("""
            DECLARE report_play_cursor NO SCROLL CURSOR FOR
            SELECT (extract(epoch FROM time) * 1000)::bigint, visitor, properties::text
            FROM report_events WHERE name = 'play_started' AND visitor IS NOT NULL AND properties::text LIKE '%"experiment%'
            """)
        var changes = VisitorChanges()
        while true {
            let page = try connection.query("FETCH 50000 FROM report_play_cursor")
            if page.rows.isEmpty { break }
            for row in page.rows {
                guard let ms = row[0].flatMap({ Int64($0) }),
                      let properties = properties(row[2])
                else { continue }
                changes.add(ms: ms, name: .playStarted, visitor: row[1], properties: properties)
            }
        }
        try connection.execute("CLOSE report_play_cursor")
        guard !changes.isEmpty else { return }
        var rows = CopyRows()
        for (key, entry) in changes.entries {
            rows.text(key.experiment)
            rows.bytes.append(contentsOf: "\t\(Int64(bitPattern: key.visitor))\t\(entry.record.plays)\n".utf8)
        }
        var bytes: [UInt8]? = rows.bytes
        try connection.copyIn("COPY report_play_backfill FROM STDIN") { defer { bytes = nil }; return bytes }
        // The rows held no plays until now: each visitor's whole plays go to the cell they count in.
        try connection.execute("""
            UPDATE report_experiment_sums s SET playing = s.playing + a.playing, plays = s.plays + a.plays,
                play_squares = s.play_squares + a.play_squares
            FROM (SELECT v.experiment, v.grp, v.segment, v.day, count(*) AS playing, sum(p.plays) AS plays,
                         sum(p.plays * p.plays) AS play_squares
                  FROM report_play_backfill p JOIN report_experiment_visitors v USING (experiment, visitor)
                  GROUP BY v.experiment, v.grp, v.segment, v.day) a
            WHERE s.experiment = a.experiment AND s.grp = a.grp AND s.segment = a.segment AND s.day = a.day
            """)
        try connection.execute("""
            UPDATE report_experiment_visitors v SET plays = p.plays FROM report_play_backfill p
            WHERE v.experiment = p.experiment AND v.visitor = p.visitor
            """)
    }
}
