import Foundation
import Synchronization
import Testing
import TestSupport

/// The deployment beyond one machine, with the real parts: a throwaway PostgreSQL, three
/// instances sharing it and one --secret, nginx in front with the repository's own proxy
/// configuration. Every event any instance writes arrives in PostgreSQL exactly once, through an
/// instance killed under load and a database stopped under load until every instance has failed to
/// reach it.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil && FileManager.default.isExecutableFile(atPath: TemporaryNginx.binary),
                "PostgreSQL and nginx are not installed (Debian: apt-get install postgresql nginx; scripts/test does)"))
final class BeyondOneMachineTests {
    /// PostgreSQL is stopped under load: a cluster of the suite's own.
    let fixture: DatabaseInstances
    var instances: [ServerProcess] { fixture.instances }
    var postgres: TestDatabase { fixture.database }
    var ports: [UInt16] { instances.map(\.port) }

    init() throws {
        fixture = try DatabaseInstances(3, folder: "beyond-one-machine", ownCluster: true)
    }

    /// Lines in an instance's local log (plain and gzipped segments).
    func localLines(_ index: Int) -> Int {
        let folder = fixture.folder.path("reports-\(index)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var lines = 0
        for name in names where name.hasSuffix(".jsonl") || name.hasSuffix(".jsonl.gz") {
            let path = folder + "/" + name
            let bytes: [UInt8]
            if name.hasSuffix(".gz") {
                let result = try? Subprocess.run("/bin/sh", ["-c", "gzip -dc '\(path)' | wc -l"])
                lines += Int(result?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
                continue
            }
            bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
            lines += bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
        return lines
    }

    func rows(_ condition: String = "true") -> Int {
        Int((try? postgres.psql("SELECT count(*) FROM report_events WHERE \(condition)")) ?? "") ?? -1
    }

    /// Waits (bounded) until the database holds exactly what the three local logs hold and both
    /// stay so for a second, with `ready` true: a page is answered a moment before its event is in
    /// the local log, so an equality seen once may be passing. Returns both counts.
    func settle(until ready: () -> Bool = { true }) -> (database: Int, local: Int) {
        var last = (database: -1, local: -2)
        var steadySince: Date?
        try? eventually(timeout: 60) {
            let local = (0..<3).reduce(0) { $0 + localLines($1) }
            let database = rows()
            let steady = database == local && local == last.local && ready()
            steadySince = steady ? steadySince ?? Date() : nil
            last = (database, local)
            return steadySince.map { Date().timeIntervalSince($0) >= 1 } ?? false
        }
        return last
    }

    func duplicates() -> String {
        (try? postgres.psql("""
            SELECT count(*) FROM (SELECT instance, segment, "offset" FROM report_events
            GROUP BY 1, 2, 3 HAVING count(*) > 1) d
            """)) ?? "?"
    }

    /// Home pages through nginx from `threads` threads until `stop` is set (at most `limit` each);
    /// returns the statuses seen.
    func load(through port: UInt16, threads: Int, limit: Int, stop: StopFlag) -> Threads.Running<[Int]> {
        Threads.start(threads) { _ in
            var statuses: [Int] = []
            while !stop.isSet, statuses.count < limit {
                statuses.append((try? HTTPClient(port: port).get("/").status) ?? 0)
                stop.requests.add(1, ordering: .relaxed)
                usleep(5_000)  // a steady load, not a flood: two cores are shared with the instances
            }
            return statuses
        }
    }

    @Test func everyEventArrivesOnceThroughAKilledInstanceAndAStoppedDatabase() throws {
        let nginx = try TemporaryNginx(upstreams: ports)
        let front = HTTPClient(port: nginx.port)

        // N home views through nginx give exactly N launch rows.
        let views = 90
        for _ in 0..<views { #expect(try front.get("/").status == 200) }
        let first = settle { rows("name = 'launch'") >= views }
        #expect(first.database == first.local)
        #expect(rows("name = 'launch'") == views)
        #expect(try postgres.psql("SELECT count(DISTINCT instance) FROM report_events") == "3")

        // A visitor's journey alternates instances: a form drawn by one is accepted by another.
        let drawing = Browser(port: ports[0])
        _ = try drawing.get("/settings")
        let token = try #require(drawing.csrfToken)
        let posting = Browser(port: ports[1])
        for (name, value) in drawing.cookies { posting.setCookie(name, value) }
        let saved = try posting.post("/settings", form: [("layout", "grid"), ("_csrf", token)])
        #expect(saved.status == 303)
        let third = Browser(port: ports[2])
        for (name, value) in posting.cookies { third.setCookie(name, value) }
        #expect(try third.get("/").text.contains("grid"))

        // One instance SIGKILLed under load: nginx routes around it; restarted, it ships what it had.
        var stop = StopFlag()
        var running = load(through: nginx.port, threads: 2, limit: 2000, stop: stop)
        try stop.waitForRequests(50, "the load is under way")
        fixture.kill(1)
        try stop.waitForRequests(50, "pages asked for with an instance down")
        try fixture.start(1)
        try stop.waitForRequests(50, "pages asked for after the restart")
        stop.set()
        let duringKill = running.wait().flatMap { $0 }
        #expect(!duringKill.isEmpty)
        // nginx retries a request the dead instance failed, unless part of its response had already
        // reached the client (the one request cut mid-answer by the kill, at most).
        #expect(duringKill.filter { $0 != 200 }.count <= 1, "nginx answered \(Set(duringKill)) while an instance was down")
        let afterKill = settle()
        #expect(afterKill.database == afterKill.local)
        #expect(duplicates() == "0")

        // PostgreSQL stopped under load until every instance has failed to reach it, then started:
        // nothing lost, nothing twice.
        stop = StopFlag()
        running = load(through: nginx.port, threads: 2, limit: 4000, stop: stop)
        try stop.waitForRequests(25, "the load is under way")
        try postgres.stop()
        try eventually("every instance found the database gone", timeout: 60) {
            instances.allSatisfy { $0.log.contains("report database unavailable") }
        }
        try stop.waitForRequests(50, "pages asked for while the database is down")
        try postgres.start()
        try stop.waitForRequests(25, "pages asked for once the database is back")
        stop.set()
        let duringOutage = running.wait().flatMap { $0 }
        #expect(duringOutage.allSatisfy { $0 == 200 }, "pages failed while the database was down: \(Set(duringOutage))")
        let afterOutage = settle()
        #expect(afterOutage.database == afterOutage.local)
        #expect(afterOutage.database > afterKill.database + duringOutage.count / 2)
        #expect(duplicates() == "0")

        // /reports on any instance shows the total of all three, once its reader is back: after a
        // failed connection it waits a few seconds before trying again, so it may still show its
        // own log when the shipping has settled. The page of the newest events counts the rows
        // older than the live feed holds one, the younger ones its stream brings.
        Thread.sleep(forTimeInterval: 2.1)
        for port in ports {
            try eventually(timeout: 15) { try HTTPClient(port: port).get("/reports").text.contains("data-source=\"database\"") }
            let page = try HTTPClient(port: port).get("/reports").text
            let total = page.range(of: "data-total>").map { page[$0.upperBound...].prefix { $0.isNumber } }
            #expect(total.map(String.init) == "\(afterOutage.database)")
            let json = try JSONSerialization.jsonObject(with: Data(try HTTPClient(port: port).get("/reports.json").body)) as? [String: Any]
            #expect(json?["source"] as? String == "database")
            #expect(json?["total"] as? Int == afterOutage.database)
            #expect(((json?["database"] as? [String: Any])?["instances"] as? [Any])?.count == 3)
        }
    }
}

/// Tells load threads to finish.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Requests the load has made so far: how a test knows the load went on through a step.
    let requests = Atomic<Int>(0)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }

    /// Waits until the load has made `count` more requests than now.
    func waitForRequests(_ count: Int, _ what: String) throws {
        let start = requests.load(ordering: .relaxed)
        try eventually(what, timeout: 60) { requests.load(ordering: .relaxed) >= start + count }
    }
}
