import Foundation

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
