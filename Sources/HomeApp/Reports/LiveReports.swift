import Basics
import Logging
import MicroHTTP
import Reporting
import Synchronization

/// The watchers of `/reports/stream`. The writer hands each run of lines it wrote to one feed
/// thread, which formats it once as server-sent events and queues the same bytes on every
/// watcher's stream. Nothing here slows the writer or costs memory per stalled watcher beyond a
/// small buffer: a watcher that falls behind is cut, and reconnects with `Last-Event-ID`.
final class LiveReports: Service {
    let name = "report stream"
    /// How far behind a watcher may fall before it is cut.
    static let watcherBuffer = 256 * 1024
    /// Runs waiting for the feed thread; past it every watcher is cut and resumes from the log.
    static let feedLimit = 8 << 20

    private struct Feed {
        var runs: [(lines: [UInt8], offset: Int)] = []
        var bytes = 0
        var overflowed = false
        var stopping = false
    }

    /// What the writer's callback, the heartbeat and the streams' close handlers share.
    private final class Shared: Sendable {
        let feed = Mutex(Feed())
        let watchers = Mutex<[ObjectIdentifier: LiveWatcher]>([:])
        let doorbell = Doorbell()
        var all: [LiveWatcher] { watchers.withLock { Array($0.values) } }
    }

    private let log: ReportLog
    private let logger: Logger
    private let shared = Shared()
    private let feeder = Mutex<WorkerThread?>(nil)
    private let subscription = Mutex<ReportLog.SubscriptionToken?>(nil)
    private let heartbeat: PeriodicTask
    /// Catch-ups of resuming watchers: file reads, paced by the watcher, off the server's threads.
    private let replays: WorkPool

    init(log: ReportLog, heartbeatInterval: Double, logger: Logger) {
        self.log = log
        self.logger = logger
        replays = WorkPool(name: "report-stream", workers: 2, queueLimit: 64, logger: logger)
        heartbeat = PeriodicTask(name: "heartbeat", every: heartbeatInterval) { [shared] in
            let beat = Array(": heartbeat\n\n".utf8)
            for watcher in shared.all { watcher.stream.write(beat) }
        }
    }

    var watcherCount: Int { shared.watchers.withLock { $0.count } }

    /// A new watcher's stream: a retry hint, then one event per line written from now on, or,
    /// with `resumeFrom`, from that position in the log (`replay` then runs the catch-up).
    func watch(resumeFrom: Int? = nil) -> (stream: ResponseStream, watcher: LiveWatcher) {
        let stream = ResponseStream(maximumPendingBytes: Self.watcherBuffer)
        stream.write(Array("retry: 3000\n: watching the report log\n\n".utf8))
        let watcher = LiveWatcher(stream: stream, catchingUp: resumeFrom != nil)
        let key = ObjectIdentifier(watcher)
        shared.watchers.withLock { $0[key] = watcher }
        stream.onClose { [shared] in shared.watchers.withLock { _ = $0.removeValue(forKey: key) } }
        return (stream, watcher)
    }

    /// Runs a resuming watcher's catch-up; when too many are under way, it is told to come back.
    func resume(_ replay: LiveReplay) {
        guard replays.submit({ replay.run() }) else {
            replay.watcher.stream.write(Array("retry: 5000\n: busy; reconnect later\n\n".utf8))
            replay.watcher.stream.finish()
            return
        }
    }

    func start() throws {
        let token = log.subscribeRuns { [shared] lines, offset in
            let ring = shared.feed.withLock { feed -> Bool in
                guard !feed.overflowed else { return false }
                guard feed.bytes + lines.count <= Self.feedLimit else {
                    feed.overflowed = true
                    feed.runs = []
                    feed.bytes = 0
                    return true
                }
                feed.runs.append((lines, offset))
                feed.bytes += lines.count
                return true
            }
            if ring { shared.doorbell.ring() }
        }
        subscription.withLock { $0 = token }
        let thread = try WorkerThread(name: "report-stream") { [self] in run() }
        feeder.withLock { $0 = thread }
        try heartbeat.start()
    }

    func shutdown() {
        heartbeat.shutdown()
        if let token = subscription.withLock({ $0 }) { log.unsubscribe(token) }
        shared.feed.withLock { $0.stopping = true }
        shared.doorbell.ring()
        feeder.withLock { $0 }?.join()
        replays.shutdown()
    }

    private func run() {
        while true {
            shared.doorbell.wait(seconds: 1)
            let (runs, overflowed, stopping) = shared.feed.withLock { feed in
                defer { feed.runs = []; feed.bytes = 0; feed.overflowed = false }
                return (feed.runs, feed.overflowed, feed.stopping)
            }
            let all = shared.all
            if overflowed {
                logger.warning("report stream fell behind the log; its watchers resume from the log",
                               metadata: ["watchers": "\(all.count)"])
                for watcher in all { watcher.stream.finish() }
            }
            for run in runs {
                let events = ServerSentEvents.events(run.lines, at: run.offset)
                for watcher in all { watcher.deliver(run.lines, at: run.offset, events: events) }
            }
            if stopping { return }
        }
    }
}
