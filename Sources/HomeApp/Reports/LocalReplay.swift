#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Reporting

/// Sends a resuming watcher the lines written after the position it names, read from the store
/// a chunk at a time and only as fast as the watcher takes them, then hands it to the live feed.
struct LocalReplay: Sendable {
    let store: ReportStore
    let after: ReportPosition
    let watcher: LiveWatcher
    /// The most a catch-up may wait for its watcher before it is cut (and resumes again).
    static let patience: Duration = .seconds(10)

    func run() {
        let stream = watcher.stream
        let clock = ContinuousClock()
        let deadline = clock.now + Self.patience
        var last: ReportPosition?
        var lines = store.lines(after: after).makeIterator()
        var events: [UInt8] = []
        while true {
            let line = lines.nextLine()
            if let line, ServerSentEvents.isLine(line.text) {
                events += ServerSentEvents.event(line.text, at: line.position)
                last = line.position
            }
            guard events.count >= 8 * 1024 || (line == nil && !events.isEmpty) else {
                if line == nil { break } else { continue }
            }
            while stream.pendingBytes > stream.maximumPendingBytes / 2 {
                guard clock.now < deadline, !stream.isClosed, !stream.isFinished else { stream.finish(); return }
                usleep(10_000)
            }
            guard !stream.isClosed, !stream.isFinished else { return }
            stream.write(events)
            events = []
            if line == nil { break }
        }
        watcher.caughtUp(through: last ?? after)
    }
}
