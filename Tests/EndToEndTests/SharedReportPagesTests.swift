import Foundation
import Testing
import TestSupport

/// The report pages with a report database: two instances share a throwaway PostgreSQL, and each
/// one's pages show what both wrote.
@Suite(.serialized, .enabled(if: TemporaryPostgres.binaryFolder != nil,
                             "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/test does)"))
final class SharedReportPagesTests {
    static let secret = "a-secret-shared-by-every-instance"
    let postgres: TemporaryPostgres
    let folder: TemporaryDirectory
    var instances: [ServerProcess] = []

    init() throws {
        postgres = try TemporaryPostgres()
        folder = try TemporaryDirectory("shared-report-pages")
        let toggles = folder.path("toggles.json")
        try Data(#"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: toggles))
        instances = try (0..<2).map { index in
            try ServerProcess(arguments: [
                "--port", "0", "--report-log", folder.path("reports-\(index)"), "--toggles", toggles,
                "--public", ServerProcess.repositoryRoot.appendingPathComponent("Public").path,
                "--secret", Self.secret, "--report-database", postgres.url, "--instance", "instance-\(index)",
            ])
        }
    }

    /// Waits (bounded) until the database holds `count` rows matching `condition`.
    func waitForRows(_ count: Int, _ condition: String = "true") -> Int {
        var rows = -1
        for _ in 0..<200 {
            rows = Int((try? postgres.psql("SELECT count(*) FROM report_events WHERE \(condition)")) ?? "") ?? -1
            if rows >= count { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return rows
    }

    /// Home views on both instances, each by a new visitor: `counts[i]` on instance `i`.
    func views(_ counts: [Int]) throws {
        let expected = waitForRows(0, "name = 'launch'") + counts.reduce(0, +)
        for (index, count) in counts.enumerated() {
            for _ in 0..<count { #expect(try instances[index].client.get("/").status == 200) }
        }
        #expect(waitForRows(expected, "name = 'launch'") == expected)
    }

    @Test func theExperimentsShowEveryInstancesViews() throws {
        try views([3, 4])
        for instance in instances {
            let json = try JSONSerialization.jsonObject(with: Data(try instance.client.get("/reports.json").body)) as? [String: Any]
            let experiment = (json?["experiments"] as? [[String: Any]])?.first { $0["name"] as? String == "e" }
            let groups = experiment?["groups"] as? [[String: Any]] ?? []
            #expect(groups.map { $0["group"] as? String } == ["a", "b"])
            #expect(groups.reduce(0) { $0 + ($1["views"] as? Int ?? 0) } == 7)
            #expect(groups.reduce(0) { $0 + ($1["visitors"] as? Int ?? 0) } == 7)
            let page = try instance.client.get("/reports/experiments")
            #expect(page.status == 200 && page.text.contains("data-experiment=\"e\""))
        }
    }

    @Test func theRawLogStreamsEveryInstancesLinesAndSinceUsesTime() throws {
        try views([2, 0])
        Thread.sleep(forTimeInterval: 0.05)
        let since = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                                                formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        Thread.sleep(forTimeInterval: 0.05)
        try views([0, 3])
        let total = waitForRows(5)
        for instance in instances {
            let all = try instance.client.get("/reports.jsonl")
            #expect(all.status == 200)
            let lines = all.text.split(separator: "\n")
            #expect(lines.count == total)
            #expect(lines.filter { $0.contains("\"event\":\"launch\"") }.count == 5)
            #expect(lines.allSatisfy { $0.hasPrefix("{\"timestamp\":") && $0.hasSuffix("}") })
            let recent = try instance.client.get("/reports.jsonl?since=\(since)").text.split(separator: "\n")
            #expect(recent.filter { $0.contains("\"event\":\"launch\"") }.count == 3)
        }
    }

    @Test func theStreamFollowsEveryInstance() throws {
        let watcher = try ReportStreamTests.EventReader(port: instances[0].port)
        #expect(watcher.status == 200)
        // The feed starts after what was shipped before; give its LISTEN a moment to be in place.
        Thread.sleep(forTimeInterval: 1)
        try views([0, 3])
        var launches = 0
        while launches < 3, let event = try watcher.next() {
            if event.data.contains("\"event\":\"launch\"") { launches += 1 }
        }
        #expect(launches == 3)
    }

    @Test func withTheDatabaseDownThePagesServeTheInstancesOwnLog() throws {
        try views([2, 1])
        try postgres.stop()
        let lines = try instances[0].client.get("/reports.jsonl")
        #expect(lines.status == 200)
        #expect(lines.text.split(separator: "\n").filter { $0.contains("\"event\":\"launch\"") }.count == 2)
        let json = try JSONSerialization.jsonObject(with: Data(try instances[0].client.get("/reports.json").body)) as? [String: Any]
        let experiment = (json?["experiments"] as? [[String: Any]])?.first { $0["name"] as? String == "e" }
        #expect((experiment?["groups"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["views"] as? Int ?? 0) } == 2)
        #expect(try instances[0].client.get("/reports/experiments").status == 200)
    }
}
