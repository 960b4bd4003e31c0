import Foundation
import Logging
import ReportDatabase
import ReportFixtures
import Reporting
import Testing
import TestSupport

/// The shipper against a real PostgreSQL: segments written by hand in the on-disk format, shipped
/// exactly once across restarts, a stopped database, and compression behind its back.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct ReportShipperTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory("shipper") }

    /// Appends `count` launch events, numbered from `first` (in `item`), to `segment`.
    func append(_ count: Int, from first: Int, to segment: String, day: String = "2026-11-24") throws {
        var bytes: [UInt8] = []
        for number in first..<(first + count) {
            let event = ReportEvent(.launch, timestamp: ReportTimestamp.parse("\(day)T10:00:00.000Z")!.addingTimeInterval(Double(number)),
                                    layout: "grid", item: "\(number)", visitor: "v\(number % 7)",
                                    properties: ["experiment.hero": "a\\b\t\"c\""])
            event.appendJSONLine(to: &bytes)
        }
        let path = directory.path(segment)
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    /// Compresses `segment` in place, as the log does once it is closed.
    func gzip(_ segment: String) throws {
        #expect(try Subprocess.run("/bin/gzip", [directory.path(segment)]).status == 0)
    }

    func shipper(_ postgres: TestDatabase, instance: String = "a:1") -> ReportShipper {
        var configuration = ShipperConfiguration(databaseURL: postgres.url, instance: instance, reportLog: directory.url.path)
        configuration.pollInterval = 0.05
        configuration.maxBackoff = 0.2
        configuration.batchLines = 1000
        return ReportShipper(configuration: configuration, logger: Logger(label: "test"))
    }

    /// Waits until the database holds at least `count` events; how many it holds.
    func waitForRows(_ postgres: TestDatabase, _ count: Int) throws -> Int {
        var rows = -1
        try eventually("\(count) events in the database (\(rows) so far)", timeout: 30) {
            rows = Int((try? postgres.psql("SELECT count(*) FROM report_events")) ?? "") ?? -1
            return rows >= count
        }
        return rows
    }

    func distinctItems(_ postgres: TestDatabase) throws -> Int {
        Int(try postgres.psql("SELECT count(DISTINCT item) FROM report_events")) ?? -1
    }

    @Test func shipsEverySegmentOnceAcrossRestartsAndAStoppedDatabase() throws {
        let postgres = try TestDatabase(ownCluster: true)
        let first = "events-20261124T100000.000Z.jsonl", second = "events-20261124T110000.000Z.jsonl"
        try append(2500, from: 0, to: first)
        try append(10, from: 2500, to: second, day: "2026-11-25")
        var running = shipper(postgres)
        try running.start()
        #expect(try waitForRows(postgres, 2510) == 2510)
        running.shutdown()

        // Restarted: resumes from the stored position, ships only what is new.
        try append(5, from: 2510, to: second, day: "2026-11-25")
        running = shipper(postgres)
        try running.start()
        #expect(try waitForRows(postgres, 2515) == 2515)

        // The database goes away while lines keep coming; back, it catches up.
        try postgres.stop()
        try append(100, from: 2515, to: second, day: "2026-11-25")
        try eventually("the shipper saw the database gone", timeout: 10) { running.status.errors > 0 }
        try postgres.start()
        #expect(try waitForRows(postgres, 2615) == 2615)
        running.shutdown()  // joins the shipper: a batch it was still sending is in by now
        #expect(try postgres.psql("SELECT count(*) FROM report_events") == "2615")
        #expect(try distinctItems(postgres) == 2615)
        #expect(try postgres.psql("SELECT sum(events) FROM report_minutes") == "2615")
        #expect(try postgres.psql("SELECT segment || ':' || \"offset\" FROM report_positions WHERE instance = 'a:1'")
                == "\(second):\(try Data(contentsOf: URL(fileURLWithPath: directory.path(second))).count)")
        #expect(try postgres.psql("SELECT properties->>'experiment.hero' FROM report_events LIMIT 1") == "a\\b\t\"c\"")
        // The group, a COPY text field with a backslash and a tab, in the experiment rollups.
        #expect(try postgres.psql("SELECT DISTINCT grp FROM report_experiment_counts") == "a\\b\t\"c\"")
        #expect(try postgres.psql("SELECT sum(events) FROM report_experiment_counts WHERE span = 'minute'") == "2615")
        // One partition per day, a BRIN index on time.
        #expect(try postgres.psql("SELECT count(*) FROM pg_inherits WHERE inhparent = 'report_events'::regclass") >= "2")
        #expect(try postgres.psql("SELECT count(*) FROM report_events_20261125") == "115")
    }

    @Test func anEventWithEveryAwkwardCharacterArrivesAsWrittenButItsNULs() throws {
        let postgres = try TestDatabase()
        let segment = "events-20261124T100000.000Z.jsonl"
        let at = ReportTimestamp.parse("2026-11-24T10:00:00.123Z")!
        var bytes: [UInt8] = []
        ReportEvent(.launch, timestamp: at, layout: "tab\there\nnew\\slash\r", visitor: "v\u{0}isitor", request: "ünïcødé ✓",
                    properties: ["experiment.hero": "q\"uote\u{1}ctl\\", "note": "x\u{0}y"])
            .appendJSONLine(to: &bytes)
        _ = FileManager.default.createFile(atPath: directory.path(segment), contents: Data(bytes))
        let running = shipper(postgres)
        try running.start()
        defer { running.shutdown() }
        #expect(try waitForRows(postgres, 1) == 1)
        #expect(try postgres.psql("SELECT (extract(epoch FROM time) * 1000)::bigint FROM report_events")
                == "\(ReportTimestamp.milliseconds(at))")
        #expect(try postgres.psql("SELECT to_json(layout) FROM report_events") == #""tab\there\nnew\\slash\r""#)
        #expect(try postgres.psql("SELECT item IS NULL AND instance = 'a:1' AND name = 'launch' FROM report_events") == "t")
        #expect(try postgres.psql("SELECT visitor || '|' || request FROM report_events") == "visitor|ünïcødé ✓")
        #expect(try postgres.psql("SELECT to_json(properties->>'experiment.hero') FROM report_events") == #""q\"uote\u0001ctl\\""#)
        #expect(try postgres.psql("SELECT properties->>'note' FROM report_events") == "xy")
        #expect(try postgres.psql("SELECT segment || ':' || \"offset\" FROM report_events") == "\(segment):0")
    }

    @Test func readsASegmentCompressedAfterPartOfItWasShipped() throws {
        let postgres = try TestDatabase()
        let first = "events-20261124T100000.000Z.jsonl", second = "events-20261124T110000.000Z.jsonl"
        try append(300, from: 0, to: first)
        var running = shipper(postgres)
        try running.start()
        #expect(try waitForRows(postgres, 300) == 300)
        running.shutdown()
        // More lines, then the segment is closed and compressed (as the log does) before shipping.
        try append(200, from: 300, to: first)
        try append(1, from: 500, to: second)
        try gzip(first)
        #expect(FileManager.default.fileExists(atPath: directory.path(first + ".gz")))
        running = shipper(postgres)
        try running.start()
        #expect(try waitForRows(postgres, 501) == 501)
        running.shutdown()
        #expect(try distinctItems(postgres) == 501)
        #expect(running.mayDelete(segment: first))
        #expect(!running.mayDelete(segment: second))
    }

    @Test func aTornLastLineWaitsUntilItIsWhole() throws {
        let postgres = try TestDatabase()
        let segment = "events-20261124T100000.000Z.jsonl"
        try append(3, from: 0, to: segment)
        var line: [UInt8] = []
        ReportEvent(.launch, item: "3").appendJSONLine(to: &line)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.path(segment)))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.prefix(20)))
        let running = shipper(postgres)
        try running.start()
        defer { running.shutdown() }
        #expect(try waitForRows(postgres, 3) == 3)
        try handle.write(contentsOf: Data(line.dropFirst(20)))
        try handle.close()
        #expect(try waitForRows(postgres, 4) == 4)
        #expect(try distinctItems(postgres) == 4)
    }

    @Test func retentionDropsWholeDaysPastItAndMakesTodayAndTomorrowAhead() throws {
        let postgres = try TestDatabase()
        let today = String(ReportTimestamp.string(from: Date()).prefix(10))
        try append(10, from: 0, to: "events-20201124T100000.000Z.jsonl", day: "2020-11-24")
        try append(5, from: 10, to: "events-20201125T100000.000Z.jsonl", day: today)
        var configuration = ShipperConfiguration(databaseURL: postgres.url, instance: "a:1", reportLog: directory.url.path)
        configuration.pollInterval = 0.05
        configuration.retentionDays = 7
        var running = ReportShipper(configuration: configuration, logger: Logger(label: "test"))
        try running.start()
        #expect(try waitForRows(postgres, 15) == 15)
        running.shutdown()
        let partitions = { try postgres.psql("SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i "
                                             + "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'report_events'::regclass") }
        #expect(try partitions().contains("report_events_20201124"))
        // The next start's housekeeping drops the old day, its rows and its rollups.
        running = ReportShipper(configuration: configuration, logger: Logger(label: "test"))
        try running.start()
        try eventually("the old day's partition dropped", timeout: 10) { (try? partitions().contains("report_events_20201124")) == false }
        running.shutdown()
        #expect(try !partitions().contains("report_events_20201124"))
        #expect(try partitions().contains("report_events_" + today.filter(\.isNumber)))
        #expect(try postgres.psql("SELECT count(*) FROM report_events") == "5")
        #expect(try postgres.psql("SELECT sum(events) FROM report_minutes") == "5")
        #expect(try postgres.psql("SELECT sum(events) FROM report_experiment_counts WHERE span = 'day'") == "5")
        #expect(try postgres.psql("SELECT count(*) FROM report_experiment_sketches WHERE start < '2021-01-01'") == "0")
        #expect(try postgres.psql("SELECT count(*) FROM report_experiment_sketches") == "2")
        // Tomorrow's partition exists before any event needs it.
        #expect(try partitions().split(separator: " ").count == 2)
    }

    @Test func aRefusedLoginIsLoggedOnceAndRetriedQuietly() throws {
        let postgres = try TestDatabase()
        try append(1, from: 0, to: "events-20261124T100000.000Z.jsonl")
        var configuration = ShipperConfiguration(databaseURL: postgres.cluster.url(database: "missing"), instance: "a:1",
                                                 reportLog: directory.url.path)
        configuration.refusedBackoff = 0.05
        let lines = LogCapture()
        let running = ReportShipper(configuration: configuration, logger: Logger(label: "test") { _ in lines.handler })
        try running.start()
        try eventually("five refused attempts", timeout: 10) { running.status.errors >= 5 }
        running.shutdown()
        #expect(running.status.refused)
        #expect(lines.messages.filter { $0.contains("refused") }.count == 1)
    }

    /// A segment that cannot be read holds the position (counted, logged once, the lag growing)
    /// until `reports check --set-aside` releases it; then the shipper says it skipped it and goes on.
    @Test func stopsAtAnUnreadableSegmentUntilAnOperatorSetsItAside() throws {
        let postgres = try TestDatabase()
        let first = "events-20261124T100000.000Z.jsonl", second = "events-20261124T110000.000Z.jsonl"
        let third = "events-20261124T120000.000Z.jsonl"
        try append(300, from: 0, to: first)
        try append(4517, from: 300, to: second)
        try append(10, from: 4817, to: third)
        try gzip(second)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path(second + ".gz"))))
        for index in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[index] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: directory.path(second + ".gz")))

        var configuration = ShipperConfiguration(databaseURL: postgres.url, instance: "a:1", reportLog: directory.url.path)
        configuration.pollInterval = 0.05
        configuration.unreadableRetry = 0.05
        let lines = LogCapture()
        let running = ReportShipper(configuration: configuration, logger: Logger(label: "test") { _ in lines.handler })
        try running.start()
        defer { running.shutdown() }
        #expect(try waitForRows(postgres, 300) == 300)
        try eventually { running.status.unreadableReads >= 5 }
        #expect(running.status.blocked?.contains(second) == true)
        #expect(try postgres.psql("SELECT count(*) FROM report_events") == "300")
        #expect(try postgres.psql("SELECT segment || ':' || \"offset\" FROM report_positions WHERE instance = 'a:1'") == "\(second):0")
        #expect(lines.messages.filter { $0.contains("cannot be read") }.count == 1)
        #expect((running.status.lag() ?? 0) > 0)

        // Set aside by the server (as it does when it finds the damage): still not passed.
        try FileManager.default.createDirectory(atPath: directory.path("damaged"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: directory.path(second + ".gz"), toPath: directory.path("damaged/" + second + ".gz"))
        let tries = running.status.unreadableReads
        try eventually { running.status.unreadableReads >= tries + 3 && running.status.blocked?.contains("set aside") == true }
        #expect(try postgres.psql("SELECT count(*) FROM report_events") == "300")

        // The operator's way past it: the damaged segment into damaged/, released.
        let report = try ReportCheck.run(directory: directory.url.path, setAside: true)
        #expect(report.setAside.map(\.file) == [second + ".gz"])
        #expect(try waitForRows(postgres, 310) == 310)
        try eventually { running.status.blocked == nil && running.status.skippedSegments == 1 }
        #expect(lines.messages.contains { $0.contains("skipped a damaged report segment on purpose") })
        #expect(try distinctItems(postgres) == 310)
    }
}
