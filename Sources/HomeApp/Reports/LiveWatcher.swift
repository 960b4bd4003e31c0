import MicroHTTP
import Synchronization

/// One watcher of `/reports/stream`. A watcher that resumes (`Last-Event-ID`) first catches up
/// from the log file; runs written meanwhile are held, a bounded amount, and sent after it.
final class LiveWatcher: Sendable {
    private struct State {
        var catchingUp: Bool
        var held: [(lines: [UInt8], offset: Int)] = []
        var heldBytes = 0
    }

    let stream: ResponseStream
    private let state: Mutex<State>

    init(stream: ResponseStream, catchingUp: Bool) {
        self.stream = stream
        state = Mutex(State(catchingUp: catchingUp))
    }

    /// A run of lines just written, as `events`. Past the stream's buffer the stream is cut.
    func deliver(_ lines: [UInt8], at offset: Int, events: [UInt8]) {
        let live = state.withLock { state -> Bool in
            guard state.catchingUp else { return true }
            state.held.append((lines, offset))
            state.heldBytes += lines.count
            return false
        }
        if live {
            stream.write(events)
        } else if state.withLock({ $0.heldBytes }) > stream.maximumPendingBytes {
            stream.finish()
        }
    }

    /// The catch-up has sent everything up to `end` in the log: the runs held meanwhile follow,
    /// without the lines it sent already.
    func caughtUp(through end: Int) {
        state.withLock { state in
            for run in state.held { stream.write(ServerSentEvents.events(run.lines, at: run.offset, after: end)) }
            state.held = []
            state.heldBytes = 0
            state.catchingUp = false
        }
    }
}
