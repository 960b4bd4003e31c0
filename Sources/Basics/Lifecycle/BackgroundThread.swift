import Synchronization

/// A startable's own thread that works until the startable shuts down: the body checks
/// `isStopping` between steps and sleeps in `wait(seconds:)`, which `ring()` and `stop()` cut
/// short. The stop flag, the doorbell and the thread to join, in one place.
public final class BackgroundThread: Sendable {
    private let name: String
    private let niceness: Int32
    private let stopping = Atomic(false)
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    /// `name` and `niceness` as `WorkerThread` takes them.
    public init(name: String, niceness: Int32 = 0) {
        self.name = name
        self.niceness = niceness
    }

    /// Runs `body` on the thread; it should return soon after `isStopping` turns true.
    public func start(_ body: @escaping @Sendable () -> Void) throws(WorkerThreadError) {
        let worker = try WorkerThread(name: name, niceness: niceness, body)
        thread.withLock { $0 = worker }
    }

    /// True once `stop()` was called.
    public var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Wakes the body from `wait(seconds:)`, or from the next one.
    public func ring() { doorbell.ring() }

    /// Sleeps until rung or stopped (true) or until `seconds` have passed (false).
    @discardableResult
    public func wait(seconds: Double) -> Bool { doorbell.wait(seconds: seconds) }

    /// Tells the body to stop, wakes it and waits for it to return.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
    }
}
