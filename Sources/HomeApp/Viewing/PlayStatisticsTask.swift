import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Reporting
import Synchronization

/// Keeps `PlayStatistics` current, on a thread of its own at low priority; requests only read
/// the last result. At start the counts (`PlayCounts`) are rebuilt once from the last 30 days'
/// `play_started` events (every instance's with a report database, else this instance's log:
/// `ViewingEvents`) while the page is served without the lists. From then on each start is
/// handed over as it is recorded here or arrives from another instance, taken into the counts
/// within a second, and the ranked lists are made again from the counts every `interval`
/// seconds (a minute): work in proportion to the new starts and the titles, not to the window.
final class PlayStatisticsTask: Startable {
    let name = "play statistics"
    /// Starts waiting to be counted, at most; more are left out (and logged).
    static let incomingLimit = 1_000_000
    private let events: ViewingEvents
    private let interval: Double
    private let logger: Logger
    /// Starts before this moment come from the rebuild, later ones as they are handed over.
    let rebuiltBefore: Date
    private let current = Mutex(PlayStatistics.empty)
    /// `statistics.version`, read by every home request (its cache key) without the lock.
    private let currentVersion = Atomic(0)
    private let incoming = Mutex<[PlayStatistics.Start]>([])
    private let dropped = Atomic(0)
    private let thread = BackgroundThread(name: "play-stats", niceness: 10)

    init(events: ViewingEvents, interval: Double, logger: Logger, rebuiltBefore: Date = Date()) {
        self.events = events
        self.interval = interval
        self.logger = logger
        self.rebuiltBefore = rebuiltBefore
    }

    /// The last statistics computed (empty until the first is done).
    var statistics: PlayStatistics { current.withLock { $0 } }

    var version: Int { currentVersion.load(ordering: .acquiring) }

    /// Hands over an event recorded here or by another instance; only starts count, and only
    /// those the rebuild does not read. Never waits for the counting.
    func record(_ event: ReportEvent) {
        guard event.name == .playStarted, let visitor = event.visitor, let item = event.item,
              event.timestamp >= rebuiltBefore else { return }
        let taken = incoming.withLock { incoming in
            guard incoming.count < Self.incomingLimit else { return false }
            incoming.append(PlayStatistics.Start(time: event.timestamp, visitor: visitor, item: item))
            return true
        }
        if !taken { dropped.wrappingAdd(1, ordering: .relaxed) }
    }

    func start() throws {
        try thread.start { [self] in
            guard var counts = rebuild() else { return }
            var due = ContinuousClock.now
            repeat {
                for start in incoming.withLock({ incoming in defer { incoming = [] }; return incoming }) { counts.add(start) }
                if ContinuousClock.now >= due {
                    publish(&counts)
                    due = ContinuousClock.now + .seconds(interval)
                }
            } while !thread.wait(seconds: min(interval, 1)) && !thread.isStopping
        }
    }

    func shutdown() { thread.stop() }

    /// The counts of the windows' starts before `rebuiltBefore`; nil when shut down meanwhile.
    private func rebuild() -> PlayCounts? {
        let began = ContinuousClock.now
        var counts = PlayCounts()
        // Nothing older than the windows as of the rebuild is kept, not even while it runs.
        counts.advance(to: rebuiltBefore)
        // The co-viewing window in whole days, as of the rebuild: older days would leave at once.
        let since = Date(timeIntervalSince1970: Double(PlayCounts.day(rebuiltBefore) - PlayCounts.coViewingDays + 1) * 86_400)
        let finished = events.forEach([.playStarted], since: since, until: rebuiltBefore,
                                      stop: { thread.isStopping }) { event in
            if let visitor = event.visitor, let item = event.item {
                counts.add(PlayStatistics.Start(time: event.timestamp, visitor: visitor, item: item))
            }
            return true
        }
        guard finished else { return nil }
        logger.info("play statistics rebuilt", metadata: [
            "starts": "\(counts.added)", "visitors": "\(counts.visitorCount)",
            "from": "\(events.database == nil ? "log" : "report database")", "seconds": "\(Self.seconds(began.duration(to: .now)))"])
        return counts
    }

    /// Makes the lists again; a new version only when Trending now changed (cached pages are
    /// made again then).
    private func publish(_ counts: inout PlayCounts) {
        let now = Date()
        counts.advance(to: now)
        let last = statistics
        let computed = counts.statistics(now: now, version: last.version + 1)
        let kept = computed.trending == last.trending && last.version > 0
            ? PlayStatistics(version: last.version, trending: last.trending, related: computed.related) : computed
        current.withLock { $0 = kept }
        currentVersion.store(kept.version, ordering: .releasing)
        let lost = dropped.exchange(0, ordering: .relaxed)
        if lost > 0 { logger.warning("play statistics left starts out: too many waited", metadata: ["starts": "\(lost)"]) }
    }

    /// `0.002`: the metadata's key names the unit; a `Duration` prints it again.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return String(printf: "%.3f", Double(whole) + Double(attoseconds) / 1e18)
    }
}
