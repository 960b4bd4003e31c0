import Basics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts events into a `Rollup`, interning through the writer's cache.
struct RollupBuilder {
    private var counted = Rollup()
    private var counts = CountTable<CountKey>()
    /// The experiment groups' counts and sketches, out of the rollup's dictionaries until handed over.
    private var groupCounts = CountTable<GroupKey>(capacity: 64)
    private var groupSketches = OpenSketches()
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
    /// The last event's minute (its first millisecond, and it and its hour counted since 1970):
    /// lines mostly fall in the minute of the line before, and working both out took two divisions.
    private var minuteStartMs: Int64 = .max
    private var lastMinute: Int32 = 0
    private var lastHour: Int32 = 0
    /// The same for an id carried as its value.
    private var lastID: VisitorID?
    private var lastIDHash: UInt64 = 0

    init(interner: Interner) { cache = InternCache(interner: interner) }

    /// Everything counted since the last reset.
    var rollup: Rollup {
        mutating get {
            counts.drain(into: &counted.counts)
            groupCounts.drain(into: &counted.groups)
            groupSketches.hand(to: &counted.sketches)
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
        groupCounts.drain(into: &counted.groups)
        counted = Rollup()
        hourSketchUsed = false
        groupSketches.forgetRaised()
    }

    /// Forgets the hour's sketch: for a new segment, or a chunk not written as counted.
    mutating func startOver() {
        hour = .min
        hourSketch = HyperLogLog()
        hourSketchUsed = false
        groupSketches.removeAll()
    }

    /// Counts the event; returns its visitor's hash, if it has a visitor.
    @discardableResult
    mutating func add(_ event: borrowing ReportEvent, ms: Int64, bytes: Int) -> UInt64? {
        add(name: event.name, layout: event.layout, item: event.item, properties: event.properties, visitor: event.visitor,
            ms: ms, bytes: bytes)
    }

    /// Counts an event given by its parts.
    @inline(__always)
    mutating func add(name eventName: ReportEvent.Name, layout eventLayout: String?, item: String?,
                      properties: [String: String], visitor: String?, ms: Int64, bytes: Int) -> UInt64? {
        var hash: UInt64?
        if let visitor {
            if !Self.sameBytes(visitor, lastVisitor) {
                lastVisitor = visitor
                lastHash = StableHash.hash(visitor)
            }
            hash = lastHash
        }
        let ids = TemplateIDs(name: cache.id(eventName.rawValue), layout: cache.id(eventLayout), item: cache.id(item))
        count(ids, visitorHash: hash, ms: ms, bytes: bytes)
        if !properties.isEmpty {
            ReportEvent.forEachExperiment(in: properties) { experiment, group in
                countExperiment(ExperimentIDs(experiment: cache.id(experiment), group: cache.id(group)), ids, visitor: hash)
            }
        }
        return hash
    }

    /// Counts an event made from `template`: its fixed parts' ids (and the experiment groups its
    /// properties name) are looked up once per template, and its visitor, an id carried as its
    /// value, is hashed over its digits, as the id's text is.
    @inline(__always)
    mutating func add(_ template: EventTemplate, visitor: VisitorID?, ms: Int64, bytes: Int) -> UInt64? {
        var hash: UInt64?
        if let visitor {
            if visitor != lastID {
                lastID = visitor
                lastIDHash = StableHash.hash(visitor)
            }
            hash = lastIDHash
        }
        let ids = cache.ids(of: template)
        count(ids, visitorHash: hash, ms: ms, bytes: bytes)
        if template.hasProperties {
            let groups = cache.experimentGroups(of: template)
            for index in groups.indices { countExperiment(groups[index], ids, visitor: hash) }
        }
        return hash
    }

    /// Counts the line last counted (`count`) in one experiment group, as `ExperimentCounter` does.
    @inline(__always)
    private mutating func countExperiment(_ group: ExperimentIDs, _ ids: TemplateIDs, visitor hash: UInt64?) {
        groupCounts.add(GroupKey(minute: lastMinute, experiment: group.experiment, group: group.group, event: ids.name,
                                 layout: ids.layout))
        if let hash {
            groupSketches.add(SketchKey(hour: lastHour, experiment: group.experiment, group: group.group), hash: hash,
                              handingTo: &counted.sketches)
        }
    }

    /// Counts a line given by its parts' ids and its visitor's hash (not its experiments); leaves
    /// its minute and hour in `lastMinute` and `lastHour`.
    @inline(__always)
    private mutating func count(_ ids: TemplateIDs, visitorHash hash: UInt64?, ms: Int64, bytes: Int) {
        if ms < minuteStartMs || ms - minuteStartMs >= 60_000 {
            lastMinute = ExperimentCounter.minute(ms)
            lastHour = ExperimentCounter.hour(ms)
            minuteStartMs = ReportTimestamp.floorDiv(ms, 60_000) * 60_000
        }
        counts.add(CountKey(minute: lastMinute, event: ids.name, layout: ids.layout, item: ids.item))
        if let hash {
            if lastHour != self.hour {
                flushHour()
                self.hour = lastHour
                hourSketch = HyperLogLog()
            }
            if hourSketch.add(hash: hash) { hourSketchUsed = true }
        }
        counted.lines += 1
        counted.bytes += Int64(bytes)
        if ms < counted.firstMs { counted.firstMs = ms }
        if ms > counted.lastMs { counted.lastMs = ms }
    }

    /// Whether the two ids have the same bytes, compared in place: the hash is of the bytes, and
    /// `String`'s `==` (Unicode equivalence) cost more than the hash it spares.
    @inline(__always)
    private static func sameBytes(_ visitor: String, _ last: String?) -> Bool {
        guard let last, visitor.utf8.count == last.utf8.count else { return false }
        if visitor.utf8.isEmpty { return true }
        let compared = visitor.utf8.withContiguousStorageIfAvailable { one in
            last.utf8.withContiguousStorageIfAvailable { other in memcmp(one.baseAddress!, other.baseAddress!, one.count) == 0 }
        }
        if case .some(.some(let same)) = compared { return same }
        return Array(visitor.utf8) == Array(last.utf8)
    }
}
