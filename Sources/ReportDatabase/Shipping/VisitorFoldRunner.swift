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
/// the lock folds.
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
    private let limit: Int
    private let maxBackoff: Double
    private let logger: Logger
    private let state = Mutex(Status())
    private let thread = BackgroundThread(name: "report-visitor-fold")

    init(url: String, interval: Double, limit: Int, maxBackoff: Double, logger: Logger) {
        self.url = url
        self.interval = interval
        self.limit = limit
        self.maxBackoff = maxBackoff
        self.logger = logger
    }

    var status: Status { state.withLock { $0 } }

    func start() throws {
        try thread.start { [self] in run() }
    }

    /// Stops after the fold in progress; what waits is folded by the next instance to try.
    func shutdown() {
        thread.stop()
    }

    private func run() {
        var connection: PostgresConnection?
        var backoff = 0.1
        var failing = false
        while !thread.isStopping {
            do {
                if connection == nil {
                    let opened = try PostgresConnection(url: url, applicationName: "dynamic-home visitor fold")
                    connection = opened
                    try opened.execute(ExperimentVisitorRows.stagingSQL)
                }
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
}
