import Synchronization

/// Request ids unique within a process and unlikely to repeat across restarts:
/// a random per-process prefix and a counter, e.g. `5f3a9c1e-1a`.
final class RequestIDGenerator: Sendable {
    private let prefix = String(UInt32.random(in: .min ... .max), radix: 16)
    private let counter = Atomic<UInt64>(0)

    func next() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 16)
    }
}
