import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ReportDatabase
import Synchronization

/// With a report database: one thread that `LISTEN`s for new versions and installs each as soon
/// as it is announced, and asks anyway once a second (a missed notification, a listener that
/// cannot connect), saying each time which version this instance serves. While the database
/// cannot answer the instance keeps serving what it has and retries every second.
final class ConfigFollower: Startable {
    let name = "config follower"
    private let followed: [any DatabaseFollowing]
    private let database: DatabaseConfigVersions
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)
    /// The fallback: versions are asked for at least this often.
    static let pollInterval = 1.0
    /// Rung once the first catch-up was tried, answered or not.
    private let firstTry = Doorbell()
    /// How long the start waits for that first catch-up: a restarted instance would otherwise
    /// answer its first requests with the version its file held while it was down.
    static let startWait = 2.0

    init(_ followed: [any DatabaseFollowing], database: DatabaseConfigVersions, logger: Logger) {
        self.followed = followed
        self.database = database
        self.logger = logger
    }

    func start() throws {
        let worker = try WorkerThread(name: "config-follower") { [self] in run() }
        thread.withLock { $0 = worker }
        // Bounded: a database that does not answer leaves the instance serving its last version.
        if !firstTry.wait(seconds: Self.startWait) {
            logger.warning("the report database did not answer at start; serving the last versions kept here")
        }
    }

    func shutdown() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
    }

    private var stopped: Bool { stopping.load(ordering: .relaxed) }

    /// Each kind in turn; the first failure is thrown once every kind was tried.
    private func catchUp() throws {
        var failure: (any Error)?
        for versions in followed {
            do { try versions.catchUp() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    private func run() {
        var warned = false
        while !stopped {
            do {
                let listener = try database.listener()
                defer { listener.close() }
                try catchUp()
                firstTry.ring()
                if warned { logger.notice("the report database answers again; the toggles and the catalogue follow it") }
                warned = false
                var asked = Date()
                while !stopped {
                    let announced = try listener.notifications(waitingUpTo: 0.2)
                    if !announced.isEmpty || Date().timeIntervalSince(asked) >= Self.pollInterval {
                        try catchUp()
                        asked = Date()
                    }
                }
            } catch {
                for versions in followed { versions.status.failed(error) }
                firstTry.ring()  // the start waits for a first answer, not for a good one
                if !warned {
                    logger.warning("cannot follow the versions in the report database; serving the last ones",
                                   metadata: ["error": "\(error)"])
                    warned = true
                }
                if !stopped { _ = doorbell.wait(seconds: Self.pollInterval) }
            }
        }
    }
}
