import Basics

/// Counts events by experiment group: per minute by experiment, group, event and layout, and the
/// visitors per hour by experiment and group in a HyperLogLog. Counted the same way in two places,
/// each event under the groups `ReportEvent.forEachExperiment` finds, keyed by `GroupKey` and
/// `SketchKey` of `minute` and `hour`: the rollups as the writer writes (`RollupBuilder`, ids from
/// the writer's interner, through tables that hand over to the segment's `Rollup`), and the
/// shipper a batch with `add`, only turning the counts into rows. Hours and days are made from
/// the minutes and hours, as a closed segment's are.
public struct ExperimentCounter: Sendable {
    /// Events, keyed by a minute, experiment group, event and layout.
    public struct Count: Hashable, Sendable {
        public let startMs: Int64
        public let experiment: String
        public let group: String
        public let event: String
        public let layout: String
    }

    /// Visitors, keyed by an hour (or longer) and an experiment group.
    public struct Visitors: Hashable, Sendable {
        public let startMs: Int64
        public let experiment: String
        public let group: String
    }

    private var cache = InternCache(interner: Interner())
    private var groups: [GroupKey: Int] = [:]
    private var sketches: [SketchKey: HyperLogLog] = [:]

    public init() {}

    /// True until an event named an experiment.
    public var isEmpty: Bool { groups.isEmpty }

    /// Counts the event under every experiment its properties name.
    public mutating func add(ms: Int64, name: String, layout: String?, visitor: String?, properties: [String: String]) {
        guard !properties.isEmpty else { return }
        Self.count(properties, minute: Self.minute(ms), hour: Self.hour(ms), event: cache.id(name), layout: cache.id(layout),
                   visitor: visitor.map(StableHash.hash), cache: &cache, groups: &groups, sketches: &sketches)
    }

    /// The events in units of `minutes` (1, 60 or 1440), summed from the minutes.
    public func counts(every minutes: Int64) -> [Count: Int] {
        let names = cache.interner.names
        var out: [Count: Int] = [:]
        for (key, count) in groups {
            let start = Int64(SegmentEntry.start(of: key.minute, minutes)) * 60_000
            out[Count(startMs: start, experiment: names[Int(key.experiment)], group: names[Int(key.group)],
                      event: names[Int(key.event)], layout: names[Int(key.layout)]), default: 0] += count
        }
        return out
    }

    /// The visitors in units of `hours` (1 or 24), merged from the hours.
    public func visitors(every hours: Int64) -> [Visitors: HyperLogLog] {
        let names = cache.interner.names
        var out: [Visitors: HyperLogLog] = [:]
        for (key, sketch) in sketches {
            let start = Int64(SegmentEntry.start(of: key.hour, hours)) * 3_600_000
            let id = Visitors(startMs: start, experiment: names[Int(key.experiment)], group: names[Int(key.group)])
            if out[id] == nil { out[id] = sketch } else { out[id]!.merge(sketch) }
        }
        return out
    }

    /// Counts one event's experiment groups into `groups` and, with a visitor's hash, `sketches`.
    @inline(__always)
    static func count(_ properties: [String: String], minute: Int32, hour: Int32, event: UInt32, layout: UInt32,
                      visitor hash: UInt64?, cache: inout InternCache,
                      groups: inout [GroupKey: Int], sketches: inout [SketchKey: HyperLogLog])
    {
        ReportEvent.forEachExperiment(in: properties) { experiment, group in
            count(ExperimentIDs(experiment: cache.id(experiment), group: cache.id(group)), minute: minute, hour: hour,
                  event: event, layout: layout, visitor: hash, groups: &groups, sketches: &sketches)
        }
    }

    /// Counts one event in one experiment group, given by ids.
    @inline(__always)
    static func count(_ ids: ExperimentIDs, minute: Int32, hour: Int32, event: UInt32, layout: UInt32, visitor hash: UInt64?,
                      groups: inout [GroupKey: Int], sketches: inout [SketchKey: HyperLogLog]) {
        groups[GroupKey(minute: minute, experiment: ids.experiment, group: ids.group, event: event, layout: layout),
               default: 0] += 1
        if let hash {
            sketches[SketchKey(hour: hour, experiment: ids.experiment, group: ids.group), default: HyperLogLog()].add(hash: hash)
        }
    }

    /// The minute (or hour) since 1970 that `ms` falls in.
    @inline(__always)
    static func minute(_ ms: Int64) -> Int32 { Int32(truncatingIfNeeded: ReportTimestamp.floorDiv(ms, 60_000)) }
    @inline(__always)
    static func hour(_ ms: Int64) -> Int32 { Int32(truncatingIfNeeded: ReportTimestamp.floorDiv(ms, 3_600_000)) }

}
