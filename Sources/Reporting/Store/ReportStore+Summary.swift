#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReportStore {
    /// Series bucket widths in minutes: the smallest giving at most 300 points is used.
    public static let bucketMinutes: [Int64] = [1, 5, 15, 60, 360, 1440, 10080]
    /// Up to this many events in an unfiltered range, its visitors are read and counted exactly
    /// (a few milliseconds); beyond, the hourly sketches estimate them.
    public static let exactVisitorEvents = 20_000
    /// With an event, layout or item filter, the most lines read to count the visitors exactly
    /// (a tenth of a second or so); beyond, they are not counted (`visitorsCounted`): no sketch
    /// follows those filters, and a page must not read millions of lines.
    public static let visitorLineBudget = 250_000

    /// Totals, per event, per layout, a series and distinct visitors over `range`, from the rollups.
    /// A `visitor` filter is answered by reading the range's events (rollups do not count by visitor).
    /// `visitors` follows every filter: the sketches are per hour, not per event, layout or item, so
    /// with a filter (or few events) the matching events' visitors are read and counted exactly,
    /// unless that means reading more than `visitorLineBudget` lines.
    public func summary(_ range: ReportRange = ReportRange(), filter: ReportFilter = ReportFilter(),
                        visitorLineBudget: Int = ReportStore.visitorLineBudget) -> ReportSummary {
        let segments = segments(in: range)
        var summary = ReportSummary()
        summary.end = segments.last.map { lastLine(of: $0) } ?? newestLine
        summary.from = range.fromMinute.map { ReportTimestamp.date(milliseconds: $0 * 60_000) }
        summary.to = range.toMinute.map { ReportTimestamp.date(milliseconds: $0 * 60_000) }
        summary.dropped = catalog.dropped
        let firstMinute = range.fromMinute ?? segments.first.map { ReportTimestamp.floorDiv($0.rollup.firstMs, 60_000) }
        let endMinute = range.toMinute ?? segments.last.map { ReportTimestamp.floorDiv($0.rollup.lastMs, 60_000) + 1 }
        guard let firstMinute, let endMinute, endMinute > firstMinute else {
            summary.visitorsExact = true  // nothing in the range
            return summary
        }
        let span = endMinute - firstMinute
        // Items are counted by hour in closed segments: an item's series is by the hour at least.
        let smallest: Int64 = filter.item == nil ? 1 : 60
        let bucket: Int64 = Self.bucketMinutes.first(where: { $0 >= smallest && span / $0 <= 300 }) ?? 10080
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
                summary.visitorsExact = true  // a name never seen: no event, no visitor
                return summary
            }
            let sinceMinute = filter.since.map { ReportTimestamp.floorDiv(ReportTimestamp.milliseconds($0), 60_000) }
            let from = Int32(clamping: max(firstMinute, sinceMinute ?? firstMinute))
            let to = Int32(clamping: endMinute)
            var byEvent: [UInt32: Int] = [:]
            var byLayout: [UInt32: Int] = [:]
            var total = 0
            // Per event and layout in flat arrays by id: dictionary updates per key cost more
            // than the scan of the keys.
            let idCount = names.count
            var eventCounts = [Int](repeating: 0, count: idCount)
            var layoutCounts = [Int](repeating: 0, count: idCount)
            let base32 = Int64(base)
            func add(_ key: CountKey, _ count: Int) {
                if let event, key.event != event { return }
                if let layout, key.layout != layout { return }
                if let item, key.item != item { return }
                total += count
                if Int(key.event) < idCount { eventCounts[Int(key.event)] += count } else { byEvent[key.event, default: 0] += count }
                if key.layout != 0 {
                    if Int(key.layout) < idCount { layoutCounts[Int(key.layout)] += count } else { byLayout[key.layout, default: 0] += count }
                }
                series[Int((Int64(key.minute) - base32) / bucket)] += count
            }
            func count(_ segment: SegmentEntry) {
                guard item != nil, let hourly = segment.hourlyItems else {
                    segment.forEachCount(from: from, to: to, grain: bucket, add)
                    return
                }
                // Whole hours from the hourly item counts; an hour the range cuts through this
                // segment's events (`pieces`) from the segment's saved rollup, which has every minute.
                var minutes: [(Int32, Int32)] = []
                for piece in segment.pieces(from: from, to: to, grain: 60) {
                    if piece.grain == 1 { minutes.append((piece.from, piece.to)) } else { hourly.forEach(from: piece.from, to: piece.to, add) }
                }
                guard !minutes.isEmpty else { return }
                for (key, count) in fullCounts(segment) where minutes.contains(where: { key.minute >= $0.0 && key.minute < $0.1 }) {
                    add(key, count)
                }
            }
            // The segments with a matching event: the only ones an exact visitor count reads.
            var matching: [SegmentEntry] = []
            for segment in segments {
                let before = total
                count(segment)
                if total > before { matching.append(segment) }
            }
            for id in 0..<idCount {
                if eventCounts[id] > 0 { byEvent[UInt32(id), default: 0] += eventCounts[id] }
                if layoutCounts[id] > 0 { byLayout[UInt32(id), default: 0] += layoutCounts[id] }
            }
            let allNames = catalog.interner.names  // strings numbered meanwhile included
            summary.total = total
            summary.byEvent = Dictionary(uniqueKeysWithValues: byEvent.map { (allNames[Int($0.key)], $0.value) })
            summary.byLayout = Dictionary(uniqueKeysWithValues: byLayout.map { (allNames[Int($0.key)], $0.value) })
            let filtered = event != nil || layout != nil || item != nil
            if filtered ? matching.reduce(0, { $0 + $1.rollup.lines }) <= visitorLineBudget : total <= Self.exactVisitorEvents {
                let counted = ReportRange(from: ReportTimestamp.date(milliseconds: Int64(from) * 60_000),
                                          to: ReportTimestamp.date(milliseconds: Int64(to) * 60_000))
                summary.visitors = distinctVisitors(matching, range: counted, filter: filter)
                summary.visitorsExact = true
            } else if filtered {
                summary.visitorsCounted = false
            } else {
                summary.visitors = visitorEstimate(firstMinute: firstMinute, endMinute: endMinute, experiment: 0, group: 0)
            }
        }
        summary.series = seriesPoints(series, base: base, bucket: bucket)
        return summary
    }

    /// Matching events per minute in `[from, to)` (minutes since 1970), at full grain whatever the
    /// filter: for a short window such as the last hour's chart (it may read saved rollups).
    func minuteCounts(from: Int64, to: Int64, filter: ReportFilter) -> [Int64: Int] {
        let range = ReportRange(from: ReportTimestamp.date(milliseconds: from * 60_000), to: ReportTimestamp.date(milliseconds: to * 60_000))
        var result: [Int64: Int] = [:]
        if filter.visitor != nil || filter.since != nil {
            let needles = LineNeedles(filter)
            for segment in segments(in: range) where mayHold(visitor: filter.visitor, segment) {
                do {
                    try forEachLine(of: segment, visitor: filter.visitor, end: segment.rollup.bytes) { line in
                        if let bytes = line.bytes, !needles.mayMatch(bytes) { return }
                        guard let event = decode(line, segment: segment.stamp), filter.matches(event) else { return }
                        let ms = ReportTimestamp.milliseconds(event.timestamp)
                        if range.contains(ms: ms) { result[ReportTimestamp.floorDiv(ms, 60_000), default: 0] += 1 }
                    }
                } catch {
                    readFailed(stamp: segment.stamp, error)
                }
            }
            return result
        }
        func id(_ value: String?) -> UInt32?? {
            guard let value else { return .some(nil) }
            guard let id = catalog.interner.existingID(value) else { return .none }
            return .some(id)
        }
        guard let event = id(filter.event), let layout = id(filter.layout), let item = id(filter.item) else { return [:] }
        let from32 = Int32(clamping: from)
        let to32 = Int32(clamping: to)
        func matches(_ key: CountKey) -> Bool {
            if let event, key.event != event { return false }
            if let layout, key.layout != layout { return false }
            if let item, key.item != item { return false }
            return true
        }
        func add(_ key: CountKey, _ count: Int) {
            if matches(key) { result[Int64(key.minute), default: 0] += count }
        }
        for segment in segments(in: range) {
            if item != nil, segment.frozen != nil {
                for (key, count) in fullCounts(segment) where key.minute >= from32 && key.minute < to32 { add(key, count) }
            } else if let hourly = segment.hourly, let frozen = segment.frozen {
                // The hours holding a match first, then only their minutes: a rare event over days
                // (the changes marked on the charts) costs the hour rows, not every minute.
                var hours: [Int32] = []
                hourly.forEach(from: SegmentEntry.start(of: from32, 60), to: to32) { key, _ in
                    if matches(key), hours.last != key.minute { hours.append(key.minute) }
                }
                for hour in hours { frozen.forEach(from: max(hour, from32), to: min(hour + 60, to32), add) }
            } else {
                segment.forEachCount(from: from32, to: to32, add)
            }
        }
        return result
    }

    /// A closed segment's counts at full grain (every minute, every item): its saved rollup, or a
    /// recount if that cannot be read.
    func fullCounts(_ segment: SegmentEntry) -> [CountKey: Int] { savedRollup(segment).counts }

    /// A closed segment's experiment groups' counts of every minute, likewise.
    func fullGroups(_ segment: SegmentEntry) -> [GroupKey: Int] { savedRollup(segment).groups }

    /// A closed segment's rollup as saved, or a recount if that cannot be read.
    func savedRollup(_ segment: SegmentEntry) -> Rollup {
        if let data = try? Data(contentsOf: URL(fileURLWithPath: catalog.rollupPath(segment.stamp))),
            let stored = RollupFile.decode([UInt8](data), interner: catalog.interner), stored.closed,
            stored.rollup.bytes == segment.rollup.bytes
        {
            return stored.rollup
        }
        logger.warning("a segment's saved rollup is unreadable; recounting it", metadata: ["segment": "\(segment.stamp)"])
        let current = catalog.entry(segment.stamp) ?? segment  // compressed meanwhile?
        do {
            return try SegmentDirectory.scan(
                catalog.path(current), compressed: current.compressed, end: segment.rollup.bytes, interner: catalog.interner)
        } catch {
            readFailed(stamp: segment.stamp, error)
            return Rollup()
        }
    }

    func seriesPoints(_ series: [Int], base: Int64, bucket: Int64) -> [(start: Date, count: Int)] {
        series.enumerated().map { index, count in
            (ReportTimestamp.date(milliseconds: (base + Int64(index) * bucket) * 60_000), count)
        }
    }

    /// The merged hourly sketches of the hours the minutes touch, from every segment holding one of
    /// those hours: a segment that ends before the range's first minute may still hold its hour.
    /// A whole day whose segments are all closed is merged once and kept (`DaySketches`).
    func visitorEstimate(firstMinute: Int64, endMinute: Int64, experiment: UInt32, group: UInt32) -> Int {
        let firstHour = Int32(clamping: ReportTimestamp.floorDiv(firstMinute, 60))
        let lastHour = Int32(clamping: ReportTimestamp.floorDiv(endMinute - 1, 60))
        let hours = ReportRange(from: ReportTimestamp.date(milliseconds: Int64(firstHour) * 3_600_000),
                                to: ReportTimestamp.date(milliseconds: (Int64(lastHour) + 1) * 3_600_000))
        var merged: HyperLogLog?
        func merge(_ sketch: HyperLogLog) {
            if merged == nil { merged = sketch } else { merged!.merge(sketch) }
        }
        func day(_ segment: SegmentEntry) -> Int64? {
            let first = ReportTimestamp.floorDiv(segment.rollup.firstMs, ReportTimestamp.msPerDay)
            return segment.active || first != ReportTimestamp.floorDiv(segment.rollup.lastMs, ReportTimestamp.msPerDay) ? nil : first
        }
        let segments = segments(in: hours)
        var index = 0
        while index < segments.count {
            if let day = day(segments[index]), Int64(firstHour) <= day * 24, day * 24 + 23 <= Int64(lastHour) {
                var next = index + 1
                while next < segments.count, self.day(segments[next], is: day) { next += 1 }
                if let sketch = catalog.daySketches.sketches(day: day, of: segments[index..<next])[
                    SketchKey(hour: 0, experiment: experiment, group: group)] {
                    merge(sketch)
                }
                index = next
                continue
            }
            for (key, sketch) in segments[index].rollup.sketches
            where key.experiment == experiment && key.group == group && key.hour >= firstHour && key.hour <= lastHour {
                merge(sketch)
            }
            index += 1
        }
        return merged?.estimate ?? 0
    }

    /// Whether `segment` is closed and lies within `day`.
    private func day(_ segment: SegmentEntry, is day: Int64) -> Bool {
        !segment.active && ReportTimestamp.floorDiv(segment.rollup.firstMs, ReportTimestamp.msPerDay) == day
            && ReportTimestamp.floorDiv(segment.rollup.lastMs, ReportTimestamp.msPerDay) == day
    }

    /// The summary by reading events, for filters the rollups cannot answer.
    func scanSummary(
        _ segments: [SegmentEntry], range: ReportRange, filter: ReportFilter, base: Int64, bucket: Int64,
        series: inout [Int], into summary: inout ReportSummary
    ) {
        let needles = LineNeedles(filter)
        var visitors = Set<String>()
        for segment in segments where mayHold(visitor: filter.visitor, segment) {
            do {
                try forEachLine(of: segment, visitor: filter.visitor, end: segment.rollup.bytes) { line in
                    if let bytes = line.bytes, !needles.mayMatch(bytes) { return }
                    guard let event = decode(line, segment: segment.stamp), filter.matches(event) else { return }
                    let ms = ReportTimestamp.milliseconds(event.timestamp)
                    guard range.contains(ms: ms) else { return }
                    summary.total += 1
                    summary.byEvent[event.name.rawValue, default: 0] += 1
                    if let layout = event.layout { summary.byLayout[layout, default: 0] += 1 }
                    let index = Int((ReportTimestamp.floorDiv(ms, 60_000) - base) / bucket)
                    if series.indices.contains(index) { series[index] += 1 }
                    if let visitor = event.visitor { visitors.insert(visitor) }
                }
            } catch {
                readFailed(stamp: segment.stamp, error)
            }
        }
        summary.visitors = visitors.count
        summary.visitorsExact = true
    }
}
