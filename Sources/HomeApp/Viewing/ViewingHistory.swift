#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Basics
import Reporting
import Synchronization

/// Every recent visitor's `ViewingActivity`, built from the report log's events: the events are
/// the source of truth, this is an index over them, bounded to `capacity` visitors held compactly
/// (`ViewingTable`; the least recently seen go first). At start it is filled from the log off the
/// request threads (`ViewingHistoryLoader`); meanwhile the events recorded now are held and
/// applied over what the log held. A visitor dropped (or never held) is looked up in the log
/// again off the request threads (`ViewingLookup`) and held from then on.
final class ViewingHistory: Sendable {
    private struct State {
        var table: ViewingTable
        /// Events recorded while the log is read, applied over it when it is done; nil once loaded.
        var pending: [ReportEvent]? = []
        /// More were recorded meanwhile than `pendingLimit`: the visitors seen meanwhile keep
        /// what they did since the start alone.
        var overflowed = false
        /// Changes when the table is replaced (its titles numbered anew): words read before and
        /// after may be equal and mean other titles.
        var generation = 0
    }

    /// What the index holds of one visitor, as it is held: a request compares it with what it
    /// kept from an earlier one (`RowsCache`) and decodes it only when it changed.
    struct Held: Equatable {
        let key: UInt64
        let generation: Int
        let words: [UInt32]

        var isEmpty: Bool { words.isEmpty }
    }

    /// Bytes a visitor held may take beside their slot, on average: with the slots and the index
    /// (some 57 bytes a visitor) a million visitors stay within 64 MB.
    static let overflowBytesPerVisitor = 6

    let capacity: Int
    /// Events held while the log is read, at most.
    let pendingLimit: Int
    /// Events from before this moment come from the log; later ones as they are recorded.
    let loadedBefore: Date
    private let state: Mutex<State>

    /// `loading`: the log is still to be read in (`finishLoading`); else this index starts complete.
    /// `overflowBudget`: bytes for activities too long for their slot.
    init(capacity: Int, loadedBefore: Date = Date(), loading: Bool = true, pendingLimit: Int = 1_000_000,
         overflowBudget: Int? = nil) {
        self.capacity = max(2, capacity)
        self.pendingLimit = pendingLimit
        self.loadedBefore = loadedBefore
        let budget = overflowBudget ?? Self.overflowBytesPerVisitor * max(2, capacity)
        state = Mutex(State(table: ViewingTable(capacity: max(2, capacity), overflowBudget: budget)))
        if !loading { state.withLock { $0.pending = nil } }
    }

    /// The visitor's key: an id's (`key(_: VisitorID)`) when the text spells one, as every visitor
    /// this site issues does; else the text's bytes mixed eight at a time (FNV byte by byte cost
    /// a thousand instructions for a 32-character id). Held in memory only: the index is read
    /// from the log at start.
    static func key(_ visitor: String) -> UInt64 {
        if let id = VisitorID(visitor) { return key(id) }
        // Read in place (a copy for `withUTF8` costs a retain and a release).
        if let key = visitor.utf8.withContiguousStorageIfAvailable(key(of:)) { return key }
        var visitor = visitor
        return visitor.withUTF8(key(of:))
    }

    /// The key of an id: its two words mixed (every home request asks; spelling its digits
    /// first cost some 100 instructions more).
    static func key(_ visitor: VisitorID) -> UInt64 {
        mix(mix(visitor.high ^ 0x9E37_79B9_7F4A_7C15 ^ UInt64(VisitorID.digitCount)) ^ visitor.low)
    }

    private static func key(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let raw = UnsafeRawBufferPointer(bytes)
        var at = 0
        // Whole words in one load each (little-endian, as the tail below assembles them): a loop
        // over the bytes with a range per word cost 750 instructions for a 32-character id.
        while at + 8 <= raw.count {
            hash = mix(hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
            at += 8
        }
        if at < raw.count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while at < raw.count {
                word |= UInt64(raw[at]) << shift
                shift += 8
                at += 1
            }
            hash = mix(hash ^ word)
        }
        return hash
    }

    /// A 64-bit finaliser (SplitMix64's): every bit of the input moves every bit of the output.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The visitor's activity, or nil when this instance holds nothing of them (never seen, or
    /// dropped as the least recent).
    func activity(for visitor: String) -> ViewingActivity? { activity(key: Self.key(visitor)) }

    func activity(for visitor: VisitorID) -> ViewingActivity? { activity(key: Self.key(visitor)) }

    private func activity(key: UInt64) -> ViewingActivity? {
        state.withLock { state in
            // Most visitors held have done nothing yet (looked up and found empty): no words to copy.
            guard let header = state.table.header(for: key) else { return nil }
            if header == 0 { return ViewingActivity() }
            return state.table.words(for: key).map { ViewingWords.decode($0, titles: state.table.titles) }
        }
    }

    /// The visitor's words as held (none when they have done nothing yet), or nil when this
    /// instance holds nothing of them.
    func held(_ visitor: String) -> Held? { held(key: Self.key(visitor)) }

    func held(_ visitor: VisitorID) -> Held? { held(key: Self.key(visitor)) }

    private func held(key: UInt64) -> Held? {
        state.withLock { state in
            guard let header = state.table.header(for: key) else { return nil }
            if header == 0 { return Held(key: key, generation: state.generation, words: []) }
            return Held(key: key, generation: state.generation, words: state.table.words(for: key) ?? [])
        }
    }

    /// The activity `held` stands for; nil when the table was replaced since it was read.
    func activity(_ held: Held) -> ViewingActivity? {
        state.withLock { state in
            state.generation == held.generation ? ViewingWords.decode(held.words, titles: state.table.titles) : nil
        }
    }

    /// Whether the visitor is held (without making them the most recent).
    func holds(_ visitor: String) -> Bool { state.withLock { $0.table.contains(Self.key(visitor)) } }

    /// Takes an event just recorded into account.
    func apply(_ event: ReportEvent) {
        guard ViewingActivity.reads(event.name), let visitor = event.visitor else { return }
        state.withLock { state in
            if let held = state.pending?.count {
                if held < pendingLimit { state.pending?.append(event) } else { state.overflowed = true }
            }
            Self.apply(event, visitor: visitor, in: &state.table)
        }
    }

    /// Takes another instance's event into account: applied like one recorded here while the
    /// index is read in (the read replaces what is held, and the pending events are applied over
    /// it), afterwards only to a visitor held. A visitor not held is looked up whole when they
    /// come (`ViewingLookup`): one event alone would hide the rest of their history.
    func applyDatabase(_ event: ReportEvent) {
        guard ViewingActivity.reads(event.name), let visitor = event.visitor else { return }
        state.withLock { state in
            if let held = state.pending?.count {
                if held < pendingLimit { state.pending?.append(event) } else { state.overflowed = true }
            } else if !state.table.contains(Self.key(visitor)) {
                return
            }
            Self.apply(event, visitor: visitor, in: &state.table)
        }
    }

    /// Holds what a look-up in the log found for `visitor`, unless they were held meanwhile
    /// (their events since then are applied as recorded: those win).
    func fill(_ visitor: String, with activity: ViewingActivity) {
        state.withLock { state in
            let key = Self.key(visitor)
            guard !state.table.contains(key) else { return }
            state.table.set(ViewingWords.encode(activity, titles: &state.table.titles), for: key)
        }
    }

    /// Whether the log has been read in.
    var isLoaded: Bool { state.withLock { $0.pending == nil } }

    /// The number of visitors held.
    var count: Int { state.withLock { $0.table.count } }

    /// Replaces what is held with `fromLog` (an index complete from the start, given the log's
    /// events before `loadedBefore`) and applies the events recorded meanwhile over it.
    func finishLoading(_ fromLog: ViewingHistory) {
        let loaded = fromLog.state.withLock { $0.table }
        state.withLock { state in
            if state.overflowed {
                // Too much happened meanwhile to replay: what is held wins, the log fills in the rest.
                var held = state.table
                loaded.forEachOldestFirst { key, words in
                    guard !held.contains(key) else { return }
                    let activity = ViewingWords.decode(words, titles: loaded.titles)
                    held.set(ViewingWords.encode(activity, titles: &held.titles), for: key)
                }
                state = State(table: held, pending: nil, generation: state.generation + 1)
                return
            }
            var table = loaded
            for event in state.pending ?? [] { Self.apply(event, visitor: event.visitor!, in: &table) }
            state = State(table: table, pending: nil, generation: state.generation + 1)
        }
    }

    private static func apply(_ event: ReportEvent, visitor: String, in table: inout ViewingTable) {
        let key = key(visitor)
        var activity = table.words(for: key).map { ViewingWords.decode($0, titles: table.titles) } ?? ViewingActivity()
        activity.apply(event)
        table.set(ViewingWords.encode(activity, titles: &table.titles), for: key)
    }
}
