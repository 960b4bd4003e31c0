import Basics
import Logging
import MicroHTTP
import ReportDatabase
import Reporting
import Synchronization

/// The watchers of `/reports/stream`. One feed thread takes the lines the log writes (through
/// one `ReportWatcher`), formats them once as server-sent events and queues the same bytes on
/// every watcher's stream. Nothing here slows the writer or costs memory per stalled watcher
/// beyond a small buffer: a watcher that falls behind is cut, and reconnects with `Last-Event-ID`.
/// With a report database, the lines come instead from every instance through the database
/// (`DatabaseLineFeed`), in one order every server agrees on; their ids are keys of that order,
/// and a watcher that reconnects catches up from the database (`DatabaseReplay`).
final class LiveReports: Startable {
    let name = "report stream"
    /// How far behind a watcher may fall before it is cut.
    static let watcherBuffer = 256 * 1024
    /// Lines the feed may fall behind the writer; past it every watcher is cut and resumes.
    static let feedLines = 65_536

    /// What the writer's callback, the heartbeat and the streams' close handlers share.
    private final class Shared: Sendable {
        struct State {
            var watchers: [ObjectIdentifier: LiveWatcher] = [:]
            /// The feed's watcher of the log, only while someone watches: with none, the writer
            /// hands no line to anyone and the feed thread sleeps.
            var feed: ReportWatcher?
        }

        let state = Mutex(State())
        let doorbell = Doorbell()
        let stopping = Atomic<Bool>(false)
        var all: [LiveWatcher] { state.withLock { Array($0.watchers.values) } }
    }

    private let log: ReportLog
    private let logger: Logger
    private let shared = Shared()
    private let feeder = Mutex<WorkerThread?>(nil)
    private let heartbeat: PeriodicTask
    /// Catch-ups of resuming watchers: store reads, paced by the watcher, off the server's threads.
    private let replays: WorkPool
    /// Every instance's lines, with a report database.
    private let feed: DatabaseLineFeed?

    init(log: ReportLog, heartbeatInterval: Double, database: String? = nil, logger: Logger) {
        self.log = log
        self.logger = logger
        feed = database.map { [shared] url in
            DatabaseLineFeed(url: url, logger: logger) { batch in
                let events = ServerSentEvents.events(batch)
                for watcher in shared.all { watcher.deliver(batch, events: events) }
            }
        }
        replays = WorkPool(name: "report-stream", workers: 2, queueLimit: 64, logger: logger)
        heartbeat = PeriodicTask(name: "heartbeat", every: heartbeatInterval) { [shared] in
            let beat = Array(": heartbeat\n\n".utf8)
            for watcher in shared.all { watcher.stream.write(beat) }
        }
    }

    var watcherCount: Int { shared.state.withLock { $0.watchers.count } }

    /// A new watcher's stream: a retry hint, then one event per line written from now on; one
    /// that resumes gets the lines after its position first (see `resume`).
    func watch(resuming: Bool = false) -> (stream: ResponseStream, watcher: LiveWatcher) {
        let stream = ResponseStream(maximumPendingBytes: Self.watcherBuffer)
        stream.write(Array("retry: 3000\n: watching the report log\n\n".utf8))
        let watcher = LiveWatcher(stream: stream, catchingUp: resuming)
        let key = ObjectIdentifier(watcher)
        let follows = followsDatabase
        shared.state.withLock { [log, shared] state in
            state.watchers[key] = watcher
            if !follows, state.feed == nil { state.feed = Self.feed(from: log, ringing: shared.doorbell) }
        }
        stream.onClose { [log, shared] in
            shared.state.withLock { state in
                state.watchers.removeValue(forKey: key)
                guard state.watchers.isEmpty, let feed = state.feed else { return }
                log.unwatch(feed)
                state.feed = nil
            }
        }
        return (stream, watcher)
    }

    /// Runs a resuming watcher's catch-up; when too many are under way, it is told to come back.
    func resume(_ replay: LocalReplay) {
        resume(replay.watcher) { replay.run() }
    }

    /// Runs a resuming watcher's catch-up from the report database (same pool, same bound).
    func resume(_ replay: DatabaseReplay) {
        resume(replay.watcher) { replay.run() }
    }

    private func resume(_ watcher: LiveWatcher, _ job: @escaping @Sendable () -> Void) {
        guard replays.submit(job) else {
            watcher.stream.write(Array("retry: 5000\n: busy; reconnect later\n\n".utf8))
            watcher.stream.finish()
            return
        }
    }

    /// Whether the lines come from every instance through the report database.
    var followsDatabase: Bool { feed != nil }

    func start() throws {
        if let feed {
            try feed.start()
            try heartbeat.start()
            return
        }
        let thread = try WorkerThread(name: "report-stream") { [self] in run() }
        feeder.withLock { $0 = thread }
        try heartbeat.start()
    }

    func shutdown() {
        heartbeat.shutdown()
        shared.stopping.store(true, ordering: .relaxed)
        shared.doorbell.ring()
        feed?.shutdown()
        feeder.withLock { $0 }?.join()
        replays.shutdown()
    }

    private static func feed(from log: ReportLog, ringing doorbell: Doorbell) -> ReportWatcher {
        log.watch(capacity: feedLines) { doorbell.ring() }
    }

    /// Sleeps until the log has lines for a watcher (or shutdown); formats them once for all.
    private func run() {
        while !shared.stopping.load(ordering: .relaxed) {
            shared.doorbell.wait()
            guard let feed = shared.state.withLock({ $0.feed }) else { continue }
            guard let lines = feed.take() else {
                // Cancelled: the last watcher left. Cut: the feed fell behind, and every watcher
                // resumes from the store.
                guard feed.wasCut else { continue }
                let all = shared.state.withLock { state in
                    if state.feed === feed {
                        state.feed = state.watchers.isEmpty ? nil : Self.feed(from: log, ringing: shared.doorbell)
                    }
                    return Array(state.watchers.values)
                }
                logger.warning("report stream fell behind the log; its watchers resume from the log",
                               metadata: ["watchers": "\(all.count)"])
                for watcher in all { watcher.stream.finish() }
                continue
            }
            guard !lines.isEmpty else { continue }
            let events = ServerSentEvents.events(lines)
            for watcher in shared.all { watcher.deliver(lines, events: events) }
        }
        if let feed = shared.state.withLock({ $0.feed }) { log.unwatch(feed) }
    }
}
