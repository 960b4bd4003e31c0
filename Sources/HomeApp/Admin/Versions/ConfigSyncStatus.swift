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
        /// Where that file's edit is kept, to review it as a change.
        var kept: String?

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

    /// The kept edit was applied: nothing is left to say of it.
    func conflictResolved() {
        state.withLock {
            $0.conflict = nil
            $0.kept = nil
        }
    }

    func conflict(_ message: String, kept: String? = nil) {
        state.withLock {
            $0.conflict = message
            $0.kept = kept
        }
    }
}
