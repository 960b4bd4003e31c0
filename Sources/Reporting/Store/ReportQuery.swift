import Foundation

/// Which events a reader returns; nil fields match anything.
public struct ReportFilter: Sendable, Equatable {
    /// Only events with this name.
    public var event: String?
    /// Only events with this layout.
    public var layout: String?
    /// Only events about this item.
    public var item: String?
    /// Only events of this visitor.
    public var visitor: String?
    /// Only events at or after this time.
    public var since: Date?

    /// Creates a filter; the default matches every event.
    public init(event: String? = nil, layout: String? = nil, item: String? = nil, visitor: String? = nil, since: Date? = nil) {
        self.event = event
        self.layout = layout
        self.item = item
        self.visitor = visitor
        self.since = since
    }

    /// True when `event` passes every set field.
    public func matches(_ event: ReportEvent) -> Bool {
        if let name = self.event, event.name.rawValue != name { return false }
        if let layout, event.layout != layout { return false }
        if let item, event.item != item { return false }
        if let visitor, event.visitor != visitor { return false }
        if let since, event.timestamp < since { return false }
        return true
    }
}

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

/// A position in the store for newest-first paging: the byte offset of a line within a segment.
/// Its text form (`segment:offset`) goes into "Older events" links and round-trips.
public struct ReportPosition: Sendable, Hashable, LosslessStringConvertible {
    /// The segment's time stamp, as in its file name (`20261124T141500.123Z`).
    let segment: String
    /// The byte offset of a line in the segment's uncompressed text.
    let offset: Int64

    init(segment: String, offset: Int64) {
        self.segment = segment
        self.offset = offset
    }

    /// Parses `segment:offset`; nil if malformed.
    public init?(_ description: String) {
        guard let colon = description.lastIndex(of: ":"), let offset = Int64(description[description.index(after: colon)...]),
            offset >= 0
        else { return nil }
        let segment = String(description[..<colon])
        guard SegmentName.milliseconds(stamp: segment) != nil else { return nil }
        self.segment = segment
        self.offset = offset
    }

    public var description: String { "\(segment):\(offset)" }
}

/// One page of events, newest first.
public struct ReportEventPage: Sendable, Equatable {
    /// The events, newest first.
    public var events: [ReportEvent]
    /// Pass as `before:` to go on with older events; nil when there are none.
    public var next: ReportPosition?
}
