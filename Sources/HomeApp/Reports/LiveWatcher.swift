import MicroHTTP
import ReportDatabase
import Reporting
import Synchronization

/// One watcher of `/reports/stream`. A watcher that resumes (`Last-Event-ID`) first catches up
/// from the store (or the report database); lines the feed brings meanwhile are held, a bounded
/// number, and after the catch-up only those past its last line are sent (the feed may lag
/// behind the store).
final class LiveWatcher: Sendable {
    private struct State {
        var catchingUp: Bool
        var held: [ReportWatcher.Line] = []
        var heldDatabase: [DatabaseLineFeed.Batch] = []
        var heldDatabaseCount = 0
        /// The last line the catch-up sent: the feed's lines up to it are left out.
        var floor: (segment: String, offset: Int64)?
        var databaseFloor: DatabaseEventKey?
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

    /// Every instance's lines from the report database, as `events` (shared by every watcher).
    func deliver(_ batch: DatabaseLineFeed.Batch, events: [UInt8]) {
        enum Outcome { case send([UInt8]), hold, cut }
        let outcome = state.withLock { state -> Outcome in
            if state.catchingUp {
                state.heldDatabase.append(batch)
                state.heldDatabaseCount += batch.late.count + batch.ordered.count
                return state.heldDatabaseCount > Self.heldLimit ? .cut : .hold
            }
            guard let floor = state.databaseFloor else { return .send(events) }
            let newer = Self.after(floor, batch)
            // The feed's ordered keys only grow: once one is past the floor, all later ones are.
            if !newer.ordered.isEmpty { state.databaseFloor = nil }
            return .send(ServerSentEvents.events(newer))
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

    /// The database catch-up has sent every row up to the key `last`: the feed's rows held
    /// meanwhile follow, those after it (the others were sent, or came too late for the order).
    func caughtUp(throughDatabase last: DatabaseEventKey) {
        state.withLock { state in
            let newer = state.heldDatabase.map { Self.after(last, $0) }
            state.databaseFloor = newer.allSatisfy(\.ordered.isEmpty) ? last : nil
            stream.write(newer.flatMap(ServerSentEvents.events))
            state.heldDatabase = []
            state.heldDatabaseCount = 0
            state.catchingUp = false
        }
    }

    private static func after(_ floor: DatabaseEventKey, _ batch: DatabaseLineFeed.Batch) -> DatabaseLineFeed.Batch {
        DatabaseLineFeed.Batch(late: batch.late.filter { $0.key > floor }, ordered: batch.ordered.filter { $0.key > floor })
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
