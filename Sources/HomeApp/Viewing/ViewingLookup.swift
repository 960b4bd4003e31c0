import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Reporting
import Synchronization

/// Looks visitors this instance does not hold up in the viewing events (every instance's, with
/// a report database: `ViewingEvents`), on a thread of its own at low priority: a visitor dropped
/// as the least recent (or new to this instance) gets the page at once without their rows, and
/// their rows from the next request on. Bounded: at most `queueLimit` visitors wait (more are not
/// asked for, and asked again on their next request), and the waiting ones are looked up
/// together in one pass (one query, with a database). A visitor the events say nothing of is
/// held as such, so they are looked up once.
final class ViewingLookup: Startable {
    let name = "viewing look-up"
    static let queueLimit = 256
    private let history: ViewingHistory
    private let events: ViewingEvents
    private let logger: Logger
    private let waiting = Mutex<Set<String>>([])
    private let thread = BackgroundThread(name: "viewing-lookup", niceness: 10)
    /// Passes made over the log, for tests and the log.
    private let passes = Atomic(0)

    init(history: ViewingHistory, events: ViewingEvents, logger: Logger) {
        self.history = history
        self.events = events
        self.logger = logger
    }

    /// Asks for `visitor`'s viewing; false when the queue is full. Never waits for the log.
    @discardableResult
    func request(_ visitor: String) -> Bool {
        let queued = waiting.withLock { waiting in
            guard waiting.count < Self.queueLimit else { return false }
            waiting.insert(visitor)
            return true
        }
        if queued { thread.ring() }
        return queued
    }

    var passCount: Int { passes.load(ordering: .relaxed) }

    func start() throws {
        try thread.start { [self] in
            while !thread.isStopping {
                // Not before the log has been read in at start: it holds everyone then.
                if history.isLoaded {
                    let batch = waiting.withLock { $0 }
                    if !batch.isEmpty { lookUp(batch) }
                    waiting.withLock { $0.subtract(batch) }
                }
                thread.wait(seconds: history.isLoaded ? 60 : 0.05)
            }
        }
    }

    func shutdown() { thread.stop() }

    /// One pass over the log for every visitor of `batch` still not held.
    private func lookUp(_ batch: Set<String>) {
        let sought = batch.filter { !history.holds($0) }
        guard !sought.isEmpty else { return }
        var found: [String: ViewingActivity] = [:]
        let finished = events.forEach(ViewingEvents.names, visitors: sought, until: .distantFuture,
                                      stop: { thread.isStopping }) { event in
            if let visitor = event.visitor { found[visitor, default: ViewingActivity()].apply(event) }
            return true
        }
        guard finished else { return }
        for visitor in sought { history.fill(visitor, with: found[visitor] ?? ViewingActivity()) }
        passes.wrappingAdd(1, ordering: .relaxed)
    }
}
