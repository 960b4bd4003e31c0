import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Reporting

/// `record(_:whenWritten:)`: the callback comes once the line is in the file, or once it is lost.
@Suite struct ReportLogWhenWrittenTests {
    @Test func eachCallbackFindsItsLineAlreadyInTheFile() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let log = ReportLog(path: path)
        let outcomes = Collected<Bool>()
        DispatchQueue.concurrentPerform(iterations: 16) { client in
            for index in 0..<50 {
                let id = "c\(client)-\(index)"
                // Plain events in between: they take sequence numbers too.
                log.record(.launch, layout: "grid", request: "plain-\(id)")
                log.record(ReportEvent(.horizontalSwipe, layout: "grid", request: id)) { written in
                    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                    outcomes.append(written && text.contains("\"request\":\"\(id)\""))
                }
            }
        }
        log.shutdown()
        #expect(outcomes.all.count == 800)
        #expect(outcomes.all.allSatisfy { $0 })
    }

    @Test func eventsLostToAFullBufferAreCalledBackFalse() throws {
        // A file that cannot be opened: the writer holds two events and drops the older ones.
        let log = ReportLog(configuration: .init(path: "/nonexistent-folder/reports.jsonl", bufferCapacity: 2))
        let outcomes = Collected<Bool>()
        for index in 0..<5 {
            log.record(ReportEvent(.horizontalSwipe, request: "r\(index)")) { outcomes.append($0) }
        }
        log.shutdown()
        #expect(outcomes.all == [false, false, false, false, false])
        #expect(log.status.dropped == 5)
    }

    @Test func anEventRecordedAfterShutdownIsCalledBackFalseAtOnce() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = ReportLog(path: directory.path("reports.jsonl"))
        log.shutdown()
        let outcome = Mutex<Bool?>(nil)
        log.record(ReportEvent(.horizontalSwipe)) { written in outcome.withLock { $0 = written } }
        #expect(outcome.withLock { $0 } == false)
    }
}
