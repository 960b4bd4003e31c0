import Synchronization

/// The later answers not given yet, so shutdown can give them: libmicrohttpd aborts the process
/// when it is stopped with a connection still suspended.
final class OwedAnswers: Sendable {
    private struct State {
        var answers: [ObjectIdentifier: LaterAnswer] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// False once shutdown has started: the caller answers at once instead.
    func add(_ answer: LaterAnswer) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.answers[ObjectIdentifier(answer)] = answer
            return true
        }
    }

    func remove(_ answer: LaterAnswer) {
        _ = state.withLock { $0.answers.removeValue(forKey: ObjectIdentifier(answer)) }
    }

    var count: Int { state.withLock { $0.answers.count } }

    /// Refuses new answers and hands back those still owed.
    func close() -> [LaterAnswer] {
        state.withLock { state in
            state.closed = true
            return Array(state.answers.values)
        }
    }
}
