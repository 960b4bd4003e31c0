import Foundation
import Testing

@testable import Reporting

/// The queue between the log and its writer thread.
@Suite struct ReportChannelTests {
    private func event(_ index: Int) -> PendingEvent {
        PendingEvent(event: ReportEvent(.longSelected, item: "i\(index)"), whenWritten: nil)
    }

    private func wakeRequested(_ channel: ReportChannel) -> Bool { channel.state.withLock { $0.wakeRequested } }

    /// The writer takes a burst in batches of about 2,048 events. Each batch is an array of
    /// pending events whose capacity the writer keeps for the next, so this bound is the memory a
    /// fast stream of page views holds for good (at 8,192, several MiB).
    @Test func aLongQueueWakesTheWriterAt2048Events() {
        let channel = ReportChannel(capacity: 100_000)
        for index in 0..<2047 { #expect(channel.send(event(index)) == nil) }
        #expect(!wakeRequested(channel))
        #expect(channel.send(event(2047)) == nil)
        #expect(wakeRequested(channel))
    }

    /// A small buffer wakes the writer when half full, so a burst is written before it drops any.
    @Test func aSmallBufferWakesTheWriterHalfFull() {
        let channel = ReportChannel(capacity: 100)
        for index in 0..<49 { _ = channel.send(event(index)) }
        #expect(!wakeRequested(channel))
        _ = channel.send(event(49))
        #expect(wakeRequested(channel))
    }
}
