import ReportDatabase
import Testing
import TestSupport

/// The libpq client against a real, throwaway PostgreSQL.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct PostgresConnectionTests {
    @Test func queriesWithParametersAndCopiesRowsIn() throws {
        let postgres = try TestDatabase()
        let connection = try PostgresConnection(url: postgres.url)
        try connection.execute("CREATE TABLE t (id integer, label text)")
        var chunks: [[UInt8]] = [Array("1\tone\n2\ttab\\there\n".utf8), Array("3\t\\N\n".utf8)]
        try connection.copyIn("COPY t FROM STDIN") { chunks.isEmpty ? nil : chunks.removeFirst() }
        let rows = try connection.query("SELECT id, label FROM t WHERE id >= $1 ORDER BY id", ["2"])
        #expect(rows.count == 2)
        #expect(rows.value(0, "label") == "tab\there")
        #expect(rows.value(1, "label") == nil)
        #expect(try connection.query("SELECT $1::text || 'x' AS v", ["it's"]).value(0, "v") == "it'sx")

        // LISTEN on one connection hears a NOTIFY committed on another.
        try connection.listen("report_events")
        let other = try PostgresConnection(url: postgres.url)
        try other.query("SELECT pg_notify('report_events', $1)", ["instance-1"])
        var heard: [String] = []
        for _ in 0..<50 where heard.isEmpty { heard = try connection.notifications(waitingUpTo: 0.1) }
        #expect(heard == ["instance-1"])
    }

    @Test func statementErrorsCarryTheirCodeAndLeaveTheConnectionUsable() throws {
        let postgres = try TestDatabase()
        let connection = try PostgresConnection(url: postgres.url)
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT * FROM missing") }
        #expect(error?.kind == .statement)
        #expect(error?.sqlState == "42P01")
        var rows: [[UInt8]] = [Array("not a number\n".utf8)]
        try connection.execute("CREATE TABLE n (v integer)")
        #expect(throws: PostgresError.self) {
            try connection.copyIn("COPY n FROM STDIN") { rows.isEmpty ? nil : rows.removeFirst() }
        }
        #expect(try connection.query("SELECT 1 AS one").value(0, "one") == "1")
    }

    @Test func anUnknownDatabaseIsARefusalAndAStoppedServerIsUnavailable() throws {
        let postgres = try TestDatabase(ownCluster: true)
        let refused = #expect(throws: PostgresError.self) { try PostgresConnection(url: postgres.cluster.url(database: "nope")) }
        #expect(refused?.kind == .refused)
        let connection = try PostgresConnection(url: postgres.url)
        try postgres.stop()
        let lost = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(lost?.kind == .unavailable)
        let down = #expect(throws: PostgresError.self) { try PostgresConnection(url: postgres.url) }
        #expect(down?.kind == .unavailable)
    }
}
