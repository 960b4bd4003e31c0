import Synchronization

/// One segment as the store knows it.
struct SegmentEntry: Sendable {
    /// The time stamp in its file names.
    let stamp: String
    /// Epoch ms of the stamp: no event in the segment is older, none in earlier segments newer.
    let startMs: Int64
    var compressed: Bool
    /// Still being written: its rollup and size grow.
    var active: Bool
    /// Everything in the segment, counted; `rollup.bytes` is its uncompressed length.
    var rollup: Rollup
    /// Its size on disk (compressed once compressed).
    var fileBytes: Int64
    /// Compressed with an index of where its gzip members start, consistent with its rollup
    /// (false: read it from the start). The index stays on disk: `SegmentCatalog.index` loads it.
    var indexed = false
    /// Once closed and its rollup saved: the per-minute counts with items folded out, and the
    /// per-item counts by hour, in compact form (`rollup.counts` is then empty). A few MiB a day
    /// at any volume; a range's partial hours with an item filter are read from the saved rollup.
    var frozen: FrozenCounts? = nil
    var hourlyItems: FrozenCounts? = nil

    /// Moves the counts of a closed segment whose rollup is on disk into their compact form.
    mutating func freeze() {
        guard frozen == nil else { return }
        var minutes: [CountKey: Int] = [:]
        var hours: [CountKey: Int] = [:]
        for (key, count) in rollup.counts {
            minutes[CountKey(minute: key.minute, event: key.event, layout: key.layout, item: 0), default: 0] += count
            if key.item != 0 {
                let hour = Int32(ReportTimestamp.floorDiv(Int64(key.minute), 60) * 60)
                hours[CountKey(minute: hour, event: key.event, layout: key.layout, item: key.item), default: 0] += count
            }
        }
        frozen = FrozenCounts(minutes)
        hourlyItems = FrozenCounts(hours)
        rollup.counts = [:]
    }

    /// Calls `body` with each count of a minute in `[from, to)` (items folded out once frozen).
    func forEachCount(from: Int32, to: Int32, _ body: (CountKey, Int) -> Void) {
        if let frozen {
            frozen.forEach(from: from, to: to, body)
        } else {
            for (key, count) in rollup.counts where key.minute >= from && key.minute < to { body(key, count) }
        }
    }
}

/// The segments of one report directory and their rollups: written by the log's writer (or an
/// import), read by `ReportStore`. Readers take a snapshot and work outside the lock; the
/// rollups are copy-on-write, so a snapshot costs a few retains.
final class SegmentCatalog: Sendable {
    struct State {
        var segments: [SegmentEntry] = []
        var dropped = 0
        /// Events in segments deleted by the size cap before they were shipped.
        var unshippedDeleted = 0
    }

    let directory: String
    let interner: Interner
    let state: Mutex<State>
    /// The last few gzip indexes read, newest last: at 8 bytes a member they are kept on disk
    /// rather than in memory for every segment (8.5 MiB at 100 million events).
    private let indexes = Mutex<[(stamp: String, index: GzipIndex)]>([])
    static let cachedIndexes = 8
    /// The experiments' exact visitor sums, as the writer last published them.
    let experimentTallies = ExperimentTallyBoard()

    init(directory: String, interner: Interner = Interner(), segments: [SegmentEntry] = []) {
        self.directory = directory
        self.interner = interner
        state = Mutex(State(segments: segments.sorted { $0.stamp < $1.stamp }))
    }

    var segments: [SegmentEntry] { state.withLock { $0.segments } }

    var dropped: Int { state.withLock { $0.dropped } }

    func path(_ entry: SegmentEntry) -> String { path(stamp: entry.stamp, compressed: entry.compressed) }

    func path(stamp: String, compressed: Bool) -> String {
        directory + "/" + SegmentName.dataFile(stamp, compressed: compressed)
    }

    func rollupPath(_ stamp: String) -> String { directory + "/" + SegmentName.rollupFile(stamp) }

    func indexPath(_ stamp: String) -> String { directory + "/" + SegmentName.indexFile(stamp) }

    func visitorsPath(_ stamp: String) -> String { directory + "/" + SegmentName.visitorsFile(stamp) }

    func membersPath(_ stamp: String) -> String { directory + "/" + SegmentName.membersFile(stamp) }

    /// Where the gzip members of `entry` start; nil when it is plain or has no usable index.
    func index(_ entry: SegmentEntry) -> GzipIndex? {
        guard entry.compressed, entry.indexed else { return nil }
        if let cached = indexes.withLock({ $0.last { $0.stamp == entry.stamp }?.index }) { return cached }
        guard let index = GzipIndex.load(indexPath(entry.stamp)), index.members.last?.uncompressed == entry.rollup.bytes else {
            return nil
        }
        indexes.withLock { cache in
            cache.removeAll { $0.stamp == entry.stamp }
            cache.append((entry.stamp, index))
            if cache.count > Self.cachedIndexes { cache.removeFirst() }
        }
        return index
    }

    func add(_ entry: SegmentEntry) {
        state.withLock { state in
            state.segments.append(entry)
            if state.segments.count > 1, state.segments[state.segments.count - 2].stamp > entry.stamp {
                state.segments.sort { $0.stamp < $1.stamp }
            }
        }
    }

    /// Changes the segment named `stamp` in place (no-op if it was removed meanwhile).
    func update(_ stamp: String, _ body: (inout SegmentEntry) -> Void) {
        state.withLock { state in
            guard let index = state.segments.lastIndex(where: { $0.stamp == stamp }) else { return }
            body(&state.segments[index])
        }
    }

    func remove(_ stamp: String) {
        state.withLock { $0.segments.removeAll { $0.stamp == stamp } }
    }

    func entry(_ stamp: String) -> SegmentEntry? {
        state.withLock { $0.segments.first { $0.stamp == stamp } }
    }

    func addDropped(_ count: Int) {
        state.withLock { $0.dropped += count }
    }
}
