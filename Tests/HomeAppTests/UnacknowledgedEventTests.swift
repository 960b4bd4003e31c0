import Foundation
import HomeApp
import HomeAppTestSupport
import Testing
import TestSupport

/// A `POST /report` answered 503 (its line not written in time) is not written later either: a
/// client that retries it makes no duplicate.
@Suite struct UnacknowledgedEventTests {
    @Test func aPostAnswered503IsNotWrittenOnceTheDiskRecovers() throws {
        let fixture = try AppFixture { configuration in
            configuration.reportAcknowledgementTimeout = .milliseconds(300)
            // Small segments: one closes after a few lines and the next cannot be opened.
            configuration.reportSegmentBytes = 1024
            configuration.reportVisitorRate = 0
            configuration.reportAddressRate = 0
        }
        let session = fixture.browser()
        try session.get("/")
        let swipe = [("event", "horizontal_swipe"), ("layout", "grid"), ("row", "0")]
        #expect(try session.post("/report", withToken: swipe).status == 204)
        // The directory gives way to a file: the segment being written fills, no new one opens.
        let log = fixture.reportLog.path, away = log + ".away"
        try FileManager.default.moveItem(atPath: log, toPath: away)
        try Data().write(to: fixture.reportLog)
        var refused: [String] = []
        for _ in 0..<40 where refused.count < 3 {
            let response = try session.post("/report", withToken: swipe)
            if response.status == 503 { refused.append(try #require(response.header("X-Request-Id"))) }
        }
        try #require(refused.count == 3, "posts were answered 503 once the segment was full")
        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.moveItem(atPath: away, toPath: log)
        // Written after everything still queued before it.
        #expect(try session.post("/report", withToken: swipe).status == 204)
        let requests = Set(try fixture.events().compactMap(\.request))
        let written = refused.filter { requests.contains($0) }
        #expect(written.isEmpty, "\(written.count) of \(refused.count) posts answered 503 were written after all")
    }
}
