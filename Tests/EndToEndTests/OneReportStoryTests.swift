import Foundation
import Testing
import TestSupport

/// `/reports` and `/reports.json` with a report database: three instances on one throwaway
/// PostgreSQL, events written on different instances, and every instance answering every filter
/// with the same figures and the same event list, those the union of their logs gives; with the
/// database stopped, each says it shows its own log; a change applied in /admin is marked on the
/// charts of every instance.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil,
                             "PostgreSQL is not installed (Debian: apt-get install postgresql; scripts/test does)"))
final class OneReportStoryTests {
    let fixture: DatabaseInstances
    var instances: [ServerProcess] { fixture.instances }
    var postgres: TestDatabase { fixture.database }
    var folder: TemporaryDirectory { fixture.folder }

    init() throws {
        fixture = try .runningListOrGrid(3, folder: "one-report-story", ownCluster: Test.stopsTheDatabase)
    }

    /// One event of a log, as the oracle reads it.
    struct Line {
        let time: String, event: String, layout: String?, item: String?, visitor: String?, request: String?
    }

    /// Every instance's log, read from the segments on disk.
    func union() throws -> [Line] {
        try (0..<instances.count).flatMap { index in
            try ReportSegments.text(of: folder.path("reports-\(index)")).split(separator: "\n").compactMap { text -> Line? in
                guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      let time = object["timestamp"] as? String, let event = object["event"] as? String else { return nil }
                return Line(time: time, event: event, layout: object["layout"] as? String, item: object["item"] as? String,
                            visitor: object["visitor"] as? String, request: object["request"] as? String)
            }
        }
    }

    /// Every log's lines once there are `count` (a page's events are written after it is answered),
    /// once the database holds each of them, and once they are older than the live feed holds a
    /// row: the page of the newest events draws those, and leaves younger ones to its stream.
    func shippedUnion(_ count: Int) throws -> [Line] {
        var lines: [Line] = []
        try eventually("\(lines.count) of \(count) lines written", timeout: 20) { lines = try union(); return lines.count >= count }
        try eventually("every line shipped", timeout: 20) { Int(try postgres.psql("SELECT count(*) FROM report_events")) == lines.count }
        Thread.sleep(forTimeInterval: 2.1)
        return lines
    }

    func json(_ instance: ServerProcess, _ target: String) throws -> [String: Any] {
        let response = try instance.client.get(target)
        #expect(response.status == 200, "\(target): \(response.text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// The request ids of the page's event list, in its order.
    static func listedRequests(_ html: String) throws -> [String] {
        let page = try HTMLDocument.parse(html)
        let body = try #require(page.first { $0["data-events"] != nil })
        return body.all("tr").map { row in row.all("code").last?.text ?? "" }
    }

    @Test func everyInstanceTellsTheStoryOfEveryLogForEveryFilter() throws {
        // Different visitors on different instances; one visitor goes on to select a title on another.
        for _ in 0..<3 { #expect(try instances[0].client.get("/?layout=list").status == 200) }
        for _ in 0..<2 { #expect(try instances[1].client.get("/?layout=grid").status == 200) }
        let session = Browser(port: instances[2].port)
        #expect(try session.get("/?layout=list").status == 200)
        #expect(try session.post("/home/actions", withToken: [("layout", "list"), ("open", "0.0")]).status == 303)
        let lines = try shippedUnion(7)
        let selected = try #require(lines.first { $0.item != nil })
        let visitor = try #require(selected.visitor)

        let filters: [(query: String, matches: (Line) -> Bool)] = [
            ("", { _ in true }),
            ("event=launch", { $0.event == "launch" }),
            ("layout=grid", { $0.layout == "grid" }),
            ("item=\(selected.item!)", { $0.item == selected.item }),
            ("visitor=\(visitor)", { $0.visitor == visitor }),
            ("visitor=\(visitor.prefix(8))", { $0.visitor == visitor }),
            ("last=hour&event=launch", { $0.event == "launch" }),
            ("from=\(selected.time.prefix(10))&layout=list", { $0.layout == "list" }),
        ]
        for (query, matches) in filters {
            let expected = lines.filter(matches)
            var answers: [[String: Any]] = []
            var lists: [[String]] = []
            for instance in instances {
                let numbers = try json(instance, "/reports.json?\(query)")
                #expect(numbers["source"] as? String == "database", "\(query)")
                #expect(numbers["total"] as? Int == expected.count, "\(query) on port \(instance.port)")
                #expect(numbers["byEvent"] as? [String: Int] == Dictionary(grouping: expected, by: \.event).mapValues(\.count), "\(query)")
                #expect(numbers["byLayout"] as? [String: Int]
                        == Dictionary(grouping: expected.filter { $0.layout != nil }, by: { $0.layout! }).mapValues(\.count), "\(query)")
                #expect(numbers["visitors"] as? Int == Set(expected.compactMap(\.visitor)).count, "\(query)")
                #expect(((numbers["series"] as? [[String: Any]]) ?? []).reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == expected.count)
                answers.append(numbers)
                let page = try instance.client.get("/reports?\(query)")
                #expect(page.status == 200)
                #expect(page.text.contains("data-total>\(expected.count)<"), "\(query)")
                lists.append(try Self.listedRequests(page.text))
            }
            // The same figures and the same series everywhere (the local losses aside; an open
            // range's series runs to each request's now, so its points with events are compared).
            let figures = answers.map { answer in
                ["total", "byEvent", "byLayout", "bucket", "visitors", "visitorsExact"].map { name in
                    (answer[name] as? [String: Int]).map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
                        ?? "\(answer[name] ?? "nil")"
                }
                    + ((answer["series"] as? [[String: Any]]) ?? []).filter { $0["count"] as? Int != 0 }.map { "\($0["start"] ?? ""):\($0["count"] ?? "")" }
            }
            #expect(Set(figures.map { $0.joined(separator: "|") }).count == 1, "\(query): \(figures)")
            #expect(Set(lists).count == 1, "\(query): the same event list on every instance")
            #expect(Set(lists[0]) == Set(expected.compactMap(\.request)), "\(query)")
            let newestFirst = expected.sorted { $0.time > $1.time }.map(\.time)
            #expect(lists[0].count == newestFirst.count)
        }
    }

    @Test func olderEventsPageThroughEveryInstancesEvents() throws {
        for index in 0..<3 { for _ in 0..<20 { #expect(try instances[index].client.get("/").status == 200) } }
        let lines = try shippedUnion(60)
        let first = try instances[1].client.get("/reports").text
        let firstPage = try Self.listedRequests(first)
        #expect(firstPage.count == 50)
        let html = try HTMLDocument.parse(first)
        let older = try #require(html.all("a").first { $0.text == "Older events" }?["href"])
        let second = try Self.listedRequests(try instances[2].client.get(HTMLDocument.decode(older)).text)
        #expect(Set(firstPage + second) == Set(lines.compactMap(\.request)), "each event once over the two pages, through two instances")
        #expect(firstPage.count + second.count == lines.count)
    }

    @Test(.tags(.stopsTheDatabase)) func withTheDatabaseStoppedEachInstanceSaysItShowsItsOwnLog() throws {
        for _ in 0..<2 { #expect(try instances[0].client.get("/").status == 200) }
        #expect(try instances[1].client.get("/").status == 200)
        _ = try shippedUnion(3)
        #expect(try json(instances[0], "/reports.json")["total"] as? Int == 3)
        try postgres.stop()
        let own = try ReportSegments.text(of: folder.path("reports-0")).split(separator: "\n").count
        let numbers = try json(instances[0], "/reports.json")
        #expect(numbers["source"] as? String == "local")
        #expect((numbers["database"] as? [String: Any])?["unavailable"] is String)
        #expect(numbers["total"] as? Int == own)
        let page = try instances[0].client.get("/reports")
        #expect(page.status == 200)
        #expect(page.text.contains("data-shared-unavailable") && page.text.contains("this instance's own log only"))
        #expect(page.text.contains("data-total>\(own)<"))
    }

    @Test func aChangeAppliedInAdminIsMarkedOnBothChartsOfEveryInstance() throws {
        for index in 0..<3 { #expect(try instances[index].client.get("/").status == 200) }
        let applied = try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid for everyone", with: Browser(port: instances[0].port))
        #expect(applied.status == 303, "\(applied.text)")
        for index in 0..<3 { #expect(try instances[index].client.get("/").status == 200) }
        _ = try shippedUnion(7)
        for instance in instances {
            let changes = try json(instance, "/reports.json?last=day")["changes"] as? [[String: Any]] ?? []
            #expect(changes.count == 1)
            #expect(changes.first?["kind"] as? String == "toggles" && changes.first?["version"] as? Int == 2)
            #expect(changes.first?["who"] as? String == "loopback" && changes.first?["note"] as? String == "grid for everyone")
            for target in ["/reports?last=day", "/reports/experiments"] {
                let html = try HTMLDocument.parse(try instance.client.get(target).text)
                let markers = html.all { $0["data-marker"] != nil }
                #expect(markers.count == 1, "\(target) on port \(instance.port)")
                #expect(markers.first?.all("title").first?.text.hasPrefix("Toggles version 2, by loopback: grid for everyone") == true,
                        "\(target)")
                let listed = html.all { $0["data-change"] != nil }
                #expect(listed.first?["data-version"] == "2" && listed.first?.text.contains("grid for everyone") == true, "\(target)")
            }
        }
    }
}
