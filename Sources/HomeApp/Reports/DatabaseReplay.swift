#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ReportDatabase
import Reporting

/// Sends a watcher of every instance's lines that resumes (`Last-Event-ID`, a key of the shared
/// order) the rows after that key, read from the report database a page at a time and only as
/// fast as the watcher takes them, then hands it to the live feed. Bounded: an id older than
/// `window` resumes at the window's start after a `gap` event; past `maxEvents` the stream ends
/// and the client, reconnecting with its last id, gets the next ones.
struct DatabaseReplay: Sendable {
    let reports: DatabaseReports
    let after: DatabaseEventKey
    let watcher: LiveWatcher
    /// How far back a watcher may resume.
    static let window: TimeInterval = 3600
    /// The most events one connection replays.
    static let maxEvents = 10_000

    func run() {
        let stream = watcher.stream
        let clock = ContinuousClock()
        let deadline = clock.now + LocalReplay.patience
        let now = Date()
        let windowStart = ReportTimestamp.string(from: now.addingTimeInterval(-Self.window))
        var start = after
        if after.time < windowStart {
            stream.write(Array("event: gap\ndata: {\"from\":\"\(after.time)\",\"to\":\"\(windowStart)\"}\n\n".utf8))
            start = .before(windowStart)
        }
        // The live feed passes rows on once they are this old; it takes over from there.
        var rows = DatabaseEventsAfter(reports, after: start, until: ReportTimestamp.string(from: now.addingTimeInterval(-DatabaseLineFeed.hold)))
        var sent = 0
        do {
            while let events = try rows.next() {
                guard send(events, to: stream, before: deadline) else { return }
                sent += events.count
                if sent >= Self.maxEvents {
                    stream.write(Array(": more to replay; reconnect with the last id\n\n".utf8))
                    stream.finish()
                    return
                }
            }
        } catch {
            stream.write(Array("retry: 5000\n: the report database cannot answer; reconnect later\n\n".utf8))
            stream.finish()
            return
        }
        watcher.caughtUp(throughDatabase: rows.position)
    }

    /// Writes a page of rows a piece at a time, each piece under a quarter of the watcher's buffer
    /// and written only once less than half of it is queued: a page written whole (a thousand rows
    /// are about 300 KB) went over the buffer, and the stream was cut before it sent anything.
    /// False when the stream ended, or the watcher fell behind for longer than the catch-up waits.
    private func send(_ events: [DatabaseEvent], to stream: ResponseStream, before deadline: ContinuousClock.Instant) -> Bool {
        let piece = stream.maximumPendingBytes / 4
        var bytes: [UInt8] = []
        for (index, event) in events.enumerated() {
            bytes += ServerSentEvents.events(DatabaseLineFeed.Batch(ordered: [event]))
            guard bytes.count >= piece || index == events.count - 1 else { continue }
            while stream.pendingBytes > stream.maximumPendingBytes / 2 {
                guard ContinuousClock.now < deadline, !stream.isClosed, !stream.isFinished else { stream.finish(); return false }
                stream.waitForRoom(below: stream.maximumPendingBytes / 2 + 1, seconds: 0.25)
            }
            guard stream.write(bytes) else { return false }
            bytes = []
        }
        return true
    }
}
