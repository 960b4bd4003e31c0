import Testing
import TestSupport

/// libpq and the libraries it brings (OpenSSL, Kerberos, LDAP) are loaded when a report database
/// is connected to: a server without one never maps them, and keeps their pages out of its memory.
@Suite(.serialized) struct DatabaseLibraryTests {
    @Test func aServerWithoutADatabaseNeverMapsLibpq() throws {
        let folder = try TemporaryDirectory("no-database")
        let server = try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path("reports")])
        #expect(try server.client.get("/").status == 200)
        #expect(server.maps(library: "libmicrohttpd"), "the check reads the process's maps")
        #expect(!server.maps(library: "libpq"))
        #expect(!server.maps(library: "libcrypto"))
    }

    @Test(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil,
                   "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/test does)"))
    func aServerWithADatabaseLoadsLibpqAndFollowsIt() throws {
        let fixture = try DatabaseInstances.runningListOrGrid(1, folder: "database-library")
        #expect(fixture[0].maps(library: "libpq"))
        #expect(try fixture[0].client.get("/").status == 200)
    }
}
