import Foundation
import Synchronization
import Testing
import TestSupport

/// The report log through the real `dynamic-home` process: durable, concurrent, watchable.
@Suite struct ReportLogOverHTTPTests {
    /// The report logs; removed when the test is over, after its servers have exited (each test's
    /// `ServerProcess` is stopped when the test returns, before the suite is released).
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }
    let publicFolder = ServerProcess.publicFolder

    init() throws { folder = try TemporaryDirectory("reports") }

    func start(_ extra: [String] = [], log: String? = nil) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", log ?? logPath] + extra)
    }

    func logText(_ path: String? = nil) throws -> String {
        try ReportSegments.text(of: path ?? logPath)
    }

    func lines(_ path: String? = nil) throws -> [[String: Any]] {
        let text = try logText(path)
        return try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A visitor with a cookie and token, then up to `count` swipes on one keep-alive connection;
    /// the request ids of those answered 2xx, until the server stops answering.
    static func swipe(port: UInt16, count: Int) -> [String] {
        let session = Browser(port: port)
        var accepted: [String] = []
        guard (try? session.get("/")) != nil else { return accepted }
        for row in 0..<count {
            guard let response = try? session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "\(row % 3)")])
            else { break }
            if (200..<300).contains(response.status) { accepted.append(response.header("X-Request-Id") ?? "") }
        }
        return accepted
    }

    /// Loads from one address and few visitors, past any rate limit.
    static let unlimited = ["--report-visitor-rate", "0", "--report-address-rate", "0"]

    @Test func sixtyFourClientsPostingFiveHundredEventsEachGiveExactly32000Lines() throws {
        let server = try start(Self.unlimited)
        let port = server.port
        let accepted = Threads.start(64) { _ in Self.swipe(port: port, count: 500).count }.wait().reduce(0, +)
        #expect(accepted == 32_000)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let swipes = try lines().filter { $0["event"] as? String == "horizontal_swipe" }
        #expect(swipes.count == 32_000)
        #expect(swipes.allSatisfy { $0["timestamp"] is String && $0["visitor"] is String && $0["layout"] as? String == "grid" })
    }

    @Test func sigtermDuringLoadLosesNoAcceptedEvent() throws {
        let server = try start(Self.unlimited)
        let port = server.port
        let load = Threads.start(8) { _ in Self.swipe(port: port, count: 3_000) }
        // SIGTERM once the load is under way: swipes are reaching the log.
        try eventually("swipes reach the log", timeout: 60) { (try? logText())?.contains("horizontal_swipe") == true }
        server.signal(SIGTERM)
        let accepted = load.wait().flatMap { $0 }
        #expect(server.waitForExit() == 0)
        let logged = Set(try lines().compactMap { $0["request"] as? String })
        #expect(!accepted.isEmpty)
        #expect(accepted.allSatisfy(logged.contains), "every 2xx event is in the log")
    }

    @Test func aWatcherReceivesAnActionsEventWithinOneSecond() throws {
        let server = try start()
        let watcher = try HTTPConnection(port: server.port)
        try watcher.send("GET /reports/stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try watcher.readStreamHead().header("Content-Type") == "text/event-stream")
        _ = try watcher.readChunk()  // the greeting
        let session = Browser(port: server.port)
        try session.get("/?layout=list")
        let posted = try session.post("/home/actions", withToken: [("layout", "list"), ("open", "0.0")])
        #expect(posted.status == 303)
        let sent = ContinuousClock.now
        var received: String?
        while received == nil, let chunk = try watcher.readChunk() {
            let text = String(decoding: chunk, as: UTF8.self)
            if text.contains("\"event\":\"long_selected\"") { received = text }
        }
        #expect(ContinuousClock.now - sent < .seconds(1))
        #expect(received?.hasPrefix("id: ") == true)
        #expect(received?.contains("\ndata: {") == true)
        #expect(received?.contains(posted.header("X-Request-Id") ?? "?") == true)
    }

    @Test func aHundredWatchersAllReceiveEventsAndPagesAreStillServed() throws {
        let server = try start()
        let watchers = try (0..<100).map { _ in
            let watcher = try HTTPConnection(port: server.port)
            try watcher.send("GET /reports/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try watcher.readStreamHead().status == 200)
            _ = try watcher.readChunk()  // the greeting
            return watcher
        }
        let session = Browser(port: server.port)
        for _ in 0..<20 { #expect(try session.get("/?layout=grid").status == 200) }
        let request = try #require(try session.get("/?layout=list").header("X-Request-Id"))
        for watcher in watchers {
            var seen = false
            while !seen, let chunk = try watcher.readChunk() {
                seen = String(decoding: chunk, as: UTF8.self).contains(request)
            }
            #expect(seen)
        }
    }

    @Test func aTornLastLineIsCutAndTheRestServed() throws {
        let good = #"{"timestamp":"2026-11-21T12:00:00.123Z","event":"launch","layout":"grid","visitor":"v1","request":"r1"}"#
        try FileManager.default.createDirectory(atPath: logPath, withIntermediateDirectories: true)
        let segment = logPath + "/events-20261121T120000.123Z.jsonl"
        try (good + "\n" + #"{"timestamp":"2026-11-21T12:00:01.000Z","event":"lau"#).write(toFile: segment, atomically: true, encoding: .utf8)
        let server = try start()
        let page = try server.client.get("/reports")
        #expect(page.status == 200)
        #expect(page.text.contains("r1"))
        try Browser(port: server.port).get("/")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let text = try logText()
        let parsed = text.split(separator: "\n").filter { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }
        #expect(parsed.count == text.split(separator: "\n").count, "the torn line was cut")
        #expect(parsed.contains { $0.contains("\"event\":\"launch\"") && !$0.contains("r1") })
    }

    @Test func aStdoutMirrorNobodyReadsNeitherStopsTheFileLogNorShutdown() throws {
        // The event limits off: one visitor writes far more than a visitor may.
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", logPath, "--report-stdout",
                                                   "--report-visitor-rate", "0", "--report-address-rate", "0"],
                                       stalledStandardOutput: true)
        let session = Browser(port: server.port)
        // Far more lines than the pipe holds (64 KiB): its reader never reads.
        var served = 0
        for _ in 0..<600 where (try? session.get("/?layout=list").status) == 200 { served += 1 }
        #expect(served == 600)
        let stopping = ContinuousClock.now
        server.signal(SIGTERM)
        #expect(server.waitForExit(timeout: 10) == 0)
        #expect(ContinuousClock.now - stopping < .seconds(10))
        let launches = try lines().filter { $0["event"] as? String == "launch" }
        #expect(launches.count >= 600)
    }

    @Test func theOldFileIsImportedAndServedAndCheckFailsOnATamperedRollup() throws {
        let file = folder.path("old.jsonl")
        let old = (0..<500).map { index in
            #"{"timestamp":"2026-11-21T12:\#(String(format: "%02d", index / 60)):\#(String(format: "%02d", index % 60)).000Z","event":"launch","layout":"grid","visitor":"v\#(index % 7)","request":"old-\#(index)"}"#
        }
        try (old.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ServerProcess(arguments: ["reports", "import", file, "--report-log", logPath], waitForListening: false)
        #expect(imported.waitForExit() == 0)
        #expect(imported.log.contains("imported 500 events"))
        let checked = try ServerProcess(arguments: ["reports", "check", "--report-log", logPath], waitForListening: false)
        #expect(checked.waitForExit() == 0)
        // The plain command serves the imported store.
        let server = try start()
        let raw = try server.client.get("/reports.jsonl?since=2026-11-21T12:08:00.000Z").text
        #expect(raw.split(separator: "\n").count == 20)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        // A rollup rewritten wrong but whole: check says which and exits 1.
        let rollup = try #require(try FileManager.default.contentsOfDirectory(atPath: logPath).first { $0.hasSuffix(".rollup") })
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: logPath + "/" + rollup)))
        bytes[bytes.count - 1] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: logPath + "/" + rollup))
        let failed = try ServerProcess(arguments: ["reports", "check", "--report-log", logPath], waitForListening: false)
        #expect(failed.waitForExit() == 1)
        #expect(failed.log.contains("mismatch: events-"))
    }

    @Test func anOldSingleFileLogIsRefusedWithOneLineNamingTheImport() throws {
        let file = folder.path("reports.jsonl")
        try "{}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", file], waitForListening: false)
        #expect(server.waitForExit() != 0)
        let lines = server.log.split(separator: "\n").filter { $0.hasPrefix("dynamic-home:") }
        #expect(lines.count == 1, "\(server.log)")
        #expect(lines.first?.contains("dynamic-home reports import \(file) --report-log") == true)
    }

    @Test func anUnwritableLogKeepsTheServerServing() throws {
        let missing = folder.path("not-yet/reports")
        let server = try start(log: missing)
        // The server made the folder at start; gone from under it, it cannot be made again
        // (its parent is gone too) until the test makes it.
        try FileManager.default.removeItem(atPath: folder.path("not-yet"))
        let session = Browser(port: server.port)
        #expect(try session.get("/").status == 200)
        // The post is answered once its line is written: after the folder appears. Meanwhile
        // the server serves.
        let port = server.port, folderPath = folder.path("not-yet")
        let meanwhile = Threads.start(1) { _ -> Int? in
            // The post waits (the metrics request is the other one in flight).
            guard (try? eventually("the post is waiting") {
                try HTTPClient(port: port).get("/metrics").text.contains("dynamic_home_http_requests_in_flight 2\n")
            }) != nil else { return nil }
            let health = try? HTTPClient(port: port).get("/healthz").status
            try? FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true)
            return health
        }
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "0")]).status == 204)
        #expect(meanwhile.wait() == [200])
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        #expect(try lines(missing).contains { $0["event"] as? String == "horizontal_swipe" }, "kept and retried")
    }

    @Test func boundToAllInterfacesTheReportsNeedTheToken() throws {
        let server = try start(["--host", "0.0.0.0", "--report-token", "s3cret-report-token"])
        for path in ["/reports", "/reports.jsonl", "/reports/stream"] {
            let refused = try server.client.get(path)
            #expect(refused.status == 401, "\(path)")
            #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
        #expect(try server.client.get("/reports", headers: [("Authorization", "Bearer wrong")]).status == 401)
        #expect(try server.client.get("/reports", headers: [("Authorization", "Bearer s3cret-report-token")]).status == 200)
        let session = Browser(port: server.port)
        try session.get("/reports/login")
        // A wrong token is sent on to the form again, which says so with a 401: Back or a reload posts nothing.
        let wrong = try session.post("/reports/login", withToken: [("token", "nope"), ("next", "/admin")])
        #expect(wrong.status == 303 && wrong.header("Location") == "/reports/login?refused&next=%2Fadmin")
        let refused = try session.get("/reports/login?refused&next=%2Fadmin")
        #expect(refused.status == 401 && refused.text.contains("That is not the report token.")
                && refused.text.contains(#"name="next" value="/admin""#), "\(refused.text)")
        #expect(try session.post("/reports/login", withToken: [("token", "s3cret-report-token")]).status == 303)
        #expect(try session.get("/reports").status == 200)
        #expect(try session.get("/reports.jsonl").status == 200)
    }

    @Test func aBeaconReachesTheGridsInjectedSwipeReporting() throws {
        let server = try start()
        let session = Browser(port: server.port)
        let grid = try session.get("/?layout=grid").text
        // The grid's second row (films: live streams come first); a tile's id names its position.
        let tile = try #require(grid.range(of: "id=\"grid-tile-1-2\""))
        let poster = try #require(grid[tile.upperBound...].range(of: "posters/"))
        let item = String(grid[poster.upperBound...].prefix { $0 != "." })
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"),
                                                        ("row", "1"), ("item", item)]).status == 204)
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"),
                                                        ("row", "0"), ("item", item)]).status == 400)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let swipes = try lines().filter { $0["event"] as? String == "horizontal_swipe" }
        #expect(swipes.count == 1)
        let properties = swipes.first?["properties"] as? [String: String]
        #expect(swipes.first?["item"] as? String == item)
        #expect(properties?["row"] == "1" && properties?["to"] == "2" && properties?["via"] == "scroll")
    }

    @Test func onLoopbackTheReportsAreOpen() throws {
        let server = try start()
        #expect(try server.client.get("/reports").status == 200)
        #expect(try server.client.get("/reports.jsonl?since=2026-01-01T00:00:00Z").status == 200)
        #expect(try server.client.get("/reports.jsonl?since=yesterday").status == 400)
    }

    @Test func theBrowserMayOnlyReportItsOwnEvents() throws {
        let server = try start()
        let session = Browser(port: server.port)
        try session.get("/")
        #expect(try session.post("/report", withToken: [("event", "launch"), ("layout", "grid")]).status == 400)
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "nope")]).status == 400)
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "9")]).status == 400)
        #expect(try session.post("/report", form: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "1")]).status == 403)
        #expect(try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "1")]).status == 204)
    }
}
