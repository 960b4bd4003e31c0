import Synchronization

/// Runs work every `interval` seconds on a worker thread of its own, from `start` to `shutdown`.
/// Given `idle`, it sleeps without a timeout while `idle()` holds, until `wake()`: a task with
/// nothing to do costs nothing while the server is idle.
public final class PeriodicTask: Startable {
    public let name: String
    private let interval: Double
    private let idle: (@Sendable () -> Bool)?
    private let work: @Sendable () -> Void
    private let stopping = Atomic<Bool>(false)
    private let sleeping = Atomic<Bool>(false)
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    /// `idle` is asked before each wait; while it says true the task sleeps until `wake()`.
    public init(name: String, every interval: Double, idle: (@Sendable () -> Bool)? = nil,
                _ work: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.idle = idle
        self.work = work
    }

    public func start() throws {
        stopping.store(false, ordering: .relaxed)
        let worker = try WorkerThread(name: name) { [self] in
            while !stopping.load(ordering: .relaxed) {
                if let idle, idle() {
                    // Asked again once `sleeping` is set: work that came meanwhile either shows
                    // here or finds `sleeping` set and rings.
                    sleeping.store(true, ordering: .sequentiallyConsistent)
                    if idle(), !stopping.load(ordering: .relaxed) { doorbell.wait() }
                    sleeping.store(false, ordering: .sequentiallyConsistent)
                    continue
                }
                doorbell.wait(seconds: interval)
                if stopping.load(ordering: .relaxed) { break }
                work()
            }
        }
        thread.withLock { $0 = worker }
    }

    /// There is work again: a sleeping task resumes its period. One atomic exchange when awake.
    public func wake() {
        if idle != nil, sleeping.exchange(false, ordering: .sequentiallyConsistent) { doorbell.ring() }
    }

    /// Runs the work now instead of at the end of the period, which starts again after it: for
    /// work that should reach others sooner than the next tick.
    public func runNow() { doorbell.ring() }

    /// Stops at once, or after the run in progress.
    public func shutdown() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
    }
}
