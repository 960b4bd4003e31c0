import Synchronization

/// Runs work every `interval` seconds on a worker thread of its own, from `start` to `shutdown`.
public final class PeriodicTask: Service {
    public let name: String
    private let interval: Double
    private let work: @Sendable () -> Void
    private let stopping = Atomic<Bool>(false)
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    public init(name: String, every interval: Double, _ work: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.work = work
    }

    public func start() throws {
        let worker = try WorkerThread(name: name) { [self] in
            while !doorbell.wait(seconds: interval), !stopping.load(ordering: .relaxed) {
                work()
            }
        }
        thread.withLock { $0 = worker }
    }

    /// Stops at once, or after the run in progress.
    public func shutdown() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
    }
}
