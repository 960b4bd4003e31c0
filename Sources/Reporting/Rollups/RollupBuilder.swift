import Basics

/// Counts events into a `Rollup`, interning through the writer's cache.
struct RollupBuilder {
    private var counted = Rollup()
    private var counts = CountTable()
    /// The overall sketch of the hour being written, kept out of the dictionary until it ends.
    /// It lives across `reset()`: handing the same visitors again is harmless (a sketch merges by
    /// maximum), so a chunk hands it over only when one of its events raised a register, instead
    /// of a fresh 4 KiB sketch made, filled and merged for every chunk the writer flushes.
    private var hour: Int32 = .min
    private var hourSketch = HyperLogLog()
    private var hourSketchUsed = false
    var cache: InternCache
    /// The last visitor hashed and its hash: consecutive events of one visitor (a view and its
    /// selections) are common, and hashing is the costliest step here.
    private var lastVisitor: String?
    private var lastHash: UInt64 = 0

    init(interner: Interner) { cache = InternCache(interner: interner) }

    /// Everything counted since the last reset.
    var rollup: Rollup {
        mutating get {
            counts.drain(into: &counted.counts)
            flushHour()
            return counted
        }
    }

    private mutating func flushHour() {
        guard hourSketchUsed else { return }
        let key = SketchKey(hour: hour, experiment: 0, group: 0)
        if counted.sketches[key] == nil { counted.sketches[key] = hourSketch } else { counted.sketches[key]!.merge(hourSketch) }
        hourSketchUsed = false
    }

    /// Starts the next chunk: its counts from zero; the hour's sketch stays (see `hourSketch`).
    mutating func reset() {
        counts.drain(into: &counted.counts)
        counted = Rollup()
        hourSketchUsed = false
    }

    /// Forgets the hour's sketch: for a new segment, or a chunk not written as counted.
    mutating func startOver() {
        hour = .min
        hourSketch = HyperLogLog()
        hourSketchUsed = false
    }

    /// Counts the event; returns its visitor's hash, if it has a visitor.
    @discardableResult
    mutating func add(_ event: borrowing ReportEvent, ms: Int64, bytes: Int) -> UInt64? {
        let minute = ExperimentCounter.minute(ms)
        let hour = ExperimentCounter.hour(ms)
        let name = cache.id(event.name.rawValue)
        let layout = cache.id(event.layout)
        counts.add(CountKey(minute: minute, event: name, layout: layout, item: cache.id(event.item)))
        var hash: UInt64?
        if let visitor = event.visitor {
            if visitor != lastVisitor {
                lastVisitor = visitor
                lastHash = StableHash.hash(visitor)
            }
            hash = lastHash
            if hour != self.hour {
                flushHour()
                self.hour = hour
                hourSketch = HyperLogLog()
            }
            if hourSketch.add(hash: lastHash) { hourSketchUsed = true }
        }
        if !event.properties.isEmpty {
            ExperimentCounter.count(event.properties, minute: minute, hour: hour, event: name, layout: layout, visitor: hash,
                                    cache: &cache, groups: &counted.groups, sketches: &counted.sketches)
        }
        counted.lines += 1
        counted.bytes += Int64(bytes)
        if ms < counted.firstMs { counted.firstMs = ms }
        if ms > counted.lastMs { counted.lastMs = ms }
        return hash
    }
}
