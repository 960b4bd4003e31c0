import ReportDatabase
import Testing
import TestSupport

/// The schema is created once, migrated in order, and a newer one is refused, not touched.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct ReportSchemaTests {
    @Test func createsOnceAndRefusesASchemaNewerThanItKnows() throws {
        let postgres = try TestDatabase()
        let connection = try PostgresConnection(url: postgres.url)
        #expect(try ReportSchema.migrate(connection) == 0)
        #expect(try ReportSchema.migrate(connection) == ReportSchema.currentVersion)
        #expect(try postgres.psql("SELECT count(*) FROM report_schema_version") == "\(ReportSchema.currentVersion)")
        #expect(try postgres.psql("SELECT relkind FROM pg_class WHERE relname = 'report_events'") == "p")
        #expect(try postgres.psql("SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'report_events_time'") == "brin")
        _ = try postgres.psql("INSERT INTO report_schema_version (version) VALUES (99)")
        #expect(throws: ReportSchema.Refusal.self) { try ReportSchema.migrate(connection) }
        // Refused inside the transaction: nothing changed, the connection still works.
        #expect(try postgres.psql("SELECT max(version) FROM report_schema_version") == "99")
        #expect(try connection.query("SELECT 1 AS one").value(0, "one") == "1")
    }
}
