import MicroHTTP
import Reporting
import Synchronization

/// One watcher of `/reports/stream`. A watcher that resumes (`Last-Event-ID`) first catches up
/// from the store; lines written meanwhile are held, a bounded number, and sent after it.
final class LiveWatcher: Sendable {
    private struct State {
        var catchingUp: Bool
        var held: [ReportWatcher.Line] = []
    }

    let stream: ResponseStream
    private let state: Mutex<State>
    /// The most lines held during a catch-up before the watcher is cut.
    static let heldLimit = 4096

    init(stream: ResponseStream, catchingUp: Bool) {
        self.stream = stream
        state = Mutex(State(catchingUp: catchingUp))
    }

    /// Lines just written, as `events` (shared by every watcher). Past its buffer a stream is cut.
    func deliver(_ lines: [ReportWatcher.Line], events: [UInt8]) {
        let (live, overflow) = state.withLock { state -> (Bool, Bool) in
            guard state.catchingUp else { return (true, false) }
            state.held += lines
            return (false, state.held.count > Self.heldLimit)
        }
        if live { stream.write(events) } else if overflow { stream.finish() }
    }

    /// The catch-up has sent everything up to the line `last` (its text): the lines held
    /// meanwhile follow, from the one after it (all of them if it is not among them).
    func caughtUp(last: String?) {
        state.withLock { state in
            var held = state.held[...]
            if let last, let index = held.lastIndex(where: { $0.text == last }) { held = held[(index + 1)...] }
            stream.write(ServerSentEvents.events(Array(held)))
            state.held = []
            state.catchingUp = false
        }
    }
}
