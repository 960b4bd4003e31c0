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
