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
    /// The fence of its visitor index (`VisitorIndex`), found whole or written: a visitor's query
    /// reads the members it names. Nil until then (missing, damaged and being rebuilt, or plain).
    var visitorFence: VisitorFence?
    var visitorIndexed: Bool { visitorFence != nil }
    /// Once closed and its rollup saved, its counts in compact form at three grains (`rollup.counts`
    /// and `rollup.groups` are then empty): per minute, hour and day with items folded out, per
    /// hour by item, and the experiment groups' per hour and day. A segment never spans a UTC day
    /// (the writer starts a new one at midnight), so its day rows are its totals; a range of whole
    /// days reads those, one row per key a segment, and what the rollups hold in memory grows with
    /// the days kept, not with the traffic. The minutes of the groups and items stay in the saved
    /// rollup, read for the partial hours at a range's ends.
    var frozen: FrozenCounts<CountKey>? = nil
    var hourly: FrozenCounts<CountKey>? = nil
    var daily: FrozenCounts<CountKey>? = nil
    var hourlyItems: FrozenCounts<CountKey>? = nil
    var hourlyGroups: FrozenCounts<GroupKey>? = nil
    var dailyGroups: FrozenCounts<GroupKey>? = nil

    /// Moves the counts of a closed segment whose rollup is on disk into their compact form.
    mutating func freeze() {
        guard frozen == nil else { return }
        var minutes: [CountKey: Int] = [:]
        var hours: [CountKey: Int] = [:]
        var days: [CountKey: Int] = [:]
        var hourItems: [CountKey: Int] = [:]
        for (key, count) in rollup.counts {
            var folded = CountKey(minute: key.minute, event: key.event, layout: key.layout, item: 0)
            minutes[folded, default: 0] += count
            folded.minute = Self.start(of: key.minute, 60)
            hours[folded, default: 0] += count
            if key.item != 0 { hourItems[CountKey(minute: folded.minute, event: key.event, layout: key.layout, item: key.item), default: 0] += count }
            folded.minute = Self.start(of: key.minute, 1440)
            days[folded, default: 0] += count
        }
        var hourGroups: [GroupKey: Int] = [:]
        var dayGroups: [GroupKey: Int] = [:]
        for (key, count) in rollup.groups {
            var folded = key
            folded.minute = Self.start(of: key.minute, 60)
            hourGroups[folded, default: 0] += count
            folded.minute = Self.start(of: key.minute, 1440)
            dayGroups[folded, default: 0] += count
        }
        frozen = FrozenCounts(minutes)
        hourly = FrozenCounts(hours)
        daily = FrozenCounts(days)
        hourlyItems = FrozenCounts(hourItems)
        hourlyGroups = FrozenCounts(hourGroups)
        dailyGroups = FrozenCounts(dayGroups)
        rollup.counts = [:]
        rollup.groups = [:]
    }

    static func start(of minute: Int32, _ grain: Int64) -> Int32 {
        Int32(ReportTimestamp.floorDiv(Int64(minute), grain) * grain)
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
