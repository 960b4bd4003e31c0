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

    /// Counts an event given by its parts (an event made from a template: its fixed parts are
    /// the template's, read field by field instead of copied whole).
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
        return add(name: eventName, layout: eventLayout, item: item, properties: properties, visitorHash: hash, ms: ms,
                   bytes: bytes)
    }

    /// Counts an event whose visitor is an id carried as its value: hashed over its digits, as
    /// the same id's text is.
    @inline(__always)
    mutating func add(name eventName: ReportEvent.Name, layout eventLayout: String?, item: String?,
                      properties: [String: String], visitor: VisitorID?, ms: Int64, bytes: Int) -> UInt64? {
        var hash: UInt64?
        if let visitor {
            if visitor != lastID {
                lastID = visitor
                lastIDHash = StableHash.hash(visitor)
            }
            hash = lastIDHash
        }
        return add(name: eventName, layout: eventLayout, item: item, properties: properties, visitorHash: hash, ms: ms,
                   bytes: bytes)
    }

    /// Counts an event given by its parts and its visitor's hash.
    @inline(__always)
    private mutating func add(name eventName: ReportEvent.Name, layout eventLayout: String?, item: String?,
                              properties: [String: String], visitorHash hash: UInt64?, ms: Int64, bytes: Int) -> UInt64? {
        let minute = ExperimentCounter.minute(ms)
        let hour = ExperimentCounter.hour(ms)
        let name = cache.id(eventName.rawValue)
        let layout = cache.id(eventLayout)
        counts.add(CountKey(minute: minute, event: name, layout: layout, item: cache.id(item)))
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
