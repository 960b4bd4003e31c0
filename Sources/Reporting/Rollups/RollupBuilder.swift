import Basics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        return add(ids, properties: properties, visitorHash: hash, ms: ms, bytes: bytes)
    }

    /// Counts an event made from `template`: its fixed parts' ids are looked up once per template,
    /// and its visitor, an id carried as its value, is hashed over its digits, as the id's text is.
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
        return add(cache.ids(of: template), properties: template.hasProperties ? template.fixed.properties : [String: String](),
                   visitorHash: hash, ms: ms, bytes: bytes)
    }

    /// Counts an event given by its parts' ids and its visitor's hash.
    @inline(__always)
    private mutating func add(_ ids: TemplateIDs, properties: [String: String], visitorHash hash: UInt64?, ms: Int64,
                              bytes: Int) -> UInt64? {
        if ms < minuteStartMs || ms - minuteStartMs >= 60_000 {
            lastMinute = ExperimentCounter.minute(ms)
            lastHour = ExperimentCounter.hour(ms)
            minuteStartMs = ReportTimestamp.floorDiv(ms, 60_000) * 60_000
        }
        let minute = lastMinute
        let hour = lastHour
        let name = ids.name
        let layout = ids.layout
        counts.add(CountKey(minute: minute, event: name, layout: layout, item: ids.item))
        if let hash {
            if hour != self.hour {
                flushHour()
                self.hour = hour
                hourSketch = HyperLogLog()
            }
            if hourSketch.add(hash: hash) { hourSketchUsed = true }
        }
        if !properties.isEmpty {
            ExperimentCounter.count(properties, minute: minute, hour: hour, event: name, layout: layout, visitor: hash,
                                    cache: &cache, groups: &counted.groups, sketches: &counted.sketches)
        }
        counted.lines += 1
        counted.bytes += Int64(bytes)
        if ms < counted.firstMs { counted.firstMs = ms }
        if ms > counted.lastMs { counted.lastMs = ms }
        return hash
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
