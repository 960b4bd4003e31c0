import Foundation
import Logging
import ReportDatabase
import Reporting
import Testing
import TestSupport

/// The visitors' changes wait in the database between the shipping transaction that appends them
/// and the fold that writes them into the rows and sums: an instance gone before folding, a fold
/// cut off before its commit (its connection killed, PostgreSQL killed) must neither lose nor
/// double any visitor's figures.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct VisitorFoldTests {
    typealias Rows = ExperimentVisitorRowsTests
    /// The visitors' lock (`ExperimentVisitorRows.lockKey`: the schema's key, "dhreport", plus one).
    static let foldLockKey = "\(0x6468_7265_706f_7274 + 1)"

    func waiting(_ postgres: TestDatabase) throws -> Int { Int(try postgres.psql("SELECT count(*) FROM report_visitor_changes")) ?? -1 }

    /// A shipper that only folds (nothing of its own to ship).
    func foldingShipper(_ postgres: TestDatabase, _ directory: TemporaryDirectory) throws -> ReportShipper {
        try FileManager.default.createDirectory(atPath: directory.path("folding"), withIntermediateDirectories: true)
        var configuration = ShipperConfiguration(databaseURL: postgres.url, instance: "folding:1", reportLog: directory.path("folding"))
        configuration.pollInterval = 0.05
        configuration.maxBackoff = 0.2
        configuration.foldInterval = 0.05
        return ReportShipper(configuration: configuration, logger: Logger(label: "test"))
    }

    @Test func changesShippedByAnInstanceGoneBeforeFoldingAreFoldedByAnotherExactlyOnce() throws {
        let directory = try TemporaryDirectory("visitor-fold-gone")
        defer { directory.remove() }
        let postgres = try TestDatabase()
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Rows.dayMs * Rows.dayMs
        let events = Rows.events(4000, visitors: 0..<200, startMs: today - Rows.dayMs, parity: 0, seed: 21)
        // Shipped by an instance that never folds: what a kill right after its commits leaves.
        let gone = try Rows.ship(events, instance: "a:1", into: postgres, directory, foldInterval: nil)
        #expect(try waiting(postgres) == gone.status.batches)
        #expect(try Rows.stored(postgres).isEmpty, "nothing folded yet")

        let other = try foldingShipper(postgres, directory)
        try other.start()
        defer { other.shutdown() }
        try Rows.waitUntilFolded(postgres)
        #expect(try Rows.stored(postgres) == Rows.recompute(events))
        #expect(try postgres.psql("SELECT count(*) FROM report_experiment_visitors WHERE experiment = 'rows-test'") == "200")
        try eventually("the folding instance's status says nothing waits", timeout: 10) {
            other.status.foldedBatches == gone.status.batches && other.status.unfoldedBatches == 0 && other.status.foldLag() == 0
        }
    }

    @Test func aFoldCutOffBeforeItsCommitByAKilledConnectionOrAKilledDatabaseFoldsEveryChangeOnce() throws {
        let directory = try TemporaryDirectory("visitor-fold-cut")
        defer { directory.remove() }
        let postgres = try TestDatabase(ownCluster: true)
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Rows.dayMs * Rows.dayMs
        let events = Rows.events(4000, visitors: 0..<200, startMs: today - Rows.dayMs, parity: 0, seed: 22)
        let shipped = try Rows.ship(events, instance: "a:1", into: postgres, directory, foldInterval: nil)
        let batches = shipped.status.batches
        #expect(try waiting(postgres) == batches)

        // Another instance holds the fold: this one waits, and its status shows what waits and for how long.
        let holder = try PostgresConnection(url: postgres.url)
        try holder.query("SELECT pg_advisory_lock($1)", [Self.foldLockKey])
        let folding = try foldingShipper(postgres, directory)
        try folding.start()
        defer { folding.shutdown() }
        try eventually("the status shows \(batches) batches waiting", timeout: 30) {
            folding.status.unfoldedBatches == batches && folding.status.foldLag() > 0
        }
        #expect(folding.status.visitorFolds == 0)

        // The fold stopped inside its transaction (its changes taken, the sums locked), then its
        // connection killed: the changes are all there again, and the next fold stops there too.
        try holder.query("SELECT pg_advisory_unlock($1)", [Self.foldLockKey])
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE report_experiment_sums IN EXCLUSIVE MODE")
        func blockedFold() -> String? {
            let pid = try? postgres.psql("""
                SELECT pid FROM pg_stat_activity WHERE application_name = 'dynamic-home visitor fold' AND wait_event_type = 'Lock'
                """)
            return pid?.isEmpty == false ? pid : nil
        }
        var first: String?
        try eventually("a fold waits for the sums", timeout: 30) { first = blockedFold(); return first != nil }
        #expect(try postgres.psql("SELECT pg_terminate_backend(\(first!))") == "t")
        try eventually("the next fold waits for the sums", timeout: 30) { blockedFold().map { $0 != first } ?? false }
        #expect(try waiting(postgres) == batches)
        #expect(try Rows.stored(postgres).isEmpty)

        // PostgreSQL killed while that fold waits; started again, the changes are folded once.
        try postgres.stop(crash: true)
        try postgres.start()
        holder.close()
        try Rows.waitUntilFolded(postgres)
        #expect(try Rows.stored(postgres) == Rows.recompute(events))
        #expect(try postgres.psql("SELECT count(*) FROM report_experiment_visitors WHERE experiment = 'rows-test'") == "200")
        try eventually("the status says nothing waits", timeout: 10) { folding.status.unfoldedBatches == 0 }
        #expect(folding.status.foldedBatches == batches)
    }

    @Test func whileTheShipperCatchesUpTheFoldWaitsAndFoldsTheBacklogsBatchesTogether() throws {
        let directory = try TemporaryDirectory("visitor-fold-catch-up")
        defer { directory.remove() }
        let postgres = try TestDatabase()
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Rows.dayMs * Rows.dayMs
        // 40 batches that end where the log ends: the shipper learns it caught up from an empty read.
        let events = Rows.events(4000, visitors: 0..<200, startMs: today - Rows.dayMs, parity: 0, seed: 31)
        try ReportLog.write(events, to: directory.path("a"), segmentBytes: 64 * 1024)
        var configuration = ShipperConfiguration(databaseURL: postgres.url, instance: "a:1", reportLog: directory.path("a"))
        configuration.pollInterval = 0.05
        configuration.batchLines = 100
        // A fold as often as it can be, but none while the backlog ships: one fold holds every batch.
        configuration.foldInterval = 0.01
        configuration.foldBatches = 1000
        configuration.foldCatchUpInterval = 600
        let shipper = ReportShipper(configuration: configuration, logger: Logger(label: "test"))
        try shipper.start()
        defer { shipper.shutdown() }
        try eventually("every batch shipped and folded", timeout: 60) {
            shipper.status.shippedEvents == events.count && shipper.status.foldedBatches == shipper.status.batches
        }
        #expect(shipper.status.batches == 40)
        #expect(shipper.status.visitorFolds == 1)
        #expect(try Rows.stored(postgres) == Rows.recompute(events))
    }
}
