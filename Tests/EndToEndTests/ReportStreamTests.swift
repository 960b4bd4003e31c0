import Foundation
import Synchronization
import Testing
import TestSupport

/// `/reports/stream` through the real process: positions, resuming, and stalled watchers.
@Suite struct ReportStreamTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("report-stream") }

    func start() throws -> ServerProcess { try .reporting(to: folder, eventLimits: false) }

    /// Server-sent events off one connection: each event's id and data, comments skipped.
    final class EventReader {
        let connection: HTTPConnection
        private var text = ""

        init(port: UInt16, lastEventID: String? = nil) throws {
            connection = try HTTPConnection(port: port)
            let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
            try connection.send("GET /reports/stream HTTP/1.1\r\nHost: x\r\n\(resume)\r\n")
        }

        /// Reads a stream already requested on `connection`.
        init(connection: HTTPConnection) { self.connection = connection }

        /// Reads the response head; call once, before `next`.
        var status: Int { (try? connection.readStreamHead().status) ?? 0 }

        /// The next event with data; nil when the stream ends. Heartbeats keep a quiet stream
        /// open, so a wait for an event that never comes ends at `timeout` with an error.
        func next(timeout: TimeInterval = 30) throws -> (id: String?, data: String)? {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let end = text.range(of: "\n\n") {
                    let block = text[..<end.lowerBound]
                    text.removeSubrange(..<end.upperBound)
                    var id: String?, data: String?
                    for line in block.split(separator: "\n") {
                        if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                        if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                    }
                    if let data { return (id, data) }
                    continue
                }
                if Date() > deadline { throw ConditionTimeout(what: "an event on the report stream", seconds: timeout) }
                guard let chunk = try connection.readChunk() else { return nil }
                text += String(decoding: chunk, as: UTF8.self)
            }
        }
    }

    /// A visitor that reports swipes; the request id of each acknowledged one.
    final class Swiper {
        let session: Browser
        init(port: UInt16) throws {
            session = Browser(port: port)
            try session.get("/")
        }
        func swipe() throws -> String? {
            let response = try session.post("/report", withToken: [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "1")])
            return response.status == 204 ? response.header("X-Request-Id") : nil
        }
    }

    static func request(of data: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])?["request"] as? String
    }

    @Test func eventsCarryTheirPositionAndAReconnectResumesRightAfterIt() throws {
        let server = try start()
        let watcher = try EventReader(port: server.port)
        #expect(watcher.status == 200)
        let swiper = try Swiper(port: server.port)
        let first = try (0..<3).map { _ in try #require(try swiper.swipe()) }
        var seen: [(id: String?, data: String)] = []
        while seen.count < 3, let event = try watcher.next() {
            if Self.request(of: event.data).map(first.contains) == true { seen.append(event) }
        }
        #expect(seen.map { Self.request(of: $0.data) } == first)
        let ids = seen.compactMap(\.id)
        #expect(ids.count == 3 && Set(ids).count == 3, "each event has its own position")
        // Gone after the second event; two more are written meanwhile.
        let later = try (0..<2).map { _ in try #require(try swiper.swipe()) }
        let resumed = try EventReader(port: server.port, lastEventID: seen[1].id)
        #expect(resumed.status == 200)
        var replayed: [String] = []
        while replayed.count < 3, let event = try resumed.next() { replayed.append(Self.request(of: event.data) ?? "?") }
        #expect(replayed == [first[2]] + later, "every event after the last one seen, once, in order")
        let live = try #require(try swiper.swipe())
        #expect(try resumed.next().flatMap { Self.request(of: $0.data) } == live, "then live again")
    }

    @Test func thePageOfAnEmptyLogNamesItsStartAndTheStreamSendsEveryLineFromIt() throws {
        let server = try start()
        let page = try Browser(port: server.port).get("/reports")
        let after = try #require(page.text.firstMatch(of: /data-live-reports[^>]*data-after="([^"]+)"/).map { String($0.1) },
                                 "a page of a log with no line yet names where its stream starts")
        // Written (each answered once its line is) after the page was drawn and before its stream
        // opens: the stream sends them, after the lines of the swiper's visit.
        let swiper = try Swiper(port: server.port)
        let written = try (0..<2).map { _ in try #require(try swiper.swipe()) }
        let watcher = try EventReader(port: server.port, lastEventID: after)
        #expect(watcher.status == 200)
        var sent: [String] = []
        while sent.filter(written.contains).count < 2, sent.count < 10, let event = try watcher.next() {
            sent.append(Self.request(of: event.data) ?? "?")
        }
        #expect(sent.filter(written.contains) == written)
        #expect(try swiper.session.get("/reports?before=\(after)").status == 400, "the start is no page's position")
    }

    @Test func aLastEventIDOrAfterThatIsNoPositionGets400NamingWhichItWas() throws {
        // A position is `segment:offset`, as the stream's ids are.
        let server = try start()
        let watcher = try EventReader(port: server.port, lastEventID: "yesterday")
        #expect(watcher.status == 400)
        // Someone who typed `?after=` is told of `after=`, not of a header they never sent.
        for (request, named) in [("GET /reports/stream HTTP/1.1\r\nHost: x\r\nLast-Event-ID: yesterday\r\n", "Last-Event-ID must be"),
                                 ("GET /reports/stream?after=yesterday HTTP/1.1\r\nHost: x\r\n", "after= must be")] {
            let connection = try HTTPConnection(port: server.port)
            try connection.send(request + "Connection: close\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 400 && response.text.contains(named), "\(named): \(response.text)")
        }
    }

    @Test func aLastEventIDPastTheEndOfTheLogGets400() throws {
        let server = try start()
        let watcher = try EventReader(port: server.port)
        #expect(watcher.status == 200)
        let swiper = try Swiper(port: server.port)
        let request = try #require(try swiper.swipe())
        var last: String?
        while last == nil, let event = try watcher.next() {
            if Self.request(of: event.data) == request { last = event.id }
        }
        let id = try #require(last)
        let colon = try #require(id.lastIndex(of: ":"))
        let segment = id[..<colon], offset = try #require(Int(id[id.index(after: colon)...]))
        // Forged: further into the active segment than it reaches, and a segment not yet begun.
        for forged in ["\(segment):\(offset + 1_000_000)", "29991231T235959.999Z:0"] {
            let connection = try HTTPConnection(port: server.port)
            try connection.send("GET /reports/stream HTTP/1.1\r\nHost: x\r\nLast-Event-ID: \(forged)\r\nConnection: close\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 400, "\(forged)")
            #expect(response.text.contains("past the end of the report log"), "\(forged)")
        }
        let resumed = try EventReader(port: server.port, lastEventID: id)
        #expect(resumed.status == 200, "the last id it sent still resumes")
    }

    @Test func fiveHundredStalledWatchersLoseNothingAndKeepTheServerSmall() throws {
        let server = try start()
        let port = server.port
        // Each asks for the stream and never reads another byte.
        // From five addresses: one address may hold 128 connections.
        var stalled = try (0..<500).map { index in
            let connection = try HTTPConnection(port: port, source: "127.0.0.\(2 + index % 5)", receiveBufferBytes: 4096)
            try connection.send("GET /reports/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection
        }
        #expect(try server.client.get("/healthz").status == 200)
        let rss = Mutex(0)
        let posting = Atomic<Bool>(true)
        let sampler = Threads.start(1) { _ in
            while posting.load(ordering: .relaxed) {
                if let kib = server.residentKiB { rss.withLock { $0 = max($0, kib) } }
                Thread.sleep(forTimeInterval: 0.05)  // the sampling period
            }
        }
        let acknowledged = Threads.start(8) { _ -> [String] in
            guard let swiper = try? Swiper(port: port) else { return [] }
            return (0..<1_500).compactMap { _ in try? swiper.swipe() }
        }.wait().flatMap { $0 }
        posting.store(false, ordering: .relaxed)
        _ = sampler.wait()
        if let kib = server.residentKiB { rss.withLock { $0 = max($0, kib) } }
        #expect(try server.client.get("/healthz").status == 200)
        stalled.removeAll()
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let logged = Set(try ReportSegments.text(of: logPath).split(separator: "\n").compactMap {
            Self.request(of: String($0))
        })
        #expect(acknowledged.count == 8 * 1_500)
        #expect(acknowledged.allSatisfy(logged.contains), "nothing acknowledged is missing from the log")
        #expect(!server.log.contains("report events dropped"))
        #expect(rss.withLock { $0 } > 0)
        #expect(rss.withLock { $0 } < 64 * 1024, "the server's RSS reached \(rss.withLock { $0 }) KiB")
    }
}
