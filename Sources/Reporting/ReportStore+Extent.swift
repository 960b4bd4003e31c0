#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReportStore {
    /// The time of the oldest and of the newest event in the store, or nil when it holds none.
    public var extent: (first: Date, last: Date)? {
        let counted = catalog.segments.filter { !$0.rollup.isEmpty }
        guard let first = counted.map(\.rollup.firstMs).min(), let last = counted.map(\.rollup.lastMs).max() else { return nil }
        return (ReportTimestamp.date(milliseconds: first), ReportTimestamp.date(milliseconds: last))
    }

    /// Whether `position` can be a line the store holds or held: not past the end of its newest
    /// segment (`start` precedes every line, even before the first). A watcher that resumes from a
    /// later one would wait for lines that never come.
    public func precedesEnd(_ position: ReportPosition) -> Bool {
        if position == .start { return true }
        guard let newest = catalog.segments.last else { return false }
        if position.segment != newest.stamp { return position.segment < newest.stamp }
        return position.offset < newest.rollup.bytes
    }
}
