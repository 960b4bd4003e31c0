import Synchronization

/// The deferred responses not given yet, so shutdown can give them: libmicrohttpd aborts the process
/// when it is stopped with a connection still suspended.
final class OwedResponses: Sendable {
    private struct State {
        var pending: [ObjectIdentifier: DeferredResponse] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// False once shutdown has started: the caller answers at once instead.
    func add(_ pending: DeferredResponse) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.pending[ObjectIdentifier(pending)] = pending
            return true
        }
    }

    func remove(_ pending: DeferredResponse) {
        _ = state.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(pending)) }
    }

    var count: Int { state.withLock { $0.pending.count } }

    /// Refuses new answers and hands back those still owed.
    func close() -> [DeferredResponse] {
        state.withLock { state in
            state.closed = true
            return Array(state.pending.values)
        }
    }
}
