#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// Distinct visitors among the matching events: counted exactly (`visitorsExact`) with any
    /// filter or up to `ReportStore.exactVisitorEvents` events; beyond, unfiltered, a HyperLogLog
    /// estimate over the range's whole hours (`HyperLogLog.standardError`).
    public var visitors: Int = 0
    /// Whether `visitors` was counted from the events rather than estimated.
    public var visitorsExact = false
    /// False when a filter's visitors would have taken more than `ReportStore.visitorLineBudget`
    /// lines to count: `visitors` is then 0 and means nothing.
    public var visitorsCounted = true
    /// Events the log has dropped since it started (full buffer, disk floor).
    public var dropped: Int = 0
    /// The newest line the figures count, read from this instance's log, or the log's newest when
    /// the range holds none, `start` when the log holds none (nil when not told): a watcher of the
    /// stream resuming after it gets each later line once. Not a figure, so not compared.
    public var end: ReportPosition?

    public init() {}

    public static func == (lhs: ReportSummary, rhs: ReportSummary) -> Bool {
        lhs.from == rhs.from && lhs.to == rhs.to && lhs.total == rhs.total && lhs.byEvent == rhs.byEvent
            && lhs.byLayout == rhs.byLayout && lhs.bucket == rhs.bucket && lhs.visitors == rhs.visitors
            && lhs.visitorsExact == rhs.visitorsExact && lhs.visitorsCounted == rhs.visitorsCounted && lhs.dropped == rhs.dropped && lhs.series.elementsEqual(rhs.series, by: { $0.start == $1.start && $0.count == $1.count })
    }
}

/// An experiment's figures per group.
public struct ReportExperimentCounts: Sendable, Equatable {
    /// The experiment's name (`experiment.<name>` in the events' properties).
    public var name: String
    /// Its groups, by name.
    public var groups: [ReportGroupCounts]

    public init(name: String, groups: [ReportGroupCounts]) {
        self.name = name
        self.groups = groups
    }
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

    public init(group: String, layouts: [String: Int], views: Int, selections: Int, visitors: Int,
                days: [(day: Date, views: Int, selections: Int)]) {
        self.group = group
        self.layouts = layouts
        self.views = views
        self.selections = selections
        self.visitors = visitors
        self.days = days
    }

    public static func == (lhs: ReportGroupCounts, rhs: ReportGroupCounts) -> Bool {
        lhs.group == rhs.group && lhs.layouts == rhs.layouts && lhs.views == rhs.views && lhs.selections == rhs.selections
            && lhs.visitors == rhs.visitors
            && lhs.days.elementsEqual(rhs.days, by: { $0.day == $1.day && $0.views == $1.views && $0.selections == $1.selections })
    }
}
