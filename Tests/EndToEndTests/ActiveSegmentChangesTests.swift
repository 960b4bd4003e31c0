import Foundation
import Testing
import TestSupport

/// The active segment deleted or cut short under the running server: every `POST /report`
/// acknowledged afterwards is still in the log, parsable, after a `kill -9` and a restart.
@Suite struct ActiveSegmentChangesTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("active-segment-changes") }

    func start() throws -> ServerProcess { try .reporting(to: folder, eventLimits: false) }

    /// Posts `count` swipes one after another; the request ids of those answered 204.
    func post(_ count: Int, from session: Browser) throws -> [String] {
        try (0..<count).map { row in
            let response = try session.post("/report", withToken: [
                ("event", "horizontal_swipe"), ("layout", "grid"), ("row", "\(row % 3)")])
            #expect(response.status == 204)
            return response.header("X-Request-Id") ?? ""
        }
    }

    /// The segment being written: the only plain one of a new log.
    func activeSegment() throws -> String {
        let plain = try FileManager.default.contentsOfDirectory(atPath: logPath).filter { $0.hasSuffix(".jsonl") }
        try #require(plain.count == 1, "one active segment: \(plain)")
        return logPath + "/" + plain[0]
    }

    /// Killed, then started again on the same log (which repairs what the kill left) and stopped.
    func killAndRestart(_ server: ServerProcess) throws {
        server.signal(SIGKILL)
        _ = server.waitForExit()
        let restarted = try start()
        #expect(try restarted.client.get("/healthz").status == 200)
        restarted.signal(SIGTERM)
        #expect(restarted.waitForExit() == 0)
    }

    /// The log's lines: the request ids of those that parse, and how many do not.
    func readLog() throws -> (requests: Set<String>, unparsable: Int) {
        var requests = Set<String>(), unparsable = 0
        for line in try ReportSegments.text(of: logPath).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                unparsable += 1
                continue
            }
            if let request = object["request"] as? String { requests.insert(request) }
        }
        return (requests, unparsable)
    }

    @Test func deletingTheActiveSegmentLosesNoEventAcknowledgedAfterIt() throws {
        let server = try start()
        let session = Browser(port: server.port)
        try session.get("/")
        let before = try post(5, from: session)
        try FileManager.default.removeItem(atPath: try activeSegment())
        let after = try post(30, from: session)
        try killAndRestart(server)
        let log = try readLog()
        // Those acknowledged before the deletion went with the file; none acknowledged after it.
        let lost = after.filter { !log.requests.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(after.count) events acknowledged after the deletion are not in the log")
        #expect(before.allSatisfy { !log.requests.contains($0) })
        #expect(server.log.contains("the active report segment was deleted while being written"))
    }

    /// A post answered 204, and when it was sent.
    struct Acknowledged: Sendable {
        let sent: ContinuousClock.Instant
        let request: String
    }

    @Test func deletingTheActiveSegmentTwiceUnderPostingLoadLosesNothingPostedAfter() throws {
        let server = try start()
        let port = server.port
        let load = Threads.start(8) { _ -> [Acknowledged] in
            let session = Browser(port: port)
            var acknowledged: [Acknowledged] = []
            guard (try? session.get("/")) != nil else { return acknowledged }
            for row in 0..<300 {
                let sent = ContinuousClock.now
                guard let response = try? session.post("/report", withToken: [
                    ("event", "horizontal_swipe"), ("layout", "grid"), ("row", "\(row % 3)")]) else { break }
                if response.status == 204 { acknowledged.append(Acknowledged(sent: sent, request: response.header("X-Request-Id") ?? "")) }
            }
            return acknowledged
        }
        // Deleted while the posts pour in, then again once the writer has opened the next one.
        var lastDeletion = ContinuousClock.now
        for _ in 0..<2 {
            var segment: String?
            try eventually("a new active segment with 100 swipes in it", timeout: 30) {
                segment = try? FileManager.default.contentsOfDirectory(atPath: logPath).first { $0.hasSuffix(".jsonl") }
                guard let segment else { return false }
                return (try? String(contentsOfFile: logPath + "/" + segment, encoding: .utf8))?
                    .components(separatedBy: "horizontal_swipe").count ?? 0 > 100
            }
            let found = try #require(segment)
            try FileManager.default.removeItem(atPath: logPath + "/" + found)
            lastDeletion = ContinuousClock.now
        }
        let acknowledged = load.wait().flatMap { $0 }
        try killAndRestart(server)
        let log = try readLog()
        let after = acknowledged.filter { $0.sent > lastDeletion }
        #expect(after.count >= 100, "the load went on after the deletions")
        let lost = after.filter { !log.requests.contains($0.request) }
        #expect(lost.isEmpty, "\(lost.count) of \(after.count) events posted after the last deletion are not in the log")
        #expect(log.unparsable == 0)
    }

    @Test func cuttingTheActiveSegmentMidLineLosesOnlyTheTornLine() throws {
        let server = try start()
        let session = Browser(port: server.port)
        try session.get("/")
        let before = try post(5, from: session)
        let segment = try activeSegment()
        let size = try #require(FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
        #expect(truncate(segment, off_t(size - 10)) == 0)
        let after = try post(30, from: session)
        // The running server's counts are the file's again: the cut event is not counted.
        let numbers = try JSONSerialization.jsonObject(with: Data(try server.client.get("/reports.json").body)) as? [String: Any]
        let lines = try ReportSegments.text(of: logPath).split(separator: "\n")
        #expect(numbers?["total"] as? Int == lines.count - 1)
        try killAndRestart(server)
        let log = try readLog()
        let lost = after.filter { !log.requests.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(after.count) events acknowledged after the cut are not readable in the log")
        // The cut line is the last one posted before it; it alone is unreadable.
        #expect(before.dropLast().allSatisfy { log.requests.contains($0) })
        #expect(log.unparsable == 1)
        #expect(server.log.contains("the active report segment was changed under the writer"))
    }
}
