import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The report log: a directory of JSON Lines segments (see docs/reports.md). `record` never waits
/// on the disk: one writer thread takes everything queued, writes it with one `write` (group
/// commit), keeps the rollups, and retries when writes fail. Read it through `store`.
/// Call `shutdown()` before the process exits: the writer thread runs until then.
public final class ReportLog: Sendable {
    /// How much free space the log leaves on its file system.
    public enum FreeSpaceFloor: Sendable, Equatable {
        case bytes(Int64)
        /// A fraction of the file system's size (0.05 for 5%).
        case fraction(Double)

        func bytes(ofTotal total: Int64) -> Int64 {
            switch self {
            case .bytes(let bytes): bytes
            case .fraction(let fraction): Int64(Double(total) * fraction)
            }
        }
    }

    /// How the log writes.
    public struct Configuration: Sendable {
        /// The directory of segments (`--report-log`); created if missing.
        public var directory: String
        /// Also write each line to standard output (`--report-stdout`), for log shippers; through a
        /// bounded buffer on its own thread, so a reader that stalls loses lines, not the file log.
        public var mirrorToStandardOutput: Bool
        /// The most events kept while the directory cannot be written; beyond it the oldest are dropped.
        public var bufferCapacity: Int
        /// The longest an event waits before the writer writes it, in seconds.
        public var flushInterval: TimeInterval
        /// A segment is closed once it holds this many bytes (`--report-segment-bytes`).
        public var segmentBytes: Int64 = 64 << 20
        /// fsync each write before `whenWritten` callbacks run (`--report-fsync`).
        public var fsync = false
        /// Compress closed segments with gzip.
        public var compress = true
        /// Delete closed segments whose events are all older than this (`--report-retention`).
        public var retention: TimeInterval?
        /// Delete the oldest closed segments while the log takes more than this (`--report-max-bytes`).
        public var maxBytes: Int64?
        /// Asked before retention deletes a closed segment (named `events-<stamp>.jsonl`, without
        /// `.gz`); false keeps it. The report shipper answers, so age never deletes what is not in
        /// the database yet; the size cap still does, logged and counted in `unshippedDeleted`.
        public var mayDelete: (@Sendable (String) -> Bool)?
        /// Below this much free space, events are dropped and counted (`--report-min-free`).
        public var minimumFree: FreeSpaceFloor = .fraction(0.05)
        /// Seconds between saves of the active segment's rollup.
        public var rollupInterval: TimeInterval = 2
        /// Seconds between looks at the free space while events wait (`statvfs` is not free).
        public var freeSpaceCheckInterval: TimeInterval = 0.25
        /// Free and total bytes of the file system holding a path; a seam for tests.
        public var freeSpace: @Sendable (String) -> (available: Int64, total: Int64)? = ReportLog.fileSystemSpace
        /// The clock retention ages are measured against; a seam for tests.
        public var now: @Sendable () -> Date = { Date() }
        /// Writes bytes to a segment (`write(2)` with retries): the bytes written and the errno of a
        /// failure; a seam for tests of a full disk.
        var writeBytes: @Sendable (Int32, UnsafeRawBufferPointer) -> (count: Int, error: Int32) = FileIO.writeAll

        /// Creates a configuration; the defaults suit the server.
        public init(
            directory: String, mirrorToStandardOutput: Bool = false, bufferCapacity: Int = 100_000,
            flushInterval: TimeInterval = 0.05
        ) {
            self.directory = directory
            self.mirrorToStandardOutput = mirrorToStandardOutput
            self.bufferCapacity = max(1, bufferCapacity)
            self.flushInterval = min(max(flushInterval, 0.001), 0.1)
        }
    }

    /// Counters for health pages and tests.
    public struct Status: Sendable, Equatable {
        /// Lines written since start.
        public var written: Int
        /// Events dropped since start (buffer full, disk floor, unwritable at shutdown, or recorded after shutdown).
        public var dropped: Int
        /// Events recorded but not yet written.
        public var pending: Int
        /// The current write or open error, nil while the directory is writable.
        public var lastError: String?
    }

    /// Identifies a live subscriber for `unsubscribe`.
    public struct SubscriptionToken: Hashable, Sendable {
        let id: UInt64
    }

    /// The configuration the log was started with.
    public let configuration: Configuration
    /// Reads the log, rollups included; shares the writer's live rollup of the active segment.
    public let store: ReportStore
    let logger: Logger
    /// The queue to the writer and what it reports back.
    private let channel: ReportChannel
    /// Joined by `shutdown`.
    private let writer: WorkerThread

    /// Opens the directory (repairing what a crash left, rebuilding missing rollups) and starts the
    /// writer thread. Throws if the directory cannot be used, e.g. `--report-log` names an old
    /// single-file log; later write errors are logged and retried, never thrown.
    public init(configuration: Configuration, logger: Logger = Logger(label: "report-log")) throws {
        self.configuration = configuration
        self.logger = logger
        let interner = Interner()
        let opened = try SegmentDirectory.open(
            configuration.directory, interner: interner, repair: true, sync: configuration.fsync, logger: logger)
        let catalog = SegmentCatalog(directory: configuration.directory, interner: interner, segments: opened.segments)
        store = ReportStore(catalog: catalog, logger: logger, setAside: DamagedSegments.list(configuration.directory),
                            movesDamaged: true)
        store.register()
        let channel = ReportChannel(capacity: configuration.bufferCapacity)
        self.channel = channel
        let maintenance = try Maintenance(
            catalog: catalog, sync: configuration.fsync, compress: configuration.compress,
            retention: .init(age: configuration.retention, maxBytes: configuration.maxBytes, now: configuration.now,
                             mayDelete: configuration.mayDelete), logger: logger)
        if configuration.compress { for stamp in opened.uncompressed { maintenance.submit(.compress(stamp)) } }
        for stamp in opened.toIndex { maintenance.submit(.indexVisitors(stamp)) }
        maintenance.submit(.retention)
        let writer = try ReportWriter(configuration: configuration, catalog: catalog, maintenance: maintenance,
                                  channel: channel, logger: logger)
        self.writer = try WorkerThread(name: "report-writer") { writer.run() }
    }

    /// Opens a log in `directory` with default settings.
    public convenience init(directory: String, mirrorToStandardOutput: Bool = false, logger: Logger = Logger(label: "report-log")) throws {
        try self.init(configuration: Configuration(directory: directory, mirrorToStandardOutput: mirrorToStandardOutput), logger: logger)
    }

    /// Queues `event` for the writer; cheap, never blocks on I/O, callable from any thread.
    public func record(_ event: consuming ReportEvent) {
        enqueue(PendingEvent(event: event, whenWritten: nil))
    }

    /// Queues `event` and calls `whenWritten` on the writer thread once its line is written (and
    /// fsynced with `fsync`): true, or false if it was dropped (or withdrawn through `claim`). The
    /// writer is woken at once, and writes everything that arrived meanwhile with the same `write`.
    public func record(_ event: consuming ReportEvent, claim: WriteClaim? = nil,
                       whenWritten: @escaping @Sendable (Bool) -> Void) {
        enqueue(PendingEvent(event: event, whenWritten: whenWritten, claim: claim))
    }

    private func enqueue(_ pending: consuming PendingEvent) {
        guard let refused = channel.send(pending) else { return }
        refused.whenWritten?(false)
        if refused.first { logger.warning("report event recorded after shutdown; dropped") }
    }

    /// Records the event `template` makes for `visitor` and `request`, timestamped `timestamp`
    /// (now; a caller that read the clock for the request passes its reading): its line is the one
    /// `record(template.event(visitor:request:))` writes, copied from the template's pieces
    /// instead of encoded.
    public func record(_ template: EventTemplate, visitor: VisitorID?, request: String?, at timestamp: Date = Date()) {
        // `Dictionary()`, not the default `[:]`: the literal's initializer ran for every event.
        enqueue(PendingEvent(event: ReportEvent(template.fixed.name, timestamp: timestamp, request: request,
                                                properties: Dictionary()),
                             whenWritten: nil, template: template, visitor: visitor))
    }

    /// `record(_:visitor:request:at:)` for a request known by the server's id: its line spells
    /// `requestID.text`, written from the value on the writer's thread (no `String` made here).
    public func record(_ template: EventTemplate, visitor: VisitorID?, requestID: RequestID, at timestamp: Date = Date()) {
        enqueue(PendingEvent(event: ReportEvent(template.fixed.name, timestamp: timestamp, properties: Dictionary()),
                             whenWritten: nil, template: template, visitor: visitor, requestID: requestID))
    }

    /// Records an event named `name`, timestamped now.
    public func record(
        _ name: ReportEvent.Name, layout: String? = nil, item: String? = nil, visitor: String? = nil,
        request: String? = nil, properties: [String: String] = [:]
    ) {
        record(ReportEvent(name, layout: layout, item: item, visitor: visitor, request: request, properties: properties))
    }

    /// A new watcher of the lines written from now on, holding at most `capacity` unread lines
    /// before it is cut. `onAvailable` (optional, called on the writer thread, must not block) says
    /// that lines wait or that the watcher was cut.
    public func watch(capacity: Int = 1024, onAvailable: (@Sendable () -> Void)? = nil) -> ReportWatcher {
        let watcher = ReportWatcher(capacity: capacity, onAvailable: onAvailable)
        channel.watchers.withLock { $0[ObjectIdentifier(watcher)] = watcher }
        return watcher
    }

    /// Forgets a watcher now (it would be at the next write anyway once cancelled).
    public func unwatch(_ watcher: ReportWatcher) {
        watcher.cancel()
        _ = channel.watchers.withLock { $0.removeValue(forKey: ObjectIdentifier(watcher)) }
    }

    /// The number of live watchers.
    public var watcherCount: Int { channel.watchers.withLock { $0.count } }

    /// Calls `handler` on the writer thread with each line (no newline) once it is written.
    /// The handler must return quickly and never block; prefer `watch`, whose buffer is bounded.
    public func subscribe(_ handler: @escaping @Sendable (String) -> Void) -> SubscriptionToken {
        channel.subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.handlers[subscribers.nextID] = handler
            return SubscriptionToken(id: subscribers.nextID)
        }
    }

    /// Stops calling the handler registered under `token`; unknown tokens are ignored.
    public func unsubscribe(_ token: SubscriptionToken) {
        _ = channel.subscribers.withLock { $0.handlers.removeValue(forKey: token.id) }
    }

    /// The number of live subscribers.
    public var subscriberCount: Int { channel.subscribers.withLock { $0.handlers.count } }

    /// Events lost since start: full buffer, free-space floor, unwritable at shutdown.
    public var dropped: Int { channel.state.withLock { $0.dropped } }

    /// Bytes the segments take on disk (compressed ones as compressed).
    public var segmentBytes: Int64 { store.catalog.segments.reduce(0) { $0 + $1.fileBytes } }

    /// Events in segments the size cap deleted before the shipper had them in the database.
    public var unshippedDeleted: Int { store.catalog.state.withLock { $0.unshippedDeleted } }

    /// How long the writer's flushes (write and fsync) have taken.
    public var flushTimes: FlushTimes.Snapshot { channel.flushTimes.snapshot }

    /// A snapshot of the counters.
    public var status: Status {
        channel.state.withLock { state in
            Status(
                written: state.written, dropped: state.dropped, pending: state.queue.count + state.held,
                lastError: state.lastError)
        }
    }

    /// Writes every recorded event, closes the active segment and its rollup; returns when done.
    /// Idempotent. Events recorded afterwards are dropped (and counted).
    public func shutdown() {
        channel.stop()
        writer.join()
    }

    /// `statvfs` of the path: what an unprivileged writer may use, and the file system's size.
    public static let fileSystemSpace: @Sendable (String) -> (available: Int64, total: Int64)? = { path in
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let unit = Int64(info.f_frsize)
        return (Int64(info.f_bavail) * unit, Int64(info.f_blocks) * unit)
    }
}
