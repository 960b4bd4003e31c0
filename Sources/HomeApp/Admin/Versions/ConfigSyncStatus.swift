#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// How this instance stands with the report database's versions, for `/admin` and `/metrics`:
/// when it last reached it, why it could not, and a hand edit it refused to take over silently.
final class ConfigSyncStatus: Sendable {
    struct Snapshot: Sendable {
        /// Last time the database answered.
        var contact: Date?
        /// Why the last attempt failed; nil while it answers.
        var failure: String?
        /// Since when it has not answered.
        var failingSince: Date?
        /// A file that differed from the database's version at start, set aside.
        var conflict: String?

        /// Whether the database answered lately (the follower asks at least once a second).
        var isReachable: Bool { failure == nil && contact != nil }
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func reached() {
        state.withLock {
            $0.contact = Date()
            $0.failure = nil
            $0.failingSince = nil
        }
    }

    func failed(_ error: any Error) {
        state.withLock {
            if $0.failure == nil { $0.failingSince = Date() }
            $0.failure = "\(error)"
        }
    }

    func conflict(_ message: String) { state.withLock { $0.conflict = message } }
}
