import MicroHTTP
import Reporting
import Synchronization

/// One watcher of `/reports/stream`. A watcher that resumes (`Last-Event-ID`) first catches up
/// from the store; lines the feed brings meanwhile are held, a bounded number, and after the
/// catch-up only those past its last line are sent (the feed may lag behind the store).
final class LiveWatcher: Sendable {
    private struct State {
        var catchingUp: Bool
        var held: [ReportWatcher.Line] = []
        /// The last line the catch-up sent: the feed's lines up to it are left out.
        var floor: (segment: String, offset: Int64)?
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
        enum Outcome { case send([UInt8]), hold, cut }
        let outcome = state.withLock { state -> Outcome in
            if state.catchingUp {
                state.held += lines
                return state.held.count > Self.heldLimit ? .cut : .hold
            }
            guard let floor = state.floor else { return .send(events) }
            let newer = lines.filter { Self.isAfter($0.position, floor) }
            if !newer.isEmpty { state.floor = nil }
            return .send(newer.count == lines.count ? events : ServerSentEvents.events(newer))
        }
        switch outcome {
        case .send(let bytes): stream.write(bytes)
        case .hold: break
        case .cut: stream.finish()
        }
    }

    /// The catch-up has sent everything up to the line at `last`: the lines held meanwhile
    /// follow, from the one after it.
    func caughtUp(through last: ReportPosition?) {
        state.withLock { state in
            state.floor = last.flatMap(Self.parts)
            let newer = state.floor.map { floor in state.held.filter { Self.isAfter($0.position, floor) } } ?? state.held
            if !newer.isEmpty { state.floor = nil }
            stream.write(ServerSentEvents.events(newer))
            state.held = []
            state.catchingUp = false
        }
    }

    /// `segment:offset`, ordered by segment name (they sort by time) and then offset.
    private static func parts(_ position: ReportPosition) -> (segment: String, offset: Int64)? {
        let text = position.description
        guard let colon = text.lastIndex(of: ":"), let offset = Int64(text[text.index(after: colon)...]) else { return nil }
        return (String(text[..<colon]), offset)
    }

    private static func isAfter(_ position: ReportPosition, _ floor: (segment: String, offset: Int64)) -> Bool {
        guard let line = parts(position) else { return true }
        return line.segment > floor.segment || (line.segment == floor.segment && line.offset > floor.offset)
    }
}
