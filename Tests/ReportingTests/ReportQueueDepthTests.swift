import Basics
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Reporting

/// The queue-depth gauge (`status.pending`) and the bound on a line's size.
@Suite struct ReportQueueDepthTests {
    /// Holds the writer in its first and third `write` until released.
    final class WriteGate: Sendable {
        let calls = Atomic<Int>(0)
        let first = DispatchSemaphore(value: 0)
        let third = DispatchSemaphore(value: 0)

        func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (count: Int, error: Int32) {
            let call = calls.add(1, ordering: .relaxed).newValue
            if call == 1 { first.wait() }
            if call == 3 { third.wait() }
            return FileIO.writeAll(fd, bytes)
        }
    }

    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test func theGaugeFollowsEachChunkWrittenAndReturnsToZero() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let gate = WriteGate()
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.writeBytes = { gate.write($0, $1) }
        let log = try ReportLog(configuration: configuration)
        let delivered = Count()
        _ = log.subscribe { _ in delivered.value.add(1, ordering: .relaxed) }
        // The writer waits in its first write while 1,000 lines of about 1 KB are queued: the next
        // round takes them all, about 115 a chunk, and waits again in its second chunk.
        log.record(event(at: dayStart, item: "gate"))
        try eventually("the first write began") { gate.calls.load(ordering: .relaxed) == 1 }
        let pad = String(repeating: "p", count: 1000)
        for index in 0..<1000 { log.record(event(at: dayStart + 1 + Int64(index), item: "i\(index)", properties: ["pad": pad])) }
        gate.first.signal()
        try eventually("the third write began") { gate.calls.load(ordering: .relaxed) == 3 }
        let written = delivered.value.load(ordering: .relaxed)
        #expect(written > 1 && written < 1001)
        #expect(log.status.pending == 1001 - written, "written chunks no longer count as waiting")
        gate.third.signal()
        try eventually("every line written") { log.status.written == 1001 }
        #expect(log.status.pending == 0)
        log.shutdown()
        #expect(storeLines(log.store).count == 1001)
    }

    @Test func anEventTooLargeForALineIsDroppedAndCounted() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = try ReportLog(directory: directory.path("reports"))
        let told = Collected<Bool>()
        log.record(event(at: dayStart, item: "before"))
        log.record(event(at: dayStart + 1, item: "huge", properties: ["pad": String(repeating: "x", count: 11_000)])) { told.append($0) }
        log.record(event(at: dayStart + 2, item: "after", properties: ["pad": String(repeating: "x", count: 9_000)]))
        log.shutdown()
        #expect(told.all == [false])
        #expect(log.status.dropped == 1)
        #expect(log.status.pending == 0)
        let items = try storeLines(log.store).map { try ReportEvent(jsonLine: $0).item }
        #expect(items == ["before", "after"])
    }
}
