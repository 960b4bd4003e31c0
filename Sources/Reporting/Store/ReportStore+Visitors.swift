extension ReportStore {
    /// The members of a compressed segment that may hold `visitor`'s events, ascending; nil when
    /// the segment cannot say (plain, no index, or no member filter) and every line must be read.
    func members(holding visitor: String, _ segment: SegmentEntry, index: GzipIndex? = nil) -> [Int]? {
        guard let index = index ?? catalog.index(segment) else { return nil }
        let hash = LineNeedles.escaped(visitor).withUnsafeBytes { MemberFilter.hash($0) }
        return MemberFilter.candidates(catalog.membersPath(segment.stamp), hash: hash, members: index.members.count - 1)
    }

    /// Every line of `segment` before `end` that may hold an event of `visitor` (all lines when
    /// nil), in no promised order: a visitor's members alone where the segment's filter names them.
    func forEachLine(of segment: SegmentEntry, visitor: String?, end: Int64, _ body: (ScannedLine) -> Void) throws {
        if let visitor, let index = catalog.index(segment), let members = members(holding: visitor, segment, index: index) {
            var scanner = try MemberLineScanner(index: index, path: catalog.path(segment), members: members,
                                                needle: LineNeedles(ReportFilter(visitor: visitor)).needles[0], end: end)
            while let line = try scanner.next() { body(line) }
            return
        }
        guard let reader = try reader(segment, end: end) else { return }
        while let line = try reader.next() { body(line) }
    }
}
