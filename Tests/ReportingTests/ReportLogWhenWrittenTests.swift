import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Reporting

/// `record(_:whenWritten:)`: the callback comes once the line is in a segment, or once it is lost.
@Suite struct ReportLogWhenWrittenTests {
    /// Every segment's text, active and closed (this log is too small to close one).
    private func text(of directory: String) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
            .map { (try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8)) ?? "" }.joined()
    }

    @Test func eachCallbackFindsItsLineAlreadyInTheFile() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports")
        let log = try ReportLog(configuration: .init(directory: path))
        let outcomes = Collected<Bool>()
        DispatchQueue.concurrentPerform(iterations: 16) { client in
            for index in 0..<50 {
                let id = "c\(client)-\(index)"
                log.record(ReportEvent(.launch, layout: "grid", request: "plain-\(id)"))
                log.record(ReportEvent(.horizontalSwipe, layout: "grid", request: id)) { written in
                    outcomes.append(written && text(of: path).contains("\"request\":\"\(id)\""))
                }
            }
        }
        log.shutdown()
        #expect(outcomes.all.count == 800)
        #expect(outcomes.all.allSatisfy { $0 })
    }

    @Test func eventsDroppedBelowTheFreeSpaceFloorAreCalledBackFalse() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.freeSpace = { _ in (available: 1, total: 1_000_000) }
        let log = try ReportLog(configuration: configuration)
        let outcomes = Collected<Bool>()
        for index in 0..<5 {
            log.record(ReportEvent(.horizontalSwipe, request: "r\(index)")) { outcomes.append($0) }
        }
        log.shutdown()
        #expect(outcomes.all == [false, false, false, false, false])
        #expect(log.dropped == 5)
    }

    @Test func anEventRecordedAfterShutdownIsCalledBackFalseAtOnce() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = try ReportLog(configuration: .init(directory: directory.path("reports")))
        log.shutdown()
        let outcome = Mutex<Bool?>(nil)
        log.record(ReportEvent(.horizontalSwipe)) { written in outcome.withLock { $0 = written } }
        #expect(outcome.withLock { $0 } == false)
    }
}
