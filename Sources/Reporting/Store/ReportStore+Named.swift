#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReportStore {
    /// The events named one of `names` in `range`, oldest first, at most the newest `limit`:
    /// for rare events (the toggles' and catalogue's changes). The rollups say which minutes hold
    /// one, and only those minutes are read, so a month of log costs its rollups, not its lines.
    public func events(named names: [String], in range: ReportRange, limit: Int) -> [ReportEvent] {
        guard let extent else { return [] }
        let from = range.fromMinute ?? ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(extent.first), 60_000)
        let to = range.toMinute ?? ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(extent.last), 60_000) + 1
        guard to > from else { return [] }
        var found: [ReportEvent] = []
        for name in names {
            let filter = ReportFilter(event: name)
            for minute in minuteCounts(from: from, to: to, filter: filter).keys.sorted().suffix(limit) {
                let one = ReportRange(from: ReportTimestamp.date(milliseconds: minute * 60_000),
                                      to: ReportTimestamp.date(milliseconds: (minute + 1) * 60_000))
                found += events(matching: filter, range: one, limit: limit).events
            }
        }
        return Array(found.sorted { $0.timestamp < $1.timestamp }.suffix(limit))
    }
}
