extension ReportStore {
    /// The members of a compressed segment that hold `visitor`'s events (with `prefix`, those of
    /// every id starting so), ascending; nil when the segment cannot say (plain, no gzip index, no
    /// visitor index yet) and every line must be read. A directory of an older version may still
    /// have a filter per member instead of the index: its members that may hold the visitor.
    func members(holding visitor: String, prefix: Bool = false, _ segment: SegmentEntry, index: GzipIndex? = nil) -> [Int]? {
        guard let index = index ?? catalog.index(segment) else { return nil }
        return members(holding: visitor, prefix: prefix, segment, count: index.members.count - 1)
    }

    /// The gzip index to read `visitor`'s members of `segment` with, and those members; nil when
    /// the segment cannot name them (then every line must be read). Only their entries of the
    /// index are read when it is not kept (`SegmentCatalog.index(_:for:)`).
    func indexAndMembers(holding visitor: String, prefix: Bool = false, _ segment: SegmentEntry) -> (index: GzipIndex, members: [Int])? {
        catalog.index(segment) { members(holding: visitor, prefix: prefix, segment, count: $0) }
    }

    private func members(holding visitor: String, prefix: Bool, _ segment: SegmentEntry, count: Int) -> [Int]? {
        let escaped = LineNeedles.escaped(visitor)
        let current = segment.visitorIndexed ? segment : catalog.entry(segment.stamp) ?? segment  // indexed meanwhile?
        if current.visitorIndexed,
           let members = VisitorIndex.members(catalog.visitorIndexPath(segment.stamp), escaped: escaped, prefix: prefix,
                                              members: count, bytes: segment.rollup.bytes, fence: current.visitorFence) {
            return members
        }
        guard !prefix else { return nil }
        let hash = escaped.withUnsafeBytes { MemberFilter.hash($0) }
        return MemberFilter.candidates(catalog.membersPath(segment.stamp), hash: hash, members: count)
    }

    /// Every line of `segment` before `end` that may hold an event of `visitor` (all lines when
    /// nil), in no promised order: a visitor's members alone where the segment's index names them.
    /// With `prefix`, of every visitor whose id starts with `visitor`.
    func forEachLine(of segment: SegmentEntry, visitor: String?, prefix: Bool = false, end: Int64, _ body: (ScannedLine) -> Void) throws {
        if let visitor, let (index, members) = indexAndMembers(holding: visitor, prefix: prefix, segment) {
            let needle = prefix ? Array(#""visitor":""#.utf8) + LineNeedles.escaped(visitor) : LineNeedles(ReportFilter(visitor: visitor)).needles[0]
            var scanner = try MemberLineScanner(index: index, path: catalog.path(segment), members: members, needle: needle, end: end)
            while let line = try scanner.next() { body(line) }
            return
        }
        guard let reader = try reader(segment, end: end) else { return }
        while let line = try reader.next() { body(line) }
    }

    /// Distinct visitors of the events in `segments` that match `filter` within `range`, read from
    /// the lines: exact, where the sketches could only estimate the whole range's visitors.
    /// A segment wholly inside `range` is tallied from the lines' bytes (`VisitorTally`); one across
    /// its ends parses each line for its time.
    func distinctVisitors(_ segments: [SegmentEntry], range: ReportRange, filter: ReportFilter) -> Int {
        let needles = LineNeedles(filter)
        var visitors = VisitorTally()
        for segment in segments where mayHold(visitor: filter.visitor, segment) {
            let inside = range.contains(ms: segment.rollup.firstMs) && range.contains(ms: segment.rollup.lastMs) && filter.since == nil
            do {
                try forEachLine(of: segment, visitor: filter.visitor, end: segment.rollup.bytes) { line in
                    if let bytes = line.bytes {
                        if !needles.mayMatch(bytes) { return }
                        if inside, visitors.add(bytes, needles: needles) != .unsure { return }
                    }
                    guard let event = decode(line, segment: segment.stamp), filter.matches(event), let visitor = event.visitor,
                          range.contains(ms: ReportTimestamp.milliseconds(event.timestamp)) else { return }
                    visitors.insert(visitor)
                }
            } catch {
                readFailed(stamp: segment.stamp, error)
            }
        }
        return visitors.count
    }

    /// The visitor ids of `range`'s events that start with `prefix`, at most `limit` of them (two
    /// tell an ambiguous prefix): what the report pages show of an id is its first characters.
    /// Newest segments first. A segment wholly inside the range with a visitor index reads one
    /// member for each id its index has with those first 8 characters, and none for an id already
    /// found (of a gzip index not kept, only those members' entries); others read the members of
    /// those ids (or, without an index, every line, counted against `budget`: the ids a page shows
    /// are recent).
    public func visitors(startingWith prefix: String, in range: ReportRange = ReportRange(), limit: Int = 2,
                         budget: Int = ReportStore.visitorLineBudget * 4) -> [String] {
        let escaped = LineNeedles.escaped(prefix)
        let needle = Array("\"visitor\":\"".utf8) + escaped
        var found = Set<String>()
        var known = Set<UInt64>()  // key and hash of each id found
        var read = 0
        for segment in segments(in: range).reversed() {
            guard read < budget else { break }
            let inside = range.contains(ms: segment.rollup.firstMs) && range.contains(ms: segment.rollup.lastMs)
            let indexed = escaped.count >= 8 && segment.visitorIndexed
            if !indexed { read += segment.rollup.lines }
            func take(_ line: ScannedLine) {
                guard found.count < limit, let bytes = line.bytes else { return }
                let holds = bytes.withUnsafeBytes { haystack in needle.withUnsafeBytes { LineNeedles.contains(haystack, $0) } }
                guard holds, let event = decode(line, segment: segment.stamp), let visitor = event.visitor,
                      visitor.hasPrefix(prefix), range.contains(ms: ReportTimestamp.milliseconds(event.timestamp)) else { return }
                if found.insert(visitor).inserted {
                    let (key, hash) = LineNeedles.escaped(visitor).withUnsafeBytes { VisitorIndex.keyAndHash($0) }
                    known.insert(key ^ UInt64(hash))
                }
            }
            do {
                // Only the gzip index entries of the members with ids not found yet are read.
                if inside, indexed, let (index, members) = catalog.index(segment, for: { count in
                    VisitorIndex.ids(catalog.visitorIndexPath(segment.stamp), startingWith: escaped, members: count,
                                     bytes: segment.rollup.bytes, fence: segment.visitorFence)
                        .map { ids in Set(ids.filter { !known.contains($0.key ^ UInt64($0.hash)) }.map(\.member)).sorted() }
                }) {
                    var scanner = try MemberLineScanner(index: index, path: catalog.path(segment), members: members, needle: needle,
                                                        end: segment.rollup.bytes)
                    while let line = try scanner.next() { take(line) }
                } else {
                    try forEachLine(of: segment, visitor: indexed ? prefix : nil, prefix: true, end: segment.rollup.bytes, take)
                }
            } catch {
                readFailed(stamp: segment.stamp, error)
            }
            if found.count >= limit { break }
        }
        return found.sorted()
    }
}
