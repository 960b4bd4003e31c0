import Basics
import Synchronization

/// One reader of new report lines as they are written (for `/reports/stream`). Lines wait in a
/// bounded buffer; a watcher that lets it fill is cut: its lines end, and it should reconnect from
/// its last position. The writer never waits for a watcher and the log loses nothing for one.
public final class ReportWatcher: Sendable {
    /// A written line and where it is, for `Last-Event-ID` and `lines(since:)`.
    public struct Line: Sendable {
        /// The JSON line, without its newline.
        public let text: String
        /// Its position in the store.
        public let position: ReportPosition
    }

    struct State {
        var lines: [Line] = []
        var cut = false
        var cancelled = false
    }

    /// The most lines held for this watcher before it is cut.
    public let capacity: Int
    let state = Mutex(State())
    let ready = Doorbell()
    let onAvailable: (@Sendable () -> Void)?

    init(capacity: Int, onAvailable: (@Sendable () -> Void)?) {
        self.capacity = max(1, capacity)
        self.onAvailable = onAvailable
    }

    /// True once the watcher fell behind and was cut (its lines after that are not delivered).
    public var wasCut: Bool { state.withLock { $0.cut } }

    /// The lines waiting, oldest first, without blocking: empty if none yet, nil once the watcher
    /// is over (cut or cancelled) and everything before that was taken.
    public func take() -> [Line]? {
        state.withLock { state in
            if state.lines.isEmpty { return state.cut || state.cancelled ? nil : [] }
            defer { state.lines.removeAll(keepingCapacity: true) }
            return state.lines
        }
    }

    /// Like `take`, but waits up to `timeout` seconds for a line.
    public func next(timeout: Double) -> [Line]? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while true {
            guard let lines = take() else { return nil }
            if !lines.isEmpty { return lines }
            let left = (deadline - clock.now).components
            let seconds = Double(left.seconds) + Double(left.attoseconds) / 1e18
            if seconds <= 0 || !ready.wait(seconds: seconds) { return take() }
        }
    }

    /// Stops the lines; the log forgets the watcher at its next write.
    public func cancel() {
        state.withLock { $0.cancelled = true }
        ready.ring()
    }

    /// Called by the writer: false when the watcher is over and should be forgotten.
    func deliver(_ lines: [Line]) -> Bool {
        let (keep, notify) = state.withLock { state -> (Bool, Bool) in
            if state.cut || state.cancelled { return (false, false) }
            let wasEmpty = state.lines.isEmpty
            if state.lines.count + lines.count > capacity {
                state.cut = true
                return (false, true)
            }
            state.lines.append(contentsOf: lines)
            return (true, wasEmpty)
        }
        if notify {
            ready.ring()
            onAvailable?()
        }
        return keep
    }
}
