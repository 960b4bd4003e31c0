#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ReportStore {
    /// Up to `limit` matching events in `range`, newest first, older than `before` (from the newest
    /// when nil). Reads segments backwards from the newest and stops at `limit` events or after
    /// about `budget` bytes, whichever comes first; `next` goes on from there.
    public func events(
        matching filter: ReportFilter = ReportFilter(), range: ReportRange = ReportRange(), before: ReportPosition? = nil,
        limit: Int = 50, budget: Int = 16 << 20
    ) -> ReportEventPage {
        var page = ReportEventPage(events: [], next: nil)
        guard limit > 0 else { return page }
        let fromMs = range.fromMinute.map { $0 * 60_000 }
        let toMs = range.toMinute.map { $0 * 60_000 }
        let needles = LineNeedles(filter)
        var scanned = 0
        for segment in catalog.segments.reversed() {
            var end = segment.rollup.bytes
            if let before {
                if segment.stamp > before.segment { continue }
                if segment.stamp == before.segment { end = min(end, before.offset) }
            }
            if let fromMs, segment.rollup.isEmpty || segment.rollup.lastMs < fromMs { break }
            if let toMs, segment.startMs >= toMs, segment.rollup.firstMs >= toMs { continue }
            guard end > 0, mayHold(visitor: filter.visitor, segment) else { continue }
            // Matches of this segment, newest first, with their offsets.
            var found: [(ReportEvent, Int64)] = []
            var reachedFrom = false
            var stoppedAt: Int64?
            let want = limit - page.events.count
            func consider(_ line: ScannedLine) -> Bool {
                guard let bytes = line.bytes, needles.mayMatch(bytes), let event = decode(line, segment: segment.stamp) else { return true }
                let ms = ReportTimestamp.milliseconds(event.timestamp)
                if let fromMs, ms < fromMs {
                    reachedFrom = true
                    return false
                }
                if let toMs, ms >= toMs { return true }
                if filter.matches(event) { found.append((event, line.offset)) }
                return true
            }
            /// Newest first until `want` matches, the range's start, or the budget.
            func scanBackward<Source: LineSource>(_ scanner: inout Source) throws {
                while found.count < want, let line = try scanner.next() {
                    scanned += (line.bytes?.count ?? 0) + 1
                    if !consider(line) { break }
                    if scanned >= budget && found.count < want {
                        stoppedAt = line.offset
                        break
                    }
                }
                if found.count == want, let last = found.last { stoppedAt = last.1 }
            }
            do {
                if let visitor = filter.visitor, let (index, members) = indexAndMembers(holding: visitor, segment) {
                    var scanner = try MemberLineScanner(index: index, path: catalog.path(segment), members: members,
                                                        needle: LineNeedles(ReportFilter(visitor: visitor)).needles[0], end: end)
                    try scanBackward(&scanner)
                } else if let index = catalog.index(segment) {
                    var scanner = try BackwardLineScanner(index: index, path: catalog.path(segment), end: end)
                    try scanBackward(&scanner)
                } else if segment.compressed {
                    // No reading backwards in gzip: read forward, keeping the newest `want` matches.
                    guard let reader = try reader(segment, end: end) else { continue }
                    while let line = try reader.next() {
                        let matched = found.count
                        _ = consider(line)
                        if found.count > matched, found.count > want { found.removeFirst() }
                        scanned += (line.bytes?.count ?? 0) + 1
                    }
                    found.reverse()
                    if scanned >= budget && found.count < want { stoppedAt = 0 }
                } else {
                    let fd = open(catalog.path(segment), O_RDONLY | O_CLOEXEC)
                    if fd < 0 {
                        // Compressed a moment ago: start again from here, reading it as such.
                        guard catalog.entry(segment.stamp)?.compressed == true else { continue }
                        let rest = events(
                            matching: filter, range: range, before: ReportPosition(segment: segment.stamp, offset: end),
                            limit: want, budget: max(1, budget - scanned))
                        page.events += rest.events
                        page.next = rest.next
                        return page
                    }
                    defer { close(fd) }
                    var scanner = BackwardLineScanner(fd: fd, end: end)
                    try scanBackward(&scanner)
                }
            } catch {
                readFailed(stamp: segment.stamp, error)
            }
            page.events += found.prefix(want).map(\.0)
            if page.events.count == limit, let last = found.prefix(want).last {
                page.next = ReportPosition(segment: segment.stamp, offset: last.1)
                return page
            }
            if reachedFrom { return page }
            if let stoppedAt {
                page.next = ReportPosition(segment: segment.stamp, offset: stoppedAt)
                return page
            }
        }
        return page
    }

    /// The timestamp of a canonical line (`{"timestamp":"…"`) without parsing the rest.
    static func lineMilliseconds(_ line: ArraySlice<UInt8>) -> Int64? {
        let prefix = 14
        guard line.count >= prefix + 25 else { return nil }
        return line.withUnsafeBufferPointer { bytes in
            guard bytes[0] == UInt8(ascii: "{"), bytes[prefix - 1] == UInt8(ascii: "\""), bytes[prefix + 24] == UInt8(ascii: "\"") else { return nil }
            return ReportTimestamp.parseMilliseconds(UnsafeBufferPointer(rebasing: bytes[prefix..<(prefix + 24)]))
        }
    }
}
