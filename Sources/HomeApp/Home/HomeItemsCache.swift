#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HomeLayouts
import Synchronization

/// The catalogue boxed as `[any HomeItem]` once per content version, not once per request,
/// with what makes its display change over time: the live streams' start instants.
final class HomeItemsCache: Sendable {
    /// A class: every home request takes one, and a struct's two arrays were retained and
    /// released each time.
    final class Entry: Sendable {
        let version: Int
        let items: [any HomeItem]
        /// Start instants of the live streams, sorted.
        let starts: [Date]

        /// The last count of started streams and the instants it holds between: from the last
        /// start it counts (or the earliest time) until the next (or the latest).
        private let lastCount = Mutex<(started: Int, from: Date, until: Date)?>(nil)

        init(version: Int, items: [any HomeItem], starts: [Date]) {
            self.version = version
            self.items = items
            self.starts = starts
        }

        /// What a rendered page depends on besides the items: the UTC day ("Starts 19:45" or
        /// "Starts Sun 22 Nov") and how many streams are live by now ("Live now").
        func displayState(at now: Date) -> DisplayState {
            DisplayState(day: Int((now.timeIntervalSince1970 / 86_400).rounded(.down)), started: started(at: now))
        }

        /// How many streams started by `now`: the count kept while `now` is before the next start
        /// (every request asks, the count changes a few times a day), else searched again.
        func started(at now: Date) -> Int {
            if let kept = lastCount.withLock({ $0 }), kept.from <= now, now < kept.until { return kept.started }
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= now { low = middle + 1 } else { high = middle }
            }
            let from = low > 0 ? starts[low - 1] : .distantPast, until = low < starts.count ? starts[low] : .distantFuture
            lastCount.withLock { $0 = (low, from, until) }
            return low
        }
    }

    struct DisplayState: Hashable, Sendable {
        let day: Int
        let started: Int
    }

    private let cached = Mutex<Entry?>(nil)

    /// The entry of the catalogue in force. The store's version is compared first: the catalogue
    /// is copied out of the store (four references retained and released) only when it changed.
    func entry(for store: ContentStore) -> Entry {
        kept(store.version) ?? entry(for: store.snapshot)
    }

    func entry(for snapshot: ContentSnapshot) -> Entry {
        if let hit = kept(snapshot.version) { return hit }
        let entry = Entry(version: snapshot.version, items: snapshot.catalog.items.map { $0 as any HomeItem },
                          starts: snapshot.catalog.items.compactMap(\.startsAt).sorted())
        cached.withLock { $0 = entry }
        return entry
    }

    func items(for snapshot: ContentSnapshot) -> [any HomeItem] { entry(for: snapshot).items }

    private func kept(_ version: Int) -> Entry? { cached.withLock { $0?.version == version ? $0 : nil } }
}
