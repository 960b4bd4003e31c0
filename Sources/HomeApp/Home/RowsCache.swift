import MicroHTTP
import Synchronization

/// Each recent visitor's own rows as the cached page takes them (`SlotInsert`: the markup, and
/// its gzip run and CRC once a gzip response made them), kept until what they were drawn from
/// changes: the visitor's viewing as held, the layout, the catalogue, the assets' names, the play
/// statistics (Because you watched) and the rows the toggles hide from them. A visitor's repeat
/// request then costs a look-up and a copy, not drawing and compressing their rows.
///
/// Bounded by a budget of bytes, in two halves: entries go into the recent half; when it is
/// full it becomes the older half (the one before is dropped) and a new recent half starts. A
/// hit in the older half moves the entry back into the recent one, so a visitor who keeps coming
/// stays, and at most `budget` bytes are held: a least-recently-used order without a list to keep.
final class RowsCache: Sendable {
    /// What a visitor's rows were drawn from.
    struct Key: Equatable {
        let held: ViewingHistory.Held
        let layout: String
        let contentVersion: Int
        let assets: Int
        let plays: Int
        let hidden: Set<String>
    }

    private struct Entry {
        let key: Key
        /// Nil when the visitor has no rows to show (titles gone from the catalogue, rows hidden).
        let insert: SlotInsert?
        let footprint: Int
    }

    private struct Halves {
        var recent: [UInt64: Entry] = [:]
        var older: [UInt64: Entry] = [:]
        var recentBytes = 0
    }

    /// 32 MB: some 3,000 visitors with two rows of five titles (8 KB of markup, 2 KB of gzip).
    static let defaultBudget = 32 << 20

    let budget: Int
    private let halves = Mutex(Halves())

    init(budget: Int = RowsCache.defaultBudget) { self.budget = max(budget, 2) }

    /// The rows kept for `key`: `.some(nil)` when the visitor has none to show, nil when not kept.
    func rows(for key: Key) -> SlotInsert?? {
        halves.withLock { halves in
            if let entry = halves.recent[key.held.key] {
                return entry.key == key ? .some(entry.insert) : nil
            }
            guard let entry = halves.older.removeValue(forKey: key.held.key), entry.key == key else { return nil }
            Self.add(entry, to: &halves, budget: budget)
            return .some(entry.insert)
        }
    }

    /// Keeps `insert` (nil: no rows) as the visitor's rows for `key`, replacing what was kept for them.
    func store(_ insert: SlotInsert?, for key: Key) {
        let entry = Entry(key: key, insert: insert, footprint: 160 + key.held.words.count * 4 + (insert?.footprint ?? 0))
        halves.withLock { halves in
            halves.older[key.held.key] = nil
            if let replaced = halves.recent.removeValue(forKey: key.held.key) { halves.recentBytes -= replaced.footprint }
            Self.add(entry, to: &halves, budget: budget)
        }
    }

    private static func add(_ entry: Entry, to halves: inout Halves, budget: Int) {
        if halves.recentBytes + entry.footprint > budget / 2 {
            halves.older = halves.recent
            halves.recent = [:]
            halves.recentBytes = 0
        }
        halves.recent[entry.key.held.key] = entry
        halves.recentBytes += entry.footprint
    }

    /// What is kept for the visitor with this key, whatever it was drawn from: for tests.
    func kept(_ visitor: UInt64) -> SlotInsert?? {
        halves.withLock { ($0.recent[visitor] ?? $0.older[visitor]).map(\.insert) }
    }

    /// Visitors kept, and the bytes the recent half holds: for tests.
    var counts: (visitors: Int, recentBytes: Int) {
        halves.withLock { ($0.recent.count + $0.older.count, $0.recentBytes) }
    }
}
