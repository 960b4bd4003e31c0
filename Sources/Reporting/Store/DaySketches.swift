import Synchronization

/// The visitor sketches of whole UTC days, per experiment group and overall, each merged once from
/// its closed segments' hourly sketches and kept while those segments stay the same: a range of
/// ten days merges ten sketches a group instead of every hour of every segment. Merging by
/// register maximum is exact, so a day's sketch is the one its hours would give.
final class DaySketches: Sendable {
    private struct Day {
        /// The segments merged, by stamp and events, to tell when the day changed.
        var segments: [String]
        var sketches: [SketchKey: HyperLogLog]
    }

    private let days = Mutex<[Int64: Day]>([:])
    /// Days kept; past this the cache starts again (a few KiB a group a day).
    static let limit = 400

    /// The merged sketches of `day` (keyed with hour 0) from `segments`, every one closed and within the day.
    func sketches(day: Int64, of segments: ArraySlice<SegmentEntry>) -> [SketchKey: HyperLogLog] {
        let signature = segments.map { "\($0.stamp):\($0.rollup.lines)" }
        if let known = days.withLock({ $0[day] }), known.segments == signature { return known.sketches }
        var merged: [SketchKey: HyperLogLog] = [:]
        for segment in segments {
            for (key, sketch) in segment.rollup.sketches {
                let id = SketchKey(hour: 0, experiment: key.experiment, group: key.group)
                if merged[id] == nil { merged[id] = sketch } else { merged[id]!.merge(sketch) }
            }
        }
        days.withLock { days in
            if days.count >= Self.limit { days.removeAll() }
            days[day] = Day(segments: signature, sketches: merged)
        }
        return merged
    }
}
