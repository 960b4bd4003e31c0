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
    var fromMinute: Int64? { from.map { ReportTimestamp.floorDiv(ReportTimestamp.milliseconds($0), 60_000) } }
    /// The first minute excluded, or nil when open.
    var toMinute: Int64? { to.map { ReportTimestamp.floorDiv(ReportTimestamp.milliseconds($0), 60_000) } }

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

/// Totals over a range of the store, from the rollups.
public struct ReportSummary: Sendable, Equatable {
    /// The range counted, in whole minutes (nil ends: open).
    public var from: Date?
    public var to: Date?
    /// How many events matched.
    public var total: Int = 0
    /// Matching events per event name.
    public var byEvent: [String: Int] = [:]
    /// Matching events per layout (events without a layout are left out).
    public var byLayout: [String: Int] = [:]
    /// Matching events per `bucket` seconds, oldest first, empty buckets included.
    public var series: [(start: Date, count: Int)] = []
    /// The width of a `series` bucket in seconds, chosen from the range.
    public var bucket: TimeInterval = 60
    /// Distinct visitors in the range (HyperLogLog estimate, by whole hours, about 1.6% error).
    public var visitors: Int = 0
    /// Events the log has dropped since it started (full buffer, disk floor).
    public var dropped: Int = 0

    public init() {}

    public static func == (lhs: ReportSummary, rhs: ReportSummary) -> Bool {
        lhs.from == rhs.from && lhs.to == rhs.to && lhs.total == rhs.total && lhs.byEvent == rhs.byEvent
            && lhs.byLayout == rhs.byLayout && lhs.bucket == rhs.bucket && lhs.visitors == rhs.visitors
            && lhs.dropped == rhs.dropped && lhs.series.elementsEqual(rhs.series, by: { $0.start == $1.start && $0.count == $1.count })
    }
}

/// An experiment's figures per group.
public struct ReportExperimentCounts: Sendable, Equatable {
    /// The experiment's name (`experiment.<name>` in the events' properties).
    public var name: String
    /// Its groups, by name.
    public var groups: [ReportGroupCounts]
}

/// One experiment group's figures.
public struct ReportGroupCounts: Sendable, Equatable {
    /// The group's name.
    public var group: String
    /// Home views (`launch`) by the layout shown.
    public var layouts: [String: Int]
    /// Home views (`launch` events).
    public var views: Int
    /// Selections: long_selected, short_selected, stream_selected.
    public var selections: Int
    /// Distinct visitors (HyperLogLog estimate, by whole hours).
    public var visitors: Int
    /// Views and selections per UTC day, oldest first.
    public var days: [(day: Date, views: Int, selections: Int)]

    public static func == (lhs: ReportGroupCounts, rhs: ReportGroupCounts) -> Bool {
        lhs.group == rhs.group && lhs.layouts == rhs.layouts && lhs.views == rhs.views && lhs.selections == rhs.selections
            && lhs.visitors == rhs.visitors
            && lhs.days.elementsEqual(rhs.days, by: { $0.day == $1.day && $0.views == $1.views && $0.selections == $1.selections })
    }
}

/// Events in one minute, for the chart.
public struct MinuteCount: Sendable, Equatable {
    /// The minute's start (UTC, whole minute).
    public var start: Date
    /// Matching events with a timestamp in [start, start + 60 s).
    public var count: Int
}

/// A position in the log for newest-first paging (the report pages' older name for `ReportPosition`).
public struct ReportCursor: Sendable, Hashable, LosslessStringConvertible {
    /// Where the previous page stopped.
    public let position: ReportPosition

    /// Wraps a position.
    public init(position: ReportPosition) { self.position = position }

    /// Parses a cursor from a query string value.
    public init?(_ description: String) {
        guard let position = ReportPosition(description) else { return nil }
        self.position = position
    }

    public var description: String { position.description }
}

/// One page of events, newest first (the report pages' older name for `ReportEventPage`).
public struct ReportPage: Sendable, Equatable {
    /// The events, newest first.
    public var events: [ReportEvent]
    /// Pass as `before:` to get the next (older) page; nil when the start of the log was reached.
    public var nextCursor: ReportCursor?
}
