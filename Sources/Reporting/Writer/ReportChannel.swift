import Basics
import Synchronization

/// What passes between `ReportLog` and its writer thread: the queue of events, the doorbell that
/// wakes the writer, the counters it reports back, and the watchers and subscribers it feeds.
/// The log owns it and hands it to the writer, so neither reaches into the other.
final class ReportChannel: Sendable {
    struct State {
        var queue: EventQueue
        var wakeRequested = false
        /// The writer sleeps without a timeout: it had nothing to write. The next event wakes it.
        var writerIdle = false
        var stopping = false
        var closed = false
        var warnedClosed = false
        var written = 0
        var dropped = 0
        var held = 0
        var lastError: String?
    }

    struct Subscribers {
        var nextID: UInt64 = 0
        var handlers: [UInt64: @Sendable (String) -> Void] = [:]
    }

    /// A send the shut-down log refused: the event was dropped; `first` says no earlier one was.
    /// Only the event's callback is handed back: a result holding the whole event was copied
    /// (and its cases told apart) on every send.
    struct Refused {
        let whenWritten: (@Sendable (Bool) -> Void)?
        let first: Bool
    }

    /// What the writer takes on each wake.
    struct Taken {
        let stopping: Bool
        /// Callbacks of events the queue dropped (it was full); to be told `false`.
        let dropped: [@Sendable (Bool) -> Void]
    }

    let state: Mutex<State>
    let subscribers = Mutex(Subscribers())
    let flushTimes = FlushTimes()
    let watchers = Mutex<[ObjectIdentifier: ReportWatcher]>([:])
    private let doorbell = Doorbell()
    /// Queue length at which the writer is woken early, so batches stay large but bounded. The
    /// queue's array and the writer's batches keep their capacity from round to round: at 8,192
    /// (177 bytes an event) a stream of page views held some 5 MiB more for good.
    private let wakeThreshold: Int

    init(capacity: Int) {
        state = Mutex(State(queue: EventQueue(capacity: capacity)))
        wakeThreshold = max(1, min(2048, capacity / 2))
    }

    // MARK: The log's side

    /// Queues `pending`; wakes the writer for an event that waits on its write, or a long queue.
    /// Nil once queued.
    func send(_ pending: consuming PendingEvent) -> Refused? {
        // Moved into the queue, not copied: a copy would retain and release every field.
        let urgent = pending.whenWritten != nil
        var moving: PendingEvent? = consume pending
        var refused: Refused?
        let ring = state.withLock { state -> Bool in
            if state.closed {
                state.dropped += 1
                refused = Refused(whenWritten: moving.take()!.whenWritten, first: !state.warnedClosed)
                state.warnedClosed = true
                return false
            }
            state.queue.append(moving.take()!)
            if urgent || state.queue.count >= wakeThreshold, !state.wakeRequested {
                state.wakeRequested = true
                return true
            }
            // The first event after a quiet spell: the writer starts its flush interval now.
            guard state.writerIdle else { return false }
            state.writerIdle = false
            return true
        }
        if ring { doorbell.ring() }
        return refused
    }

    /// Asks the writer to write what is queued and stop.
    func stop() {
        state.withLock { $0.stopping = true }
        doorbell.ring()
    }

    // MARK: The writer's side

    /// Waits until woken or `seconds` pass, then moves the queue into `incoming`; `held` events
    /// the writer still keeps from before count as pending. After a stop, the log is closed.
    /// With nothing held or queued, the writer first sleeps up to `idle` seconds (its next
    /// housekeeping) until an event comes: a quiet log wakes nobody twenty times a second.
    func take(into incoming: inout [PendingEvent], after seconds: Double, idle: Double, held: Int) -> Taken {
        let sleeps = held == 0 && state.withLock { state in
            guard state.queue.count == 0, !state.stopping, !state.wakeRequested else { return false }
            state.writerIdle = true
            return true
        }
        if sleeps {
            doorbell.wait(seconds: idle)
            // Woken by the first event: it waits out the flush interval with those that follow,
            // unless an urgent one (or a stop) asked for the writer at once.
            let gathers = state.withLock { state in
                defer { state.writerIdle = false }
                return state.queue.count > 0 && !state.wakeRequested && !state.stopping
            }
            if gathers { doorbell.wait(seconds: seconds) }
        } else {
            doorbell.wait(seconds: seconds)
        }
        return state.withLock { state in
            state.wakeRequested = false
            if state.stopping { state.closed = true }
            let taken = state.queue.take(into: &incoming)
            state.dropped += taken.dropped
            state.held = held + taken.count
            return Taken(stopping: state.stopping, dropped: taken.callbacks)
        }
    }

    /// Events the writer still holds, as it writes them chunk by chunk.
    func progress(held: Int) {
        state.withLock { $0.held = held }
    }

    /// Adds what a round wrote and dropped; the total dropped since start.
    func report(written: Int, dropped: Int, held: Int, error: String?) -> Int {
        state.withLock { state in
            state.written += written
            state.dropped += dropped
            state.held = held
            state.lastError = error
            return state.dropped
        }
    }

    /// Who wants the lines just written, if anyone does.
    func listeners() -> (watchers: [ReportWatcher], handlers: [@Sendable (String) -> Void]) {
        (watchers.withLock { $0.isEmpty ? [] : Array($0.values) },
         subscribers.withLock { $0.handlers.isEmpty ? [] : Array($0.handlers.values) })
    }
}
