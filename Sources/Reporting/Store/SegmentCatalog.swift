import Basics
import Synchronization

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
    /// The last gzip indexes read, newest last: at 8 bytes a member they are kept on disk rather
    /// than in memory for every segment (8.5 MiB at 100 million events). `keptIndexes` of them
    /// (64 by default: 2 MiB of 64 MiB segments); a visitor's query reads of the others only the
    /// entries of its members (`index(_:for:)`).
    private let indexes = Mutex<[(stamp: String, index: GzipIndex)]>([])
    let keptIndexes: Int
    /// The version of each segment's gzip index file whose checksum matched: read again as long
    /// as it is that file, without the check.
    private let checkedIndexes = Mutex<[String: FileStamp]>([:])
    /// Whole days' visitor sketches, merged once (`DaySketches`).
    let daySketches = DaySketches()
    /// The experiments' exact visitor sums, as the writer last published them.
    let experimentTallies = ExperimentTallyBoard()

    init(directory: String, interner: Interner = Interner(), segments: [SegmentEntry] = [], keptIndexes: Int = 64) {
        self.directory = directory
        self.keptIndexes = keptIndexes
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

    func visitorIndexPath(_ stamp: String) -> String { directory + "/" + SegmentName.visitorIndexFile(stamp) }

    /// The segments whose gzip indexes are kept, oldest kept first: for tests.
    var keptIndexStamps: [String] { indexes.withLock { $0.map(\.stamp) } }

    /// Where the gzip members of `entry` start; nil when it is plain or has no usable index.
    func index(_ entry: SegmentEntry) -> GzipIndex? {
        guard entry.compressed, entry.indexed else { return nil }
        if let cached = indexes.withLock({ $0.last { $0.stamp == entry.stamp }?.index }) { return cached }
        let checked = checkedIndexes.withLock { $0[entry.stamp] }
        guard let (index, file) = GzipIndex.load(indexPath(entry.stamp), checked: checked),
              index.members.last?.uncompressed == entry.rollup.bytes
        else { return nil }
        if file != checked { checkedIndexes.withLock { $0[entry.stamp] = file } }
        indexes.withLock { cache in
            cache.removeAll { $0.stamp == entry.stamp }
            cache.append((entry.stamp, index))
            if cache.count > keptIndexes { cache.removeFirst() }
        }
        return index
    }

    /// The gzip index of `entry` for reading some of its members, and those members: `members` is
    /// given the segment's member count and names them (nil: it cannot). A kept index is used
    /// whole; otherwise, once the file's checksum has matched, only the entries of those members
    /// (and the last) are read: a visitor's query over hundreds of segments read every index whole.
    /// A segment whose visitor index has a fence names its members first, from the member count
    /// the fence holds: of a long log most segments hold none of one visitor's, and then no gzip
    /// index is read (the index returned is empty).
    func index(_ entry: SegmentEntry, for members: (Int) -> [Int]?) -> (index: GzipIndex, members: [Int])? {
        guard entry.compressed, entry.indexed else { return nil }
        let named = entry.visitorFence.map { (count: $0.memberCount, members: members($0.memberCount)) }
        if let named, named.members?.isEmpty == true { return (GzipIndex(), []) }
        /// The members for an index of `count` members: named already, or now.
        func wanted(_ count: Int) -> [Int]? {
            guard let named else { return members(count) }
            return named.count == count ? named.members : nil
        }
        if let cached = indexes.withLock({ $0.last { $0.stamp == entry.stamp }?.index }) {
            return wanted(cached.members.count - 1).map { (cached, $0) }
        }
        if let checked = checkedIndexes.withLock({ $0[entry.stamp] }), let file = FileWindow(path: indexPath(entry.stamp)),
           file.stamp == checked {
            guard let count = GzipIndex.count(in: file), let wanted = wanted(count - 1),
                  let index = GzipIndex.load(file, count: count, entries: wanted),
                  index.members.last?.uncompressed == entry.rollup.bytes
            else { return nil }
            return (index, wanted)
        }
        guard let whole = index(entry) else { return nil }
        return wanted(whole.members.count - 1).map { (whole, $0) }
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
        checkedIndexes.withLock { _ = $0.removeValue(forKey: stamp) }
    }

    func entry(_ stamp: String) -> SegmentEntry? {
        state.withLock { $0.segments.first { $0.stamp == stamp } }
    }

    func addDropped(_ count: Int) {
        state.withLock { $0.dropped += count }
    }
}
