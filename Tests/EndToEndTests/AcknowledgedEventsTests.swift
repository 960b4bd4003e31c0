import Foundation
import Testing
import TestSupport

/// `POST /report` answers 204 only once its line is written: a `kill -9` loses no acknowledged event.
@Suite struct AcknowledgedEventsTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("acknowledged-reports") }

    func start() throws -> ServerProcess { try .reporting(to: folder, eventLimits: false) }

    /// The request ids in the log, skipping a line torn by the kill.
    func loggedRequests() throws -> Set<String> {
        let text = try ReportSegments.text(of: logPath)
        return Set(text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["request"] as? String
        })
    }

    @Test func killNineUnderPostingLoadLosesNoAcknowledgedEvent() throws {
        let server = try start()
        let port = server.port
        let load = Threads.start(16) { _ -> [String] in
            let session = Browser(port: port)
            var acknowledged: [String] = []
            guard (try? session.get("/")) != nil else { return acknowledged }
            for row in 0..<400 {
                guard let response = try? session.post("/report", withToken: [
                    ("event", "horizontal_swipe"), ("layout", "grid"), ("row", "\(row % 3)")]) else { break }
                if response.status == 204 { acknowledged.append(response.header("X-Request-Id") ?? "") }
            }
            return acknowledged
        }
        // Killed while the posts are pouring in: some hundreds are already in the log.
        try eventually("500 swipes in the log", timeout: 60) {
            ((try? ReportSegments.text(of: logPath))?.components(separatedBy: "horizontal_swipe").count ?? 0) >= 500
        }
        server.signal(SIGKILL)
        let acknowledged = load.wait().flatMap { $0 }
        _ = server.waitForExit()
        // A restart takes the log as the kill left it and appends to it.
        let restarted = try start()
        #expect(try restarted.client.get("/healthz").status == 200)
        restarted.signal(SIGTERM)
        #expect(restarted.waitForExit() == 0)
        let logged = try loggedRequests()
        // About 500 lines were written before the kill; the responses of the last ones may not have
        // reached their clients, so fewer may count as acknowledged (never none).
        #expect(acknowledged.count >= 300)
        #expect(acknowledged.count < 16 * 400, "the kill came during the load")
        let lost = acknowledged.filter { !logged.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged events are not in the log")
    }
}
