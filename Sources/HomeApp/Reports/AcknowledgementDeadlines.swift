import Basics
import Synchronization

/// The posted events (`POST /report`) still waiting for their line, oldest first. One sweeper
/// answers those past the timeout with 503, instead of a timer per request: at tens of thousands
/// of posts a second, ten seconds of timers held hundreds of megabytes.
final class AcknowledgementDeadlines: Startable {
    let name = "report acknowledgement deadlines"
    private let pending: Pending
    private let sweeper: PeriodicTask

    init(timeout: Duration = .seconds(10), sweepEvery interval: Double = 0.5) {
        let pending = Pending(timeout: timeout)
        self.pending = pending
        // Sleeps while no post waits: an idle server has nothing to sweep.
        sweeper = PeriodicTask(name: "ack-deadlines", every: interval, idle: { pending.count == 0 }) { pending.sweep() }
    }

    /// Watches `acknowledgement` until it is answered or its time is up.
    func watch(_ acknowledgement: WriteAcknowledgement) {
        pending.append(acknowledgement)
        sweeper.wake()
    }

    /// Posts waiting for their line now.
    var waiting: Int { pending.count }

    func start() throws { try sweeper.start() }

    /// Stops sweeping and answers every post still waiting: the server is going away.
    func shutdown() {
        sweeper.shutdown()
        pending.sweep(now: .now + pending.timeout)
    }

    private final class Pending: Sendable {
        private struct Entry {
            let deadline: ContinuousClock.Instant
            let acknowledgement: WriteAcknowledgement
        }

        private struct Queue {
            var entries: [Entry] = []
            var head = 0
        }

        let timeout: Duration
        private let queue = Mutex(Queue())

        init(timeout: Duration) { self.timeout = timeout }

        func append(_ acknowledgement: WriteAcknowledgement) {
            let entry = Entry(deadline: .now + timeout, acknowledgement: acknowledgement)
            queue.withLock { $0.entries.append(entry) }
        }

        var count: Int { queue.withLock { $0.entries.count - $0.head } }

        /// Drops the answered entries at the front and answers the overdue ones; entries join in
        /// deadline order, so the first one not yet due ends the sweep.
        func sweep(now: ContinuousClock.Instant = .now) {
            let overdue = queue.withLock { queue -> [WriteAcknowledgement] in
                var overdue: [WriteAcknowledgement] = []
                while queue.head < queue.entries.count {
                    let entry = queue.entries[queue.head]
                    if entry.acknowledgement.hasResponse {
                        queue.head += 1
                    } else if entry.deadline <= now {
                        overdue.append(entry.acknowledgement)
                        queue.head += 1
                    } else {
                        break
                    }
                }
                if queue.head > 1024, queue.head * 2 > queue.entries.count {
                    queue.entries.removeFirst(queue.head)
                    queue.head = 0
                }
                return overdue
            }
            for acknowledgement in overdue { acknowledgement.timedOut() }
        }
    }
}
