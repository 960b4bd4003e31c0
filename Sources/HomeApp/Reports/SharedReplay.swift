import Foundation
import ReportDatabase
import Reporting

/// Sends a watcher of every instance's lines that resumes (`Last-Event-ID`, a key of the shared
/// order) the rows after that key, read from the report database a page at a time and only as
/// fast as the watcher takes them, then hands it to the live feed. Bounded: an id older than
/// `window` resumes at the window's start after a `gap` event; past `maxEvents` the stream ends
/// and the client, reconnecting with its last id, gets the next ones.
struct SharedReplay: Sendable {
    let reports: SharedReports
    let after: SharedEventKey
    let watcher: LiveWatcher
    /// How far back a watcher may resume.
    static let window: TimeInterval = 3600
    /// The most events one connection replays.
    static let maxEvents = 10_000

    func run() {
        let stream = watcher.stream
        let clock = ContinuousClock()
        let deadline = clock.now + LiveReplay.patience
        let now = Date()
        let windowStart = ReportTimestamp.string(from: now.addingTimeInterval(-Self.window))
        var start = after
        if after.time < windowStart {
            stream.write(Array("event: gap\ndata: {\"from\":\"\(after.time)\",\"to\":\"\(windowStart)\"}\n\n".utf8))
            start = .before(windowStart)
        }
        // The live feed passes rows on once they are this old; it takes over from there.
        var rows = SharedEventsAfter(reports, after: start, until: ReportTimestamp.string(from: now.addingTimeInterval(-SharedLineFeed.hold)))
        var sent = 0
        do {
            while let events = try rows.next() {
                while stream.pendingBytes > stream.maximumPendingBytes / 2 {
                    guard clock.now < deadline, !stream.isClosed, !stream.isFinished else { stream.finish(); return }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                guard !stream.isClosed, !stream.isFinished else { return }
                stream.write(ServerSentEvents.events(SharedLineFeed.Batch(ordered: events)))
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
        watcher.caughtUp(throughShared: rows.position)
    }
}
