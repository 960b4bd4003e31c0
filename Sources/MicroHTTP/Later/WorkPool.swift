import Basics
import Logging
import Synchronization

/// Threads for work too long for libmicrohttpd's threads (a report over a large log, say): each
/// held connection there stalls every other connection of that thread. At most `workers` jobs
/// run at once and at most `queueLimit` wait; past that a request gets 503 with `Retry-After`
/// at once instead of waiting without bound.
public final class WorkPool: Sendable {
    /// What the pool has done, for logs and tests.
    public struct Counts: Sendable, Equatable {
        public var running: Int
        public var queued: Int
        /// Jobs turned away because the pool was full or stopped.
        public var refused: Int
    }

    private struct State {
        var queue: [Job] = []
        /// Places taken: jobs queued, running, or admitted and about to be queued.
        var admitted = 0
        var running = 0
        var refused = 0
        var stopped = false
        var threads: [WorkerThread] = []
    }

    public let name: String
    public let workers: Int
    public let queueLimit: Int
    /// Seconds a refused client is told to wait.
    public let retryAfter: Int
    /// Added to the workers' nice value: above 0, libmicrohttpd's threads get the CPU first.
    public let niceness: Int32
    private let logger: Logger
    private let state = Mutex(State())
    /// One ring wakes one idle worker, which passes it on while jobs wait (or once stopped).
    private let ready = Doorbell()

    public init(name: String, workers: Int, queueLimit: Int, retryAfter: Int = 1, niceness: Int32 = 0,
                logger: Logger = Logger(label: "MicroHTTP")) {
        self.name = name
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.retryAfter = max(1, retryAfter)
        self.niceness = niceness
        self.logger = logger
        for index in 0..<self.workers { startThread(index) }
    }

    /// Answers the request later with what `job` returns on a pool thread (or the page for what it
    /// throws); throws 503 with `Retry-After` at once when the pool is full.
    public func respond(_ job: @escaping @Sendable () throws -> Response) throws(HTTPError) -> Response {
        guard admit() else { throw busy }
        return .later { [self] reply in
            let stopped = stoppedError
            enqueue(Job(run: {
                // Answered already (503 at shutdown): the work would be thrown away.
                guard !reply.isAnswered else { return }
                reply.run(job)
            }, cancel: { reply.fail(stopped) }))
        }
    }

    /// Runs `job` on a pool thread; false (and it never runs) when the pool is full or stopped.
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        guard admit() else { return false }
        return enqueue(Job(run: job, cancel: {}))
    }

    public var counts: Counts {
        state.withLock { Counts(running: $0.running, queued: $0.queue.count, refused: $0.refused) }
    }

    /// Takes no more jobs, answers 503 to the requests of those not started and waits for the
    /// running ones. Call it before the pool is let go: its threads keep it alive until then.
    public func shutdown() {
        let (threads, dropped) = state.withLock { state -> ([WorkerThread], [Job]) in
            state.stopped = true
            state.admitted -= state.queue.count
            defer { state.threads = []; state.queue = [] }
            return (state.threads, state.queue)
        }
        for job in dropped { job.cancel() }
        ready.ring()
        for thread in threads { thread.join() }
    }

    private var stoppedError: HTTPError {
        HTTPError(.serviceUnavailable, "The server is shutting down; try again in a moment.",
                  headers: Headers([("Retry-After", "5")]))
    }

    private var busy: HTTPError {
        HTTPError(.serviceUnavailable, "The server is busy with other reports; try again in \(retryAfter) s.",
                  headers: Headers([("Retry-After", "\(retryAfter)")]))
    }

    private func admit() -> Bool {
        state.withLock { state in
            guard !state.stopped, state.admitted < workers + queueLimit else {
                state.refused += 1
                return false
            }
            state.admitted += 1
            return true
        }
    }

    /// Queues an admitted job; a pool stopped since its admission cancels it instead.
    @discardableResult
    private func enqueue(_ job: Job) -> Bool {
        let queued = state.withLock { state in
            guard !state.stopped else { return false }
            state.queue.append(job)
            return true
        }
        if queued { ready.ring() } else { job.cancel() }
        return queued
    }

    private func work() {
        while true {
            ready.wait()
            let (job, passOn, stopped) = state.withLock { state -> (Job?, Bool, Bool) in
                guard !state.stopped, !state.queue.isEmpty else { return (nil, state.stopped, state.stopped) }
                state.running += 1
                let job = state.queue.removeFirst()
                return (job, !state.queue.isEmpty, false)
            }
            if passOn { ready.ring() }
            guard let job else {
                if stopped { return }
                continue
            }
            job.run()
            state.withLock { state in
                state.running -= 1
                state.admitted -= 1
            }
        }
    }

    /// The thread holds the pool until it ends: the pool cannot go away under a running job.
    private func startThread(_ index: Int) {
        do {
            let thread = try WorkerThread(name: "\(name)-\(index)", niceness: niceness) { [self] in work() }
            state.withLock { $0.threads.append(thread) }
        } catch {
            logger.error("could not start a work pool thread", metadata: ["pool": "\(name)", "error": "\(error)"])
        }
    }

    private struct Job: Sendable {
        let run: @Sendable () -> Void
        /// Answers the job's request when it will not run.
        let cancel: @Sendable () -> Void
    }
}
