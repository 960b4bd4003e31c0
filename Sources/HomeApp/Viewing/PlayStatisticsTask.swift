import Basics
import Foundation
import Logging
import Reporting
import Synchronization

/// Keeps `PlayStatistics` current: computed from the report log's `play_started` lines of the
/// last 30 days at start and then every `interval` seconds (a minute), on a thread of its own at
/// low priority. Requests only read the last result.
final class PlayStatisticsTask: Service {
    let name = "play statistics"
    private let store: ReportStore
    private let interval: Double
    private let logger: Logger
    private let current = Mutex(PlayStatistics.empty)
    /// `statistics.version`, read by every home request (its cache key) without the lock.
    private let currentVersion = Atomic(0)
    private let stopping = Atomic(false)
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    init(store: ReportStore, interval: Double, logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    /// The last statistics computed (empty until the first is done).
    var statistics: PlayStatistics { current.withLock { $0 } }

    var version: Int { currentVersion.load(ordering: .acquiring) }

    func start() throws {
        let worker = try WorkerThread(name: "play-stats", niceness: 10) { [self] in
            repeat {
                // A new version only when Trending now changed: cached pages are made again then.
                let last = statistics
                guard let computed = compute(version: last.version + 1) else { return }
                let kept = computed.trending == last.trending && last.version > 0
                    ? PlayStatistics(version: last.version, trending: last.trending, related: computed.related) : computed
                current.withLock { $0 = kept }
                currentVersion.store(kept.version, ordering: .releasing)
            } while !doorbell.wait(seconds: interval) && !stopping.load(ordering: .relaxed)
        }
        thread.withLock { $0 = worker }
    }

    func shutdown() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
    }

    /// Reads the window's starts and computes; nil when shut down meanwhile.
    private func compute(version: Int) -> PlayStatistics? {
        let now = Date()
        var starts: [PlayStatistics.Start] = []
        var lines = store.lines(since: now.addingTimeInterval(-PlayStatistics.coViewingWindow)).makeIterator()
        while let chunk = lines.next() {
            if stopping.load(ordering: .relaxed) { return nil }
            for line in chunk.split(separator: UInt8(ascii: "\n")) {
                guard EventLineSniff.name(of: line, startsWithAnyOf: Self.prefix),
                      let event = try? ReportEvent(jsonLine: line), event.name == .playStarted,
                      let visitor = event.visitor, let item = event.item else { continue }
                starts.append(PlayStatistics.Start(time: event.timestamp, visitor: visitor, item: item))
            }
        }
        if let failure = lines.failure { logger.warning("play statistics cut short", metadata: ["reason": "\(failure)"]) }
        return PlayStatistics.compute(starts, now: now, version: version)
    }

    private static let prefix = [Array("play_started\"".utf8)]
}
