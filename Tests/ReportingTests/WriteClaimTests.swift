import Basics
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Reporting

/// A withdrawal that falls while the writer is writing the event leaves the outcome to that write:
/// kept and told `true` if it succeeds, dropped and told `false` (never written later) if not.
@Suite struct WriteClaimTests {
    /// A log whose first write waits until the test lets it go, then succeeds or fails with EIO.
    private func log(in directory: TemporaryDirectory, firstWriteFails: Bool,
                     entered: DispatchSemaphore, gate: DispatchSemaphore) throws -> ReportLog {
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        let calls = Mutex(0)
        configuration.writeBytes = { fd, bytes in
            guard calls.withLock({ count in defer { count += 1 }; return count }) == 0 else { return FileIO.writeAll(fd, bytes) }
            entered.signal()
            gate.wait()
            return firstWriteFails ? (0, EIO) : FileIO.writeAll(fd, bytes)
        }
        return try ReportLog(configuration: configuration)
    }

    private func requests(_ log: ReportLog) throws -> [String] {
        try storeLines(log.store).map { try ReportEvent(jsonLine: $0).request ?? "" }
    }

    @Test func withdrawnDuringASuccessfulWriteItIsWrittenAndToldSo() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let entered = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let log = try log(in: directory, firstWriteFails: false, entered: entered, gate: gate)
        let claim = WriteClaim()
        let outcomes = Collected<Bool>()
        log.record(ReportEvent(.horizontalSwipe, request: "held"), claim: claim) { outcomes.append($0) }
        try #require(entered.wait(timeout: .now() + 10) == .success, "the writer took the event")
        #expect(!claim.withdraw(), "a write holds it: its outcome decides")
        gate.signal()
        log.shutdown()
        #expect(outcomes.all == [true])
        #expect(try requests(log) == ["held"])
    }

    @Test func withdrawnDuringAFailedWriteItIsDroppedAndNeverWritten() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let entered = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let log = try log(in: directory, firstWriteFails: true, entered: entered, gate: gate)
        let claim = WriteClaim()
        let outcomes = Collected<Bool>()
        log.record(ReportEvent(.horizontalSwipe, request: "withdrawn"), claim: claim) { outcomes.append($0) }
        try #require(entered.wait(timeout: .now() + 10) == .success, "the writer took the event")
        #expect(!claim.withdraw())
        gate.signal()
        // The next write succeeds; the withdrawn event is not retried with it.
        let later = DispatchSemaphore(value: 0)
        log.record(ReportEvent(.horizontalSwipe, request: "later")) { _ in later.signal() }
        #expect(later.wait(timeout: .now() + 10) == .success)
        log.shutdown()
        #expect(outcomes.all == [false])
        #expect(try requests(log) == ["later"])
    }

    @Test func withdrawnWhileItWaitsItIsNeverWritten() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let entered = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
        let log = try log(in: directory, firstWriteFails: false, entered: entered, gate: gate)
        // The writer is held in the write of a first event; the second waits in the queue.
        log.record(ReportEvent(.horizontalSwipe, request: "first")) { _ in }
        try #require(entered.wait(timeout: .now() + 10) == .success)
        let claim = WriteClaim()
        let outcomes = Collected<Bool>()
        log.record(ReportEvent(.horizontalSwipe, request: "withdrawn"), claim: claim) { outcomes.append($0) }
        #expect(claim.withdraw())
        gate.signal()
        log.shutdown()
        #expect(outcomes.all == [false])
        #expect(try requests(log) == ["first"])
    }
}
