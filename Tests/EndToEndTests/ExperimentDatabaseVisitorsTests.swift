import Foundation
import Testing
import TestSupport

/// The exact visitor figures with a report database: two instances whose logs share visitors ship
/// into one real PostgreSQL, and every instance's page shows the figures a single server's local
/// tallies give for the union of the two logs, per segment and day range too, plays included; again
/// after the tables are dropped and rebuilt from the events (the backfill), and after the plays'
/// columns are dropped and counted again from the events. The shippers' visitor changes are folded
/// into the figures a moment after they ship, and `/metrics` says when nothing waits.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil,
                             "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/test does)"))
final class ExperimentDatabaseVisitorsTests {
    typealias Event = ExperimentSegmentsTests.Event
    let fixture: DatabaseInstances
    var postgres: TestDatabase { fixture.database }
    var folder: TemporaryDirectory { fixture.folder }
    var toggles: String { folder.path("toggles.json") }
    let publicFolder = ServerProcess.publicFolder

    init() throws {
        // Started once their logs are written.
        fixture = try DatabaseInstances(2, folder: "experiment-shared-visitors", files: [
            "toggles.json": #"{"experiments": [{"name": "shared-test", "groups": [{"name": "a"}, {"name": "b"}]}]}"#,
        ], started: false) { _, folder in
            ["--toggles", folder.path("toggles.json"), "--public", ServerProcess.publicFolder]
        }
    }

    func shipped() -> Int { Int((try? postgres.psql("SELECT count(*) FROM report_events")) ?? "") ?? -1 }

    /// 900 visitors over three days; each visitor's events alternate between the two instances,
    /// and for a third of them the earliest event is on the second instance.
    static func events() -> (all: [Event], perInstance: [[Event]]) {
        let today = Int64(Date().timeIntervalSince1970 * 1000) / ExperimentSegmentsTests.dayMs
        var random = SplitMix64(state: 7)
        var all: [Event] = [], perInstance: [[Event]] = [[], []]
        for index in 0..<900 {
            let start = (today - 3 + Int64(index / 300)) * ExperimentSegmentsTests.dayMs + Int64(index % 300) * 100_000 + 7
            let group = Bool.random(using: &random) ? "a" : "b"
            var properties = ["experiment.shared-test": group, "cohort": "new"]
            properties["device"] = ["phone", "tablet", "desktop", nil].randomElement(using: &random)!
            let firstInstance = index % 3 == 0 ? 1 : 0
            for step in 0..<Int.random(in: 1...6, using: &random) {
                let name = step == 0 ? "launch"
                    : ["launch", "long_selected", "short_selected", "stream_selected", "error_shown", "play_started"]
                        .randomElement(using: &random)!
                let event = Event(ms: start + Int64(step) * 1000 + Int64(step % 2), name: name, visitor: "shared-\(index)",
                                  properties: properties)
                all.append(event)
                perInstance[(firstInstance + step) % 2].append(event)
                properties["cohort"] = "returning"
                properties["device"] = "desktop"
            }
        }
        return (all.sorted { $0.ms < $1.ms }, perInstance.map { $0.sorted { $0.ms < $1.ms } })
    }

    func figures(_ server: ServerProcess, _ query: String) throws -> [String: [String: Int]] {
        ExperimentSegmentsTests.groupSums(ExperimentSegmentsTests.visitors(try ExperimentSegmentsTests.json(server, query), "shared-test"))
    }

    @Test func theDatabasesFiguresEqualTheLocalTalliesOfTheUnionAlsoAfterABackfill() throws {
        let (all, perInstance) = Self.events()
        for (index, events) in perInstance.enumerated() {
            try ExperimentSegmentsTests.write(events, to: folder.path("reports-\(index)"))
        }
        // One server without a database over the union of the two logs: the local tallies.
        try ExperimentSegmentsTests.write(all, to: folder.path("reports-union"))
        let union = try ServerProcess(arguments: ["--port", "0", "--report-log", folder.path("reports-union"), "--toggles", toggles,
                                                  "--public", publicFolder])
        defer { union.signal(SIGTERM); _ = union.waitForExit() }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = Int64(Date().timeIntervalSince1970 * 1000) / ExperimentSegmentsTests.dayMs
        let middle = formatter.string(from: Date(timeIntervalSince1970: Double((today - 2) * ExperimentSegmentsTests.dayMs) / 1000))
        let queries = ["", "?segment=phone", "?segment=new", "?segment=returning", "?from=\(middle)&to=\(middle)"]
        var expected: [String: [String: [String: Int]]] = [:]
        try eventually(timeout: 30) { (try? figures(union, "")) == ExperimentSegmentsTests.sums(all, experiment: "shared-test") }
        for query in queries { expected[query] = try figures(union, query) }
        #expect(expected[""] == ExperimentSegmentsTests.sums(all, experiment: "shared-test")
                && expected["?segment=phone"] == ExperimentSegmentsTests.sums(all, experiment: "shared-test", segment: "phone"))
        #expect((expected["?segment=returning"]?.values.map { $0["visitors"] ?? 0 }.reduce(0, +) ?? 0) == 0,
                "every visitor's first event says new, wherever it was shipped from")

        try fixture.startAll()
        try eventually("\(shipped()) of \(all.count)", timeout: 60) { shipped() == all.count }
        for instance in fixture.instances {
            for query in queries {
                try eventually("\(query): \(String(describing: try? figures(instance, query))) vs \(String(describing: expected[query]))", timeout: 10) { (try? figures(instance, query)) == expected[query] }
            }
        }
        let rows = Int((try? postgres.psql("SELECT count(*) FROM report_experiment_visitors")) ?? "") ?? -1
        #expect(rows == 900)
        // Folded up: /metrics says nothing waits.
        for instance in fixture.instances {
            try eventually("no visitor changes waiting on /metrics", timeout: 10) {
                let metrics = (try? instance.client.get("/metrics").text) ?? ""
                return metrics.contains("\ndynamic_home_report_visitor_changes_waiting 0\n")
                    && metrics.contains("\ndynamic_home_report_visitor_fold_lag_seconds 0\n")
            }
        }

        // Tables dropped (as before the migration): the next start rebuilds them from the events.
        #expect(fixture.stopAll() == [0, 0])
        _ = try postgres.psql("""
            DROP TABLE report_experiment_visitors, report_experiment_sums, report_visitor_changes;
            DELETE FROM report_schema_version WHERE version >= 6
            """)
        try fixture.startAll()
        for instance in fixture.instances {
            for query in queries {
                try eventually("after the backfill: \(query)", timeout: 30) { (try? figures(instance, query)) == expected[query] }
            }
        }

        // A database from before plays were counted (schema version 6): the plays are counted from
        // the events into the rows that are there.
        #expect(fixture.stopAll() == [0, 0])
        _ = try postgres.psql("""
            ALTER TABLE report_experiment_visitors DROP COLUMN plays;
            ALTER TABLE report_experiment_sums DROP COLUMN playing, DROP COLUMN plays, DROP COLUMN play_squares;
            DROP TABLE report_visitor_changes;
            DELETE FROM report_schema_version WHERE version >= 7
            """)
        #expect((expected[""]?.values.map { $0["plays"] ?? 0 }.reduce(0, +) ?? 0) > 100)
        try fixture.startAll()
        for instance in fixture.instances {
            for query in queries {
                try eventually("after the plays' backfill: \(query)", timeout: 30) { (try? figures(instance, query)) == expected[query] }
            }
        }
        #expect(fixture.stopAll() == [0, 0])
    }
}
