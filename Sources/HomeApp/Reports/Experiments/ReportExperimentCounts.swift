import Foundation

// Interim copies of the report store's types (same names and shapes), so the experiments page is
// written against what the store will answer. Delete this file when the store's types are in
// Reporting: the page then reads `ReportStore.experiments(_:)` unchanged.

/// A time range of the report log; nil ends are open.
struct ReportRange: Sendable, Equatable {
    var from: Date?
    var to: Date?

    init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }

    func contains(_ date: Date) -> Bool {
        (from.map { date >= $0 } ?? true) && (to.map { date < $0 } ?? true)
    }
}

/// One experiment's counts, as tagged on the report lines (`experiment.<name>`, or the older
/// `experiment` and `group` pair).
struct ReportExperimentCounts: Sendable {
    var name: String
    var groups: [ReportGroupCounts]
}

/// One group's counts.
struct ReportGroupCounts: Sendable {
    var group: String
    /// Launch events by the layout shown.
    var layouts: [String: Int]
    /// Home views (launch events).
    var views: Int
    /// long_selected, short_selected and stream_selected events.
    var selections: Int
    /// Distinct visitors.
    var visitors: Int
    /// Views and selections per UTC day, oldest first.
    var days: [(day: Date, views: Int, selections: Int)]
}

/// Whatever answers experiment counts for a range: the report store, or the interim scan.
protocol ExperimentCounting: Sendable {
    func experiments(_ range: ReportRange) throws -> [ReportExperimentCounts]
}
