import Foundation
import Logging
import ReportDatabase
import Testing
import TestSupport
@testable import HomeApp

/// A report sign-out reaches the database when it is made, not on the poller's next tick: the
/// other instances then learn of it on their own next read, within a period.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (scripts/test installs it)"))
struct SignOutsTests {
    @Test func aSignOutIsRecordedInTheDatabaseAtOnce() throws {
        let postgres = try TestDatabase()
        let folder = try TemporaryDirectory("sign-outs")
        let reports = DatabaseReports(url: postgres.url)
        // A period no test waits out: only the sign-out itself can send it.
        let signOuts = SignOuts(directory: folder.url.path, database: reports, logger: Logger(label: "test"), interval: 3600)
        try signOuts.start()
        defer { signOuts.shutdown() }
        let expiry = Int(Date().timeIntervalSince1970) + 600
        signOuts.add("a-session-ended-here", until: expiry)
        try eventually("the sign-out is in the database", timeout: 10) {
            try reports.signOuts().contains { $0.session == "a-session-ended-here" && $0.expiry == expiry }
        }
        #expect(signOuts.contains("a-session-ended-here"))
    }
}
