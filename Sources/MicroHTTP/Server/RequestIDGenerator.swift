import Basics
import Synchronization

/// Numbers a server's requests: one random prefix per server, a counter from 1.
final class RequestIDGenerator: Sendable {
    /// The prefix, its digits written once.
    private let template = RequestID(prefix: UInt32.random(in: .min ... .max), number: 0)
    private let counter = Atomic<UInt64>(0)

    func next() -> RequestID {
        template.numbered(counter.add(1, ordering: .relaxed).newValue)
    }
}
