import Synchronization

/// Numbers a server's requests: one random prefix per server, a counter from 1.
final class RequestIDGenerator: Sendable {
    private let prefix = UInt32.random(in: .min ... .max)
    private let counter = Atomic<UInt64>(0)

    func next() -> RequestID {
        RequestID(prefix: prefix, number: counter.add(1, ordering: .relaxed).newValue)
    }
}
