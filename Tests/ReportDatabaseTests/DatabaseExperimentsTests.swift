import Foundation
import Logging
import ReportDatabase
import ReportFixtures
import Reporting
import Testing
import TestSupport

/// `/reports/experiments` over the database reads the experiment rollups the shipper keeps; its
/// figures must be the local store's own for the same events, visitors included (the same
/// sketches, merged by hours or whole days).
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct DatabaseExperimentsTests {
    @Test func equalTheLocalStoresOverRandomRangesAndAreBackfilledByTheMigration() throws {
        let directory = try TemporaryDirectory("shared-experiments")
        defer { directory.remove() }
        // About three days of events.
        let events = RandomReportLog.events(8000, seed: 3, start: ReportTimestamp.milliseconds(
            ReportTimestamp.parse("2026-11-23T20:00:00.000Z")!), maxStep: 120_000, visitors: 400)
        try ReportLog.write(events, to: directory.path("reports"), segmentBytes: 64 * 1024)
        let store = try ReportStore(directory: directory.path("reports"))

        let postgres = try TestDatabase()
        var shipping = ShipperConfiguration(databaseURL: postgres.url, instance: "a:1", reportLog: directory.path("reports"))
        shipping.pollInterval = 0.05
        shipping.batchLines = 1500
        let shipper = ReportShipper(configuration: shipping, logger: Logger(label: "test"))
        try shipper.start()
        try eventually("every event shipped", timeout: 30) { shipper.status.shippedEvents >= events.count }
        shipper.shutdown()
        #expect(shipper.status.shippedEvents == events.count)

        let database = DatabaseReports(url: postgres.url)
        let first = ReportTimestamp.milliseconds(events[0].timestamp)
        let span = ReportTimestamp.milliseconds(events[events.count - 1].timestamp) - first
        var random = SplitMix64(state: 9)
        var ranges = [ReportRange(), ReportRange(from: ReportTimestamp.date(milliseconds: first + span / 2))]
        for _ in 0..<30 {
            let a = first - 3_600_000 + Int64.random(in: 0...(span + 7_200_000), using: &random)
            let b = first - 3_600_000 + Int64.random(in: 0...(span + 7_200_000), using: &random)
            ranges.append(ReportRange(from: Bool.random(using: &random) ? nil : ReportTimestamp.date(milliseconds: min(a, b)),
                                      to: ReportTimestamp.date(milliseconds: max(a, b))))
        }
        let all = store.experiments()
        #expect(all.map(\.name) == ["color", "hero"])
        #expect(all.flatMap(\.groups).allSatisfy { $0.visitors > 0 && $0.days.count >= 3 })
        for range in ranges {
            #expect(try database.experiments(range) == store.experiments(range), "\(range)")
        }

        // A database from before the rollups: migrating fills them from the events it holds.
        // Every table and index of the later migrations dropped, as if they had never run.
        let later = try postgres.psql("""
            SELECT string_agg(tablename, ', ') FROM pg_tables WHERE schemaname = 'public'
            AND tablename NOT LIKE 'report_events%' AND tablename NOT IN ('report_minutes', 'report_positions', 'report_schema_version')
            """)
        _ = try postgres.psql("DROP TABLE \(later)")
        _ = try postgres.psql("DROP INDEX report_events_time_order, report_events_item, report_events_visitor, report_events_changes")
        _ = try postgres.psql("DELETE FROM report_schema_version WHERE version >= 2")
        let connection = try PostgresConnection(url: postgres.url)
        #expect(try ReportSchema.migrate(connection) == 1)
        for range in ranges.prefix(10) {
            #expect(try database.experiments(range) == store.experiments(range), "\(range)")
        }
    }
}
