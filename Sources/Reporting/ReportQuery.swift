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

/// A position in the log for newest-first paging: the byte offset of a line.
public struct ReportCursor: Sendable, Hashable, LosslessStringConvertible {
    /// The byte offset of the oldest line of the previous page.
    public let offset: Int64

    /// Creates a cursor at a byte offset.
    public init(offset: Int64) { self.offset = max(0, offset) }

    /// Parses a cursor from a query string value (a decimal offset).
    public init?(_ description: String) {
        guard let offset = Int64(description), offset >= 0 else { return nil }
        self.offset = offset
    }

    public var description: String { String(offset) }
}

/// One page of events, newest first.
public struct ReportPage: Sendable, Equatable {
    /// The events, newest first.
    public var events: [ReportEvent]
    /// Pass as `before:` to get the next (older) page; nil when the start of the file was reached.
    public var nextCursor: ReportCursor?
}

/// Totals over the matching events.
public struct ReportSummary: Sendable, Equatable {
    /// How many events matched.
    public var total: Int = 0
    /// Matching events per event name.
    public var byEvent: [String: Int] = [:]
    /// Matching events per layout (events without a layout are left out).
    public var byLayout: [String: Int] = [:]
}

/// Events in one minute, for the chart.
public struct MinuteCount: Sendable, Equatable {
    /// The minute's start (UTC, whole minute).
    public var start: Date
    /// Matching events with a timestamp in [start, start + 60 s).
    public var count: Int
}
