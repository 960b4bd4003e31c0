#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A time range of the store; nil ends are open. Both ends are taken to whole UTC minutes (the
/// rollups' grain): `from` rounded down and inclusive, `to` rounded down and exclusive.
public struct ReportRange: Sendable, Equatable {
    /// The first moment included; nil for the beginning of the log.
    public var from: Date?
    /// The first moment excluded; nil for now and beyond.
    public var to: Date?

    /// Creates a range; the default is everything.
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }

    /// The first minute included (minutes since 1970), or nil when open.
    public var fromMinute: Int64? { from.map { ReportTimestamp.floorDiv(ReportTimestamp.milliseconds($0), 60_000) } }
    /// The first minute excluded, or nil when open.
    public var toMinute: Int64? { to.map { ReportTimestamp.floorDiv(ReportTimestamp.milliseconds($0), 60_000) } }

    /// Whether an event at `ms` lies in the range, by whole minutes.
    func contains(ms: Int64) -> Bool {
        let minute = ReportTimestamp.floorDiv(ms, 60_000)
        if let from = fromMinute, minute < from { return false }
        if let to = toMinute, minute >= to { return false }
        return true
    }
}
