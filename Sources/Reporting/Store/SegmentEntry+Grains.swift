extension SegmentEntry {
    /// The parts of `[from, to)` this segment's events fall in, each at the coarsest grain that
    /// still places every count in the same `grain`-minute bucket as its minute would: the day
    /// when the segment lies wholly inside (and `grain` is whole days), each hour whose events of
    /// this segment all lie inside (and `grain` is whole hours), minutes for the rest. An hour cut
    /// by the range's end is whole for a segment that has no events past the cut, so an open
    /// range's ends, and most segments, never need their minutes.
    func pieces(from: Int32, to: Int32, grain: Int64) -> [(from: Int32, to: Int32, grain: Int64)] {
        guard !rollup.isEmpty else { return [] }
        let first = Int32(clamping: ReportTimestamp.floorDiv(rollup.firstMs, 60_000))
        let end = Int32(clamping: ReportTimestamp.floorDiv(rollup.lastMs, 60_000) + 1)
        let low = max(from, first)
        let high = min(to, end)
        guard low < high else { return [] }
        if grain % 1440 == 0, low == first, high == end, Self.start(of: first, 1440) == Self.start(of: end - 1, 1440) {
            let day = Self.start(of: first, 1440)
            return [(day, day + 1440, 1440)]
        }
        guard grain % 60 == 0 else { return [(low, high, 1)] }
        let firstHour = low == first ? Self.start(of: first, 60) : Self.start(of: low + 59, 60)
        let endHour = high == end ? Self.start(of: end + 59, 60) : Self.start(of: high, 60)
        guard firstHour < endHour else { return [(low, high, 1)] }
        var pieces: [(from: Int32, to: Int32, grain: Int64)] = [(firstHour, endHour, 60)]
        if low < firstHour { pieces.append((low, firstHour, 1)) }
        if endHour < high { pieces.append((endHour, high, 1)) }
        return pieces
    }

    /// Calls `body` with each count (items folded out) of `[from, to)`, from the coarsest rows that
    /// keep it in its `grain`-minute bucket (see `pieces`); a segment still written, at full grain.
    func forEachCount(from: Int32, to: Int32, grain: Int64, _ body: (CountKey, Int) -> Void) {
        guard let frozen, let hourly, let daily else {
            forEachCount(from: from, to: to, body)
            return
        }
        for piece in pieces(from: from, to: to, grain: grain) {
            switch piece.grain {
            case 1440: daily.forEach(from: piece.from, to: piece.to, body)
            case 60: hourly.forEach(from: piece.from, to: piece.to, body)
            default: frozen.forEach(from: piece.from, to: piece.to, body)
            }
        }
    }

    /// The same for the experiment groups' counts; `minutes` gives the saved rollup's, read only
    /// when a partial hour needs them.
    func forEachGroup(from: Int32, to: Int32, grain: Int64, minutes: () -> [GroupKey: Int], _ body: (GroupKey, Int) -> Void) {
        guard let hourlyGroups, let dailyGroups else {
            for (key, count) in rollup.groups where key.minute >= from && key.minute < to { body(key, count) }
            return
        }
        var saved: [GroupKey: Int]?
        for piece in pieces(from: from, to: to, grain: grain) {
            switch piece.grain {
            case 1440: dailyGroups.forEach(from: piece.from, to: piece.to, body)
            case 60: hourlyGroups.forEach(from: piece.from, to: piece.to, body)
            default:
                if saved == nil { saved = minutes() }
                for (key, count) in saved! where key.minute >= piece.from && key.minute < piece.to { body(key, count) }
            }
        }
    }
}
