import Foundation
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
        let decoder = JSONDecoder()
        while true {
            let page = try connection.query("FETCH 10000 FROM report_backfill")
            if page.rows.isEmpty { break }
            for row in page.rows {
                guard let ms = row[0].flatMap({ Int64($0) }), let instance = row[1], let name = row[2],
                      let properties = row[5].flatMap({ try? decoder.decode([String: String].self, from: Data($0.utf8)) })
                else { continue }
                figures[instance, default: ExperimentFigures()].add(ms: ms, name: name, layout: row[3], visitor: row[4],
                                                                    properties: properties)
            }
        }
        try connection.execute("CLOSE report_backfill")
        for (instance, counted) in figures { try counted.write(connection, instance: instance) }
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
        let decoder = JSONDecoder()
        while true {
            let page = try connection.query("FETCH 50000 FROM report_visitor_backfill")
            if page.rows.isEmpty { break }
            var changes = VisitorChanges()
            for row in page.rows {
                guard let ms = row[0].flatMap({ Int64($0) }), let name = row[1],
                      let properties = row[3].flatMap({ try? decoder.decode([String: String].self, from: Data($0.utf8)) })
                else { continue }
                changes.add(ms: ms, name: ReportEvent.Name(rawValue: name), visitor: row[2], properties: properties)
            }
            // One transaction for every page: the staging tables are emptied by hand.
            try connection.execute("TRUNCATE report_visitor_staging, report_visitor_sum_staging")
            try ExperimentVisitorRows.write(changes, connection)
        }
        try connection.execute("CLOSE report_visitor_backfill")
    }
}
