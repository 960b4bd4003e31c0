import Foundation
import Reporting
import Synchronization

/// Every recent visitor's `ViewingActivity`, built from the report log's events: the events are
/// the source of truth, this is an index over them, bounded to `capacity` visitors (the least
/// recently seen are dropped and rebuilt from nothing if they come back). At start it is filled
/// from the log off the request threads (`ViewingHistoryLoader`); meanwhile the events recorded
/// now are held and applied over what the log held.
final class ViewingHistory: Sendable {
    /// Two generations: a visitor seen since the last turn is in `recent`; at a turn `recent`
    /// becomes `older` and the old `older` is dropped. O(1) per look-up, at most `capacity` kept.
    private struct State {
        var recent: [String: ViewingActivity] = [:]
        var older: [String: ViewingActivity] = [:]
        /// Events recorded while the log is read, applied over it when it is done; nil once loaded.
        var pending: [ReportEvent]? = []
        /// More were recorded meanwhile than `pendingLimit`: the visitors seen meanwhile keep
        /// what they did since the start alone.
        var overflowed = false
    }

    let capacity: Int
    /// Events held while the log is read, at most.
    let pendingLimit: Int
    /// Events from before this moment come from the log; later ones as they are recorded.
    let loadedBefore: Date
    private let state = Mutex(State())

    /// `loading`: the log is still to be read in (`finishLoading`); else this index starts complete.
    init(capacity: Int, loadedBefore: Date = Date(), loading: Bool = true, pendingLimit: Int = 1_000_000) {
        self.capacity = max(2, capacity)
        self.pendingLimit = pendingLimit
        self.loadedBefore = loadedBefore
        if !loading { state.withLock { $0.pending = nil } }
    }

    /// The visitor's activity, or nil when this instance knows nothing of them.
    func activity(for visitor: String) -> ViewingActivity? {
        state.withLock { state in
            if let found = state.recent[visitor] { return found }
            guard let found = state.older.removeValue(forKey: visitor) else { return nil }
            Self.store(found, for: visitor, in: &state, capacity: capacity)
            return found
        }
    }

    /// Takes an event just recorded into account.
    func apply(_ event: ReportEvent) {
        guard ViewingActivity.reads(event.name), let visitor = event.visitor else { return }
        state.withLock { state in
            if let held = state.pending?.count {
                if held < pendingLimit { state.pending?.append(event) } else { state.overflowed = true }
            }
            Self.apply(event, visitor: visitor, in: &state, capacity: capacity)
        }
    }

    /// Whether the log has been read in.
    var isLoaded: Bool { state.withLock { $0.pending == nil } }

    /// The number of visitors held.
    var count: Int { state.withLock { $0.recent.count + $0.older.count } }

    /// Replaces what is held with `fromLog` (an index complete from the start, given the log's
    /// events before `loadedBefore`) and applies the events recorded meanwhile over it.
    func finishLoading(_ fromLog: ViewingHistory) {
        var loaded = fromLog.state.withLock { State(recent: $0.recent, older: $0.older, pending: nil) }
        state.withLock { state in
            if state.overflowed {
                // Too much happened meanwhile to replay: what is held wins, the log fills in the rest.
                for (visitor, activity) in loaded.older.merging(loaded.recent, uniquingKeysWith: { $1 })
                where state.recent[visitor] == nil && state.older[visitor] == nil {
                    Self.store(activity, for: visitor, in: &state, capacity: capacity)
                }
                state.pending = nil
                return
            }
            for event in state.pending ?? [] { Self.apply(event, visitor: event.visitor!, in: &loaded, capacity: capacity) }
            state = loaded
        }
    }

    private static func apply(_ event: ReportEvent, visitor: String, in state: inout State, capacity: Int) {
        var activity = state.recent[visitor] ?? state.older.removeValue(forKey: visitor) ?? ViewingActivity()
        activity.apply(event)
        store(activity, for: visitor, in: &state, capacity: capacity)
    }

    private static func store(_ activity: ViewingActivity, for visitor: String, in state: inout State, capacity: Int) {
        if state.recent[visitor] == nil, state.recent.count >= capacity / 2 {
            state.older = state.recent
            state.recent = [:]
        }
        state.recent[visitor] = activity
    }
}
