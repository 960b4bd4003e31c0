import Dispatch
import Foundation
import Logging
import Synchronization

/// The append-only JSON Lines report log. `record` never waits on the disk: one writer thread batches
/// events, writes whole lines, flushes at least every `flushInterval`, and retries when writes fail.
/// Call `shutdown()` before the process exits: the writer thread keeps the log alive until then.
public final class ReportLog: Sendable {
    /// How the log writes.
    public struct Configuration: Sendable {
        /// The JSON Lines file; created if missing, appended to if present.
        public var path: String
        /// Also write each line to standard output (`--report-stdout`), for log shippers.
        /// Written by the writer thread after the file, so a stalled stdout reader delays the file too.
        public var mirrorToStandardOutput: Bool
        /// The most events kept while the file cannot be written; beyond it the oldest are dropped.
        public var bufferCapacity: Int
        /// The longest an event waits before the writer writes it, in seconds.
        public var flushInterval: TimeInterval

        /// Creates a configuration; the defaults suit the server.
        public init(
            path: String, mirrorToStandardOutput: Bool = false, bufferCapacity: Int = 100_000,
            flushInterval: TimeInterval = 0.05
        ) {
            self.path = path
            self.mirrorToStandardOutput = mirrorToStandardOutput
            self.bufferCapacity = max(1, bufferCapacity)
            self.flushInterval = min(max(flushInterval, 0.001), 0.1)
        }
    }

    /// Counters for health pages and tests.
    public struct Status: Sendable, Equatable {
        /// Lines written to the file since start.
        public var written: Int
        /// Events dropped since start (buffer full, unwritable at shutdown, or recorded after shutdown).
        public var dropped: Int
        /// Events recorded but not yet in the file.
        public var pending: Int
        /// The current write or open error, nil while the file is writable.
        public var lastError: String?
    }

    /// Identifies a live watcher for `unsubscribe`.
    public struct SubscriptionToken: Hashable, Sendable {
        let id: UInt64
    }

    struct State {
        var queue: EventQueue
        var wakeRequested = false
        var stopping = false
        var closed = false
        var warnedClosed = false
        var written = 0
        var dropped = 0
        var held = 0
        var lastError: String?
        /// Events ever appended to `queue`: the next one's sequence number.
        var appended = 0
        /// Callbacks of `record(_:whenWritten:)` by sequence number.
        var waiters: [Int: @Sendable (Bool) -> Void] = [:]
    }

    struct Watchers {
        var nextID: UInt64 = 0
        var handlers: [UInt64: @Sendable (String) -> Void] = [:]
        var runHandlers: [UInt64: @Sendable ([UInt8], Int) -> Void] = [:]
    }

    /// The configuration the log was started with.
    public let configuration: Configuration
    let logger: Logger
    let state: Mutex<State>
    let watchers = Mutex(Watchers())
    let wake = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    /// Queue length at which the writer is woken early, so batches stay large but bounded.
    let wakeThreshold: Int

    /// Starts the writer thread; open or write errors are logged and retried, never thrown.
    public init(configuration: Configuration, logger: Logger = Logger(label: "report-log")) {
        self.configuration = configuration
        self.logger = logger
        self.state = Mutex(State(queue: EventQueue(capacity: configuration.bufferCapacity)))
        self.wakeThreshold = max(1, min(8192, configuration.bufferCapacity / 2))
        finished.enter()
        let writer = ReportWriter(configuration: configuration, logger: logger)
        let thread = Thread { [self] in
            writer.run(self)
            finished.leave()
        }
        thread.name = "report-log-writer"
        thread.start()
    }

    /// Starts a log at `path` with default settings.
    public convenience init(path: String, mirrorToStandardOutput: Bool = false, logger: Logger = Logger(label: "report-log")) {
        self.init(configuration: Configuration(path: path, mirrorToStandardOutput: mirrorToStandardOutput), logger: logger)
    }

    /// Queues `event` for the writer; cheap, never blocks on I/O, callable from any thread.
    public func record(_ event: consuming ReportEvent) {
        // Moved into the queue, not copied: a copy would retain and release every field.
        var moving: ReportEvent? = consume event
        let (signal, warnClosed) = state.withLock { state -> (Bool, Bool) in
            if state.closed {
                state.dropped += 1
                // Dropped here rather than after the lock: with `moving` empty on every path, the
                // compiler leaves out a generic, metadata-driven destroy of it from the common one.
                moving = nil
                defer { state.warnedClosed = true }
                return (false, !state.warnedClosed)
            }
            state.queue.append(moving.take()!)
            state.appended += 1
            guard state.queue.count >= wakeThreshold, !state.wakeRequested else { return (false, false) }
            state.wakeRequested = true
            return (true, false)
        }
        if signal { wake.signal() }
        if warnClosed { logger.warning("report event recorded after shutdown; dropped") }
    }

    /// Queues `event` and calls `whenWritten` on the writer thread once its line is in the file
    /// (true), or once it is dropped (false). The writer is woken at once: the caller is waiting.
    public func record(_ event: ReportEvent, whenWritten: @escaping @Sendable (Bool) -> Void) {
        let (signal, accepted) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else {
                state.dropped += 1
                return (false, false)
            }
            state.waiters[state.appended] = whenWritten
            state.queue.append(event)
            state.appended += 1
            guard !state.wakeRequested else { return (false, true) }
            state.wakeRequested = true
            return (true, true)
        }
        if signal { wake.signal() }
        if !accepted { whenWritten(false) }
    }

    /// Calls back the waiters of the events numbered in `ranges`: they were written or dropped.
    func resolve(_ ranges: [Range<Int>], written: Bool) {
        let ranges = ranges.filter { !$0.isEmpty }
        guard !ranges.isEmpty else { return }
        let callbacks = state.withLock { state -> [@Sendable (Bool) -> Void] in
            guard !state.waiters.isEmpty else { return [] }
            var found: [@Sendable (Bool) -> Void] = []
            for range in ranges {
                let keys = range.count <= state.waiters.count ? Array(range) : state.waiters.keys.filter(range.contains)
                for key in keys { if let callback = state.waiters.removeValue(forKey: key) { found.append(callback) } }
            }
            return found
        }
        for callback in callbacks { callback(written) }
    }

    /// Records an event named `name`, timestamped now.
    public func record(
        _ name: ReportEvent.Name, layout: String? = nil, item: String? = nil, visitor: String? = nil,
        request: String? = nil, properties: [String: String] = [:]
    ) {
        record(ReportEvent(name, layout: layout, item: item, visitor: visitor, request: request, properties: properties))
    }

    /// Calls `handler` on the writer thread with each line (no newline) once it is in the file.
    /// The handler must return quickly and never block (hand the line to your own queue).
    public func subscribe(_ handler: @escaping @Sendable (String) -> Void) -> SubscriptionToken {
        watchers.withLock { watchers in
            watchers.nextID += 1
            watchers.handlers[watchers.nextID] = handler
            return SubscriptionToken(id: watchers.nextID)
        }
    }

    /// Calls `handler` on the writer thread with each run of whole lines once written (newlines
    /// included) and the file offset where the run starts; a line's end offset is where a reader
    /// resumes after it. The handler must return at once (hand the run to your own thread).
    public func subscribeRuns(_ handler: @escaping @Sendable (_ lines: [UInt8], _ offset: Int) -> Void) -> SubscriptionToken {
        watchers.withLock { watchers in
            watchers.nextID += 1
            watchers.runHandlers[watchers.nextID] = handler
            return SubscriptionToken(id: watchers.nextID)
        }
    }

    /// Stops calling the handler registered under `token`; unknown tokens are ignored.
    public func unsubscribe(_ token: SubscriptionToken) {
        watchers.withLock {
            _ = $0.handlers.removeValue(forKey: token.id)
            _ = $0.runHandlers.removeValue(forKey: token.id)
        }
    }

    /// The number of live watchers.
    public var subscriberCount: Int { watchers.withLock { $0.handlers.count } }

    /// A snapshot of the counters.
    public var status: Status {
        state.withLock { state in
            Status(
                written: state.written, dropped: state.dropped, pending: state.queue.count + state.held,
                lastError: state.lastError)
        }
    }

    /// Writes every recorded event, fsyncs and closes the file; returns when done. Idempotent.
    /// Events recorded afterwards are dropped (and counted).
    public func shutdown() {
        state.withLock { $0.stopping = true }
        wake.signal()
        finished.wait()
    }
}
