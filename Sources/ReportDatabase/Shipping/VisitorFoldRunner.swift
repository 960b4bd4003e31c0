import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// Runs `VisitorFold` every `interval` on a thread and connection of its own, beside the
/// shipper's, so a fold never holds up a batch: the visitor figures are at most about an interval
/// (and a fold) behind the events while the folds keep up. Every instance tries; the one holding
/// the lock folds. While its shipper catches up on a backlog, the next fold waits until `limit`
/// batches are waiting or `catchUpInterval` has passed: a fold writes each of its visitors once
/// however many batches name them, so folding a backlog's batches a few at a time would write
/// the same visitors over and over while the shipping needs the cores.
final class VisitorFoldRunner: Sendable {
    /// The folds done by this instance, and what waited after the latest try (any instance's).
    struct Status: Sendable, Equatable {
        var folds = 0
        var foldedBatches = 0
        var waiting = 0
        /// When the oldest change still waiting was appended (this machine's clock); nil when none.
        var waitingSince: Date?
    }

    private let url: String
    private let interval: Double
    private let catchUpInterval: Double
    private let limit: Int
    private let maxBackoff: Double
    private let logger: Logger
    private let state = Mutex(Status())
    private let shipping = Mutex(Shipping())
    private let thread = BackgroundThread(name: "report-visitor-fold")

    /// What this instance's shipper said: whether it is catching up, and the batches it appended
    /// since the last fold began.
    private struct Shipping {
        var catchingUp = false
        var appended = 0
    }

    init(url: String, interval: Double, catchUpInterval: Double, limit: Int, maxBackoff: Double, logger: Logger) {
        self.url = url
        self.interval = interval
        self.catchUpInterval = catchUpInterval
        self.limit = limit
        self.maxBackoff = maxBackoff
        self.logger = logger
    }

    var status: Status { state.withLock { $0 } }

    func start() throws {
        try thread.start { [self] in run() }
    }

    /// Said by the shipper: whether more lines wait after the batch it is shipping (`catchingUp`),
    /// and, after its commit, that it appended a batch of changes.
    func shipping(catchingUp: Bool, appended: Bool = false) {
        let due = shipping.withLock { shipping in
            let wasCatchingUp = shipping.catchingUp
            shipping.catchingUp = catchingUp
            if appended { shipping.appended += 1 }
            return wasCatchingUp && (!catchingUp || shipping.appended >= limit)
        }
        if due { thread.ring() }
    }

    /// Seconds more to wait before the next fold (nil: fold now), `waited` after the last began.
    private func catchUpWait(waited: Double) -> Double? {
        shipping.withLock { shipping in
            guard shipping.catchingUp, shipping.appended < limit, waited < catchUpInterval else { return nil }
            return catchUpInterval - waited
        }
    }

    /// Stops after the fold in progress; what waits is folded by the next instance to try.
    func shutdown() {
        thread.stop()
    }

    private func run() {
        var connection: PostgresConnection?
        var backoff = 0.1
        var failing = false
        var lastFold = ContinuousClock.now
        while !thread.isStopping {
            do {
                if connection == nil {
                    let opened = try PostgresConnection(url: url, applicationName: "dynamic-home visitor fold")
                    try ReportSchema.migrate(opened)  // a new database: its tables before the first query
                    connection = opened
                    try opened.execute(ExperimentVisitorRows.stagingSQL)
                }
                // While the shipper catches up, its batches gather for one fold.
                if let more = catchUpWait(waited: Self.seconds(since: lastFold)) {
                    thread.wait(seconds: more)
                    continue
                }
                lastFold = .now
                shipping.withLock { $0.appended = 0 }
                let outcome = try VisitorFold.run(connection!, limit: limit)
                let now = Date()
                state.withLock {
                    if outcome.folded > 0 { $0.folds += 1 }
                    $0.foldedBatches += outcome.folded
                    $0.waiting = outcome.waiting
                    $0.waitingSince = outcome.oldestAge.map { now.addingTimeInterval(-$0) }
                }
                if failing { logger.notice("the experiment visitor figures are folded again") }
                failing = false
                backoff = 0.1
                // More than one fold takes: go on at once.
                if outcome.folded < limit { thread.wait(seconds: interval) }
            } catch {
                connection?.close()
                connection = nil
                // The shipper says when the database is down; this says once that folds wait.
                if !failing {
                    logger.warning("the experiment visitor figures cannot be folded now; retrying", metadata: ["error": "\(error)"])
                }
                failing = true
                thread.wait(seconds: backoff)
                backoff = min(backoff * 2, maxBackoff)
            }
        }
        connection?.close()
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
