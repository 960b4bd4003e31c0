import Foundation
import Testing
import TestSupport

/// The report pages with a report database: two instances share a throwaway PostgreSQL, and each
/// one's pages show what both wrote.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil,
                             "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/test does)"))
final class DatabaseReportPagesTests {
    let fixture: DatabaseInstances
    var instances: [ServerProcess] { fixture.instances }
    var postgres: TestDatabase { fixture.database }

    init() throws {
        fixture = try .runningListOrGrid(2, folder: "shared-report-pages", ownCluster: Test.stopsTheDatabase)
    }

    /// Waits (bounded) until the database holds `count` rows matching `condition`.
    func waitForRows(_ count: Int, _ condition: String = "true") -> Int {
        var rows = -1
        try? eventually(timeout: 20) {
            rows = Int((try? postgres.psql("SELECT count(*) FROM report_events WHERE \(condition)")) ?? "") ?? -1
            return rows >= count
        }
        return rows
    }

    /// Waits until the first instance's stream feed follows the database (it says so once it has
    /// listened and read where every instance stands): rows shipped after that come live.
    func waitForTheFeed() throws {
        try instances[0].waitUntilFollowingTheDatabase(feed: "dynamic-home report stream")
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
        // Time is the subject: `since` falls strictly between the two batches' timestamps, a
        // millisecond (the log's resolution) after the first's and before the second's.
        let sinceDate = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 * 1000).rounded(.up) + 1) / 1000)
        let since = ISO8601DateFormatter.string(from: sinceDate, timeZone: TimeZone(identifier: "UTC")!,
                                                formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        try eventually("the clock passed `since`") { Date().timeIntervalSince(sinceDate) > 0.001 }
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
        // The feed starts after what was shipped before it listened.
        try waitForTheFeed()
        try views([0, 3])
        var launches = 0
        while launches < 3, let event = try watcher.next() {
            if event.data.contains("\"event\":\"launch\"") { launches += 1 }
        }
        #expect(launches == 3)
    }

    /// Home views on instance `index`, each by a new visitor; their request ids.
    func launches(_ count: Int, on index: Int) throws -> [String] {
        try (0..<count).map { _ in
            let response = try instances[index].client.get("/")
            #expect(response.status == 200)
            return try #require(response.header("X-Request-Id"))
        }
    }

    /// The next `count` events (all of `requests` by default) whose request is one of `requests`;
    /// fewer if the stream ends.
    func events(of requests: [String], count: Int? = nil,
                from watcher: ReportStreamTests.EventReader) throws -> [(id: String?, data: String)] {
        var seen: [(id: String?, data: String)] = []
        while seen.count < count ?? requests.count, let event = try watcher.next() {
            if ReportStreamTests.request(of: event.data).map(requests.contains) == true { seen.append(event) }
        }
        return seen
    }

    @Test func aWatcherThatReconnectsToAnotherInstanceGetsWhatItMissedOnce() throws {
        var watcher: ReportStreamTests.EventReader? = try ReportStreamTests.EventReader(port: instances[0].port)
        #expect(watcher?.status == 200)
        try waitForTheFeed()
        let before = try launches(2, on: 0) + launches(2, on: 1)
        let seen = try events(of: before, from: try #require(watcher))
        #expect(Set(seen.compactMap { ReportStreamTests.request(of: $0.data) }) == Set(before))
        #expect(seen.allSatisfy { $0.id != nil }, "every event in the shared order carries its key")
        let last = try #require(seen.last?.id)
        // Gone; both instances write meanwhile, and it comes back through the other instance.
        watcher = nil
        let missedOn0 = try launches(3, on: 0)
        let missedOn1 = try launches(2, on: 1)
        #expect(waitForRows(9, "name = 'launch'") >= 9)
        let resumed = try ReportStreamTests.EventReader(port: instances[1].port, lastEventID: last)
        #expect(resumed.status == 200)
        let missed = missedOn0 + missedOn1
        let replayed = try events(of: missed + before, count: missed.count, from: resumed)
        let requests = replayed.map { ReportStreamTests.request(of: $0.data) ?? "?" }
        #expect(Set(requests) == Set(missed) && requests.count == missed.count, "every missed event once, none seen before")
        #expect(requests.filter(missedOn0.contains) == missedOn0, "in order per instance")
        #expect(requests.filter(missedOn1.contains) == missedOn1, "in order per instance")
        #expect(replayed.allSatisfy { $0.id != nil })
        // Then live again, nothing twice: the next launch on either instance is the next event.
        let live = try launches(1, on: 0)
        let next = try events(of: live + missed + before, count: 1, from: resumed).first
        #expect(next.flatMap { ReportStreamTests.request(of: $0.data) } == live.first)
    }

    @Test func aRowShippedLateComesLiveWithoutAnIdAndIsNotSentTwice() throws {
        let watcher = try ReportStreamTests.EventReader(port: instances[0].port)
        #expect(watcher.status == 200)
        try waitForTheFeed()
        let before = try launches(1, on: 1)
        let last = try #require(try events(of: before, from: watcher).last?.id)
        // An instance that ships a row twenty seconds after its time, behind the key just sent.
        _ = try postgres.psql("""
            INSERT INTO report_events (time, instance, name, request, segment, "offset")
            VALUES (now() - interval '20 seconds', 'instance-late', 'launch', 'late-request', 'events-late.jsonl', 0);
            SELECT pg_notify('report_events', 'instance-late');
            """)
        let late = try events(of: ["late-request"], from: watcher)
        #expect(late.count == 1 && late.first?.id == nil, "sent live, without an id: the last id stays the newest key")
        // Back with the last id: the late row is behind it, so nothing comes twice.
        let after = try launches(1, on: 0)
        let resumed = try ReportStreamTests.EventReader(port: instances[1].port, lastEventID: last)
        #expect(resumed.status == 200)
        let next = try events(of: after + before + ["late-request"], count: 1, from: resumed).first
        #expect(next.flatMap { ReportStreamTests.request(of: $0.data) } == after.first)
    }

    @Test func aWatcherThatResumesBehindThousandsOfRowsGetsEveryOneInOrderOnce() throws {
        #expect(waitForRows(0) >= 0, "the schema is in place")
        // 2,500 rows of about 330 bytes each, ten minutes old, from an instance the feed does not
        // follow; times in whole milliseconds, as the shipper writes them from report lines. Never
        // before today: the fresh database has partitions from today on only.
        _ = try postgres.psql("""
            INSERT INTO report_events (time, instance, name, layout, visitor, request, properties, segment, "offset")
            SELECT greatest(date_trunc('day', now(), 'UTC'), date_trunc('milliseconds', now()) - interval '10 minutes') + i * interval '1 millisecond',
                   'instance-bulk', 'launch', 'grid',
                   'visitor-bulk', 'bulk-' || i, jsonb_build_object('pad', repeat('x', 200)), 'events-bulk.jsonl', i
            FROM generate_series(1, 2500) AS i
            """)
        let before = ISO8601DateFormatter.string(from: Date().addingTimeInterval(-11 * 60), timeZone: TimeZone(identifier: "UTC")!,
                                                 formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let watcher = try ReportStreamTests.EventReader(port: instances[0].port, lastEventID: "\(before)/instance-0/s/0")
        #expect(watcher.status == 200)
        var requests: [String] = []
        var ids: [String] = []
        while requests.count < 2500, let event = try watcher.next() {
            guard let request = ReportStreamTests.request(of: event.data), request.hasPrefix("bulk-") else { continue }
            requests.append(request)
            if let id = event.id { ids.append(id) }
        }
        #expect(requests.count == 2500, "every row behind the id, the stream was not cut")
        let expected = (1...2500).map { "bulk-\($0)" }
        let differs = requests.indices.first { $0 >= expected.count || requests[$0] != expected[$0] }
        #expect(differs == nil, "in order, none twice: at \(differs ?? 0), \(differs.map { requests[$0] } ?? "")")
        #expect(Set(ids).count == 2500, "each with its own key")
    }

    @Test func thePageNamesWhereItsEventsEndAndItsStreamSendsEveryLaterRowOnce() throws {
        try waitForTheFeed()
        let drawn = try launches(2, on: 0) + launches(2, on: 1)
        #expect(waitForRows(4, "name = 'launch'") >= 4)
        // At once, while some of them are younger than the feed holds a row.
        let page = try instances[0].client.get("/reports?event=launch")
        #expect(page.status == 200)
        let after = try #require(page.text.firstMatch(of: /data-after="([^"]+)"/).map { String($0.1) },
                                 "the page names where the stream starts")
        let counted = try #require(page.text.firstMatch(of: /data-total>([0-9]+)</).flatMap { Int($0.1) })
        // Shipped between drawing the page and opening its stream, and passed on by the live
        // feed before the stream opens: only the start the page named brings them.
        let meanwhile = try launches(2, on: 0) + launches(2, on: 1)
        #expect(waitForRows(8, "name = 'launch'") >= 8)
        Thread.sleep(forTimeInterval: 3)  // the subject: longer than the feed holds a row
        let connection = try HTTPConnection(port: instances[1].port)
        let query = try #require(after.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._:"))))
        try connection.send("GET /reports/stream?after=\(query) HTTP/1.1\r\nHost: x\r\n\r\n")
        let watcher = ReportStreamTests.EventReader(connection: connection)
        #expect(watcher.status == 200)
        let all = drawn + meanwhile
        let onPage = all.filter(page.text.contains)
        let expected = all.filter { !onPage.contains($0) }
        #expect(meanwhile.allSatisfy { !onPage.contains($0) })
        let streamed = try events(of: all, count: expected.count, from: watcher).compactMap { ReportStreamTests.request(of: $0.data) }
        #expect(streamed.sorted() == expected.sorted(), "every row the page left out, once")
        #expect(counted == onPage.count, "the page counts the rows it draws, and the stream brings the rest")
        // Nothing drawn comes again: the next launch is the next event.
        let live = try launches(1, on: 0)
        let next = try events(of: live + all, count: 1, from: watcher).first
        #expect(next.flatMap { ReportStreamTests.request(of: $0.data) } == live.first)
    }

    @Test func aStartThatIsNoKeyGets400() throws {
        for after in ["yesterday", "seg:12", "9999-01-01T00:00:00.000Z///-1", "2026-11-24T12:00:00.000Z/a//-1"] {
            let response = try instances[0].client.get("/reports/stream?after=\(after)")
            #expect(response.status == 400, "\(after)")
            #expect(response.text.contains("after= must be"), "\(after)")
        }
    }

    @Test func aLastEventIDThatIsNoKeyGets400AndOneTooOldAGap() throws {
        for id in ["yesterday", "seg:12", "2026-11-24T12:00:00.000Z/a/b/-1", "9999-01-01T00:00:00.000Z/a/b/1"] {
            let watcher = try ReportStreamTests.EventReader(port: instances[0].port, lastEventID: id)
            #expect(watcher.status == 400, "\(id)")
        }
        let old = ISO8601DateFormatter.string(from: Date().addingTimeInterval(-7200), timeZone: TimeZone(identifier: "UTC")!,
                                              formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let watcher = try ReportStreamTests.EventReader(port: instances[0].port, lastEventID: "\(old)/instance-0/s/1")
        #expect(watcher.status == 200)
        let gap = try watcher.next()
        #expect(gap?.id == nil && gap?.data.hasPrefix("{\"from\":\"\(old)\"") == true)
    }

    @Test(.tags(.stopsTheDatabase)) func withTheDatabaseDownThePagesServeTheInstancesOwnLog() throws {
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
