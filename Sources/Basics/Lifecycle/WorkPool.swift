import Logging
import Synchronization

/// Threads for work too long for the threads that take requests (a report page over a large log, say):
/// each connection held there stalls every other one of that thread. At most `workers` jobs run
/// at once and at most `queueLimit` wait; past that a job is refused at once instead of waiting
/// without bound (`RequestPool` in MicroHTTP turns that into 503 with `Retry-After`).
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
    /// Added to the workers' nice value: above 0, libmicrohttpd's threads get the CPU first.
    public let niceness: Int32
    private let logger: Logger
    private let state = Mutex(State())
    /// One ring wakes one idle worker, which passes it on while jobs wait (or once stopped).
    private let ready = Doorbell()

    public init(name: String, workers: Int, queueLimit: Int, niceness: Int32 = 0, logger: Logger = Logger(label: "WorkPool")) {
        self.name = name
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.niceness = niceness
        self.logger = logger
        for index in 0..<self.workers { startThread(index) }
    }

    /// Runs `job` on a pool thread; false (and it never runs) when the pool is full or stopped.
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        guard admit() else { return false }
        return enqueue(Job(run: job, cancel: {}))
    }

    /// Takes a place for a job to be given later with `run(admitted:cancel:)`; false (counted as
    /// refused) when the pool is full or stopped. For work whose owner must hear at once.
    public func admit() -> Bool {
        state.withLock { state in
            guard !state.stopped, state.admitted < workers + queueLimit else {
                state.refused += 1
                return false
            }
            state.admitted += 1
            return true
        }
    }

    /// Queues a job that `admit()` made room for; `cancel` runs instead of it when the pool stops first.
    public func run(admitted job: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        enqueue(Job(run: job, cancel: cancel))
    }

    public var counts: Counts {
        state.withLock { Counts(running: $0.running, queued: $0.queue.count, refused: $0.refused) }
    }

    /// Takes no more jobs, cancels those not started and waits for the running ones. Call it before the pool is let go: its threads keep it alive until then.
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
        /// Tells the job's owner (answers its request) when it will not run.
        let cancel: @Sendable () -> Void
    }
}
