import Foundation

extension ReportStore {
    /// Series bucket widths in minutes: the smallest giving at most 300 points is used.
    static let bucketMinutes: [Int64] = [1, 5, 15, 60, 360, 1440, 10080]

    /// Totals, per event, per layout, a series and distinct visitors over `range`, from the rollups.
    /// A `visitor` filter is answered by reading the range's events (rollups do not count by visitor).
    /// `visitors` counts everyone in the range whatever the other filters (sketches are per hour).
    public func summary(_ range: ReportRange = ReportRange(), filter: ReportFilter = ReportFilter()) -> ReportSummary {
        let segments = segments(in: range)
        var summary = ReportSummary()
        summary.from = range.fromMinute.map { ReportTimestamp.date(milliseconds: $0 * 60_000) }
        summary.to = range.toMinute.map { ReportTimestamp.date(milliseconds: $0 * 60_000) }
        summary.dropped = catalog.dropped
        let firstMinute = range.fromMinute ?? segments.first.map { ReportTimestamp.floorDiv($0.rollup.firstMs, 60_000) }
        let endMinute = range.toMinute ?? segments.last.map { ReportTimestamp.floorDiv($0.rollup.lastMs, 60_000) + 1 }
        guard let firstMinute, let endMinute, endMinute > firstMinute else { return summary }
        let span = endMinute - firstMinute
        let bucket: Int64 = Self.bucketMinutes.first(where: { span / $0 <= 300 }) ?? 10080
        let base = ReportTimestamp.floorDiv(firstMinute, bucket) * bucket
        var series = [Int](repeating: 0, count: Int((endMinute - 1 - base) / bucket + 1))
        summary.bucket = TimeInterval(bucket * 60)
        var since = filter.since.map { ReportTimestamp.milliseconds($0) }
        if let ms = since, ms % 60_000 == 0 || range.fromMinute.map({ $0 * 60_000 >= ms }) == true { since = nil }

        if filter.visitor != nil || since != nil {
            scanSummary(segments, range: range, filter: filter, base: base, bucket: bucket, series: &series, into: &summary)
        } else {
            let names = catalog.interner.names
            func id(_ value: String?) -> UInt32?? {
                guard let value else { return .some(nil) }
                guard let id = catalog.interner.existingID(value) else { return .none }
                return .some(id)
            }
            guard let event = id(filter.event), let layout = id(filter.layout), let item = id(filter.item) else {
                summary.series = seriesPoints(series, base: base, bucket: bucket)
                return summary
            }
            let sinceMinute = filter.since.map { ReportTimestamp.floorDiv(ReportTimestamp.milliseconds($0), 60_000) }
            let from = Int32(clamping: max(firstMinute, sinceMinute ?? firstMinute))
            let to = Int32(clamping: endMinute)
            var byEvent: [UInt32: Int] = [:]
            var byLayout: [UInt32: Int] = [:]
            var total = 0
            for segment in segments {
                for (key, count) in segment.rollup.counts {
                    guard key.minute >= from, key.minute < to else { continue }
                    if let event, key.event != event { continue }
                    if let layout, key.layout != layout { continue }
                    if let item, key.item != item { continue }
                    total += count
                    byEvent[key.event, default: 0] += count
                    if key.layout != 0 { byLayout[key.layout, default: 0] += count }
                    series[Int((Int64(key.minute) - base) / bucket)] += count
                }
            }
            summary.total = total
            summary.byEvent = Dictionary(uniqueKeysWithValues: byEvent.map { (names[Int($0.key)], $0.value) })
            summary.byLayout = Dictionary(uniqueKeysWithValues: byLayout.map { (names[Int($0.key)], $0.value) })
            summary.visitors = visitorEstimate(segments, firstMinute: firstMinute, endMinute: endMinute, experiment: 0, group: 0)
        }
        summary.series = seriesPoints(series, base: base, bucket: bucket)
        return summary
    }

    func seriesPoints(_ series: [Int], base: Int64, bucket: Int64) -> [(start: Date, count: Int)] {
        series.enumerated().map { index, count in
            (ReportTimestamp.date(milliseconds: (base + Int64(index) * bucket) * 60_000), count)
        }
    }

    /// The merged hourly sketches of the hours the minutes touch.
    func visitorEstimate(_ segments: [SegmentEntry], firstMinute: Int64, endMinute: Int64, experiment: UInt32, group: UInt32) -> Int {
        let firstHour = Int32(clamping: ReportTimestamp.floorDiv(firstMinute, 60))
        let lastHour = Int32(clamping: ReportTimestamp.floorDiv(endMinute - 1, 60))
        var merged: HyperLogLog?
        for segment in segments {
            for (key, sketch) in segment.rollup.sketches
            where key.experiment == experiment && key.group == group && key.hour >= firstHour && key.hour <= lastHour {
                if merged == nil { merged = sketch } else { merged!.merge(sketch) }
            }
        }
        return merged?.estimate ?? 0
    }

    /// The summary by reading events, for filters the rollups cannot answer.
    func scanSummary(
        _ segments: [SegmentEntry], range: ReportRange, filter: ReportFilter, base: Int64, bucket: Int64,
        series: inout [Int], into summary: inout ReportSummary
    ) {
        let needles = LineNeedles(filter)
        var visitors = Set<String>()
        for segment in segments {
            do {
                guard let reader = try reader(segment, end: segment.rollup.bytes) else { continue }
                while let line = try reader.next() {
                    if let bytes = line.bytes, !needles.mayMatch(bytes) { continue }
                    guard let event = decode(line, segment: segment.stamp), filter.matches(event) else { continue }
                    let ms = ReportTimestamp.milliseconds(event.timestamp)
                    guard range.contains(ms: ms) else { continue }
                    summary.total += 1
                    summary.byEvent[event.name.rawValue, default: 0] += 1
                    if let layout = event.layout { summary.byLayout[layout, default: 0] += 1 }
                    let index = Int((ReportTimestamp.floorDiv(ms, 60_000) - base) / bucket)
                    if series.indices.contains(index) { series[index] += 1 }
                    if let visitor = event.visitor { visitors.insert(visitor) }
                }
            } catch {
                logger.error("reading a report segment failed", metadata: ["segment": "\(segment.stamp)", "error": "\(error)"])
            }
        }
        summary.visitors = visitors.count
    }
}
